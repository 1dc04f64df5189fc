package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
)

// Defaults from issue 12: a first `npx` run often needs more than the
// 10 s other agents allow, so start-up gets 30 s; a call 10 min.
const (
	DefaultStartupTimeout = 30 * time.Second
	DefaultToolTimeout    = 10 * time.Minute
)

// stdioProtocolVersion is asked of stdio servers: the newest revision with
// the initialize handshake. With the SDK's default (2026-07-28) the client
// first sends server/discover, which hand-written servers that answer
// only the methods they know (testdata/B29, testdata/B30) leave
// unanswered until the start-up timeout. Servers on newer revisions still
// negotiate through initialize; HTTP servers get the SDK's default.
const stdioProtocolVersion = "2025-11-25"

// server is one configured server and its current connection.
type server struct {
	cfg     mcpconfig.Server
	m       *Manager
	logPath string

	mu       sync.Mutex
	state    State
	err      error
	gen      int // connection attempt; a stale attempt's results are dropped
	session  *mcp.ClientSession
	proc     *process
	tools    []*Tool
	current  *attempt
	warned   bool // the non-protocol stdout warning was given
	progress map[string]func()
	closed   bool
	asked    int // elicitations, for their question ids
}

var progressTokens atomic.Int64

func (s *server) startupTimeout() time.Duration {
	if s.cfg.StartupTimeout > 0 {
		return s.cfg.StartupTimeout
	}
	return DefaultStartupTimeout
}

func (s *server) toolTimeout() time.Duration {
	if s.cfg.ToolTimeout > 0 {
		return s.cfg.ToolTimeout
	}
	return DefaultToolTimeout
}

// attempt is one try at connecting.
type attempt struct {
	gen    int
	ctx    context.Context // cancelled when the attempt ends
	cancel context.CancelFunc
	// life outlives the start-up timeout: HTTP transports tie their
	// streams to the context Connect gets. Cancelled when the connection
	// ends (a stop, a crash, a failed start).
	life       context.Context
	cancelLife context.CancelFunc
	done       chan struct{} // closed when the attempt has ended
}

// begin marks a new attempt bounded by ctx, or returns false when the
// server was closed.
func (s *server) begin(ctx context.Context) (*attempt, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	s.gen++
	s.state, s.err, s.tools = StateStarting, nil, nil
	a := &attempt{gen: s.gen, done: make(chan struct{})}
	a.ctx, a.cancel = context.WithCancel(ctx)
	a.life, a.cancelLife = context.WithCancel(context.WithoutCancel(ctx))
	s.current = a
	return a, true
}

// connect runs an attempt: start the server, initialise, list tools.
func (s *server) connect(a *attempt) {
	defer close(a.done)
	defer a.cancel()
	s.m.changed(s)
	sess, proc, tools, err := s.dial(a)
	s.mu.Lock()
	if a.gen != s.gen || s.closed {
		s.mu.Unlock()
		shutdown(sess, proc)
		a.cancelLife()
		return
	}
	if err != nil {
		s.state, s.err = StateFailed, err
		a.cancelLife()
	} else {
		s.state, s.session, s.proc, s.tools = StateConnected, sess, proc, tools
		go s.watch(a, sess, proc)
	}
	s.mu.Unlock()
	s.m.changed(s)
}

// dial connects within the start-up timeout.
func (s *server) dial(a *attempt) (*mcp.ClientSession, *process, []*Tool, error) {
	ctx, cancel := context.WithTimeout(a.ctx, s.startupTimeout())
	defer cancel()
	t, proc, opts, err := s.transport()
	if err != nil {
		return nil, nil, nil, err
	}
	caps := &mcp.ClientCapabilities{} // explicit, or the SDK advertises roots (EXTENSIONS.md)
	if len(s.m.opts.Roots) > 0 {
		caps.RootsV2 = &mcp.RootCapabilities{}
	}
	copts := &mcp.ClientOptions{
		Capabilities:                caps,
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { go s.refresh() },
		ProgressNotificationHandler: s.progressed,
	}
	if s.m.opts.Elicit != nil {
		copts.ElicitationHandler = s.elicit // advertises elicitation (form mode)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "zero", Version: s.m.opts.ClientVersion}, copts)
	client.AddRoots(roots(s.m.opts.Roots)...)
	sess, err := client.Connect(ctx, &detached{Transport: t, life: a.life, cancel: a.cancelLife}, opts)
	if err != nil {
		err = s.startError(ctx, proc, "initialize", err)
		shutdown(nil, proc)
		return nil, nil, nil, err
	}
	tools, err := s.listTools(ctx, sess)
	if err != nil {
		err = s.startError(ctx, proc, "tools/list", err)
		shutdown(sess, proc)
		return nil, nil, nil, err
	}
	return sess, proc, tools, nil
}

func (s *server) transport() (mcp.Transport, *process, *mcp.ClientSessionOptions, error) {
	if s.m.opts.dial != nil {
		return s.m.opts.dial(s.cfg), nil, nil, nil
	}
	switch s.cfg.Transport {
	case mcpconfig.Stdio, "":
		if s.cfg.Command == "" {
			return nil, nil, nil, errors.New("no command configured (add \"command\" to the server's entry)")
		}
		if w := s.logWriter(); w != nil {
			fmt.Fprintf(w, "--- %s starting %s %q\n", time.Now().Format(time.RFC3339), s.cfg.Command, s.cfg.Args)
		}
		proc, err := startProcess(s.cfg, s.m.environ(), s.logWriter(), s.skippedStdout)
		if err != nil {
			return nil, nil, nil, err
		}
		return proc.transport(), proc, &mcp.ClientSessionOptions{ProtocolVersion: stdioProtocolVersion}, nil
	case mcpconfig.HTTP, mcpconfig.SSE:
		t, err := httpTransport(s.cfg, s.m.getenv, s.m.opts.Auth)
		return t, nil, nil, err
	default:
		return nil, nil, nil, fmt.Errorf("unknown transport %q (use stdio, http or sse)", s.cfg.Transport)
	}
}

// startError says why an attempt failed: the process's exit and stderr
// when it died, the timeout when it did not answer.
func (s *server) startError(ctx context.Context, proc *process, step string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer to %s within %v (raise startupTimeout for slow first runs)", step, s.startupTimeout())
	}
	if proc != nil {
		if exit := proc.exitError(time.Second); exit != nil {
			return fmt.Errorf("server %s during %s", exit, step)
		}
	}
	if errors.Is(err, mcpauth.ErrLoginNeeded) {
		return fmt.Errorf("%s: %w", step, err)
	}
	if proc == nil && strings.Contains(err.Error(), http.StatusText(http.StatusUnauthorized)) {
		return fmt.Errorf("%s: %w (the server asks for authorization: run zero mcp login %s, or give it a token with bearer_token_env_var or an Authorization header)", step, err, s.cfg.Name)
	}
	return fmt.Errorf("%s: %w", step, err)
}

// listTools lists every page of tools, keeping those the user allows.
func (s *server) listTools(ctx context.Context, sess *mcp.ClientSession) ([]*Tool, error) {
	var out []*Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if !s.allowed(t.Name) {
			continue
		}
		out = append(out, newTool(s, t, s.m.names.name(s.cfg.Name, t.Name)))
	}
	return out, nil
}

func (s *server) allowed(tool string) bool {
	if len(s.cfg.EnabledTools) > 0 && !slices.Contains(s.cfg.EnabledTools, tool) {
		return false
	}
	return !slices.Contains(s.cfg.DisabledTools, tool)
}

// refresh re-lists tools after notifications/tools/list_changed; a failed
// refresh keeps the last good list.
func (s *server) refresh() {
	s.mu.Lock()
	sess, gen := s.session, s.gen
	s.mu.Unlock()
	if sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.startupTimeout())
	defer cancel()
	tools, err := s.listTools(ctx, sess)
	if err != nil {
		s.m.warn(s.cfg.Name, fmt.Sprintf("tool list refresh failed, keeping the last good list: %v", err))
		return
	}
	s.mu.Lock()
	if gen == s.gen && s.state == StateConnected {
		s.tools = tools
	}
	s.mu.Unlock()
	s.m.changed(s)
}

// watch notices the end of a connection Zero did not close: a crash.
func (s *server) watch(a *attempt, sess *mcp.ClientSession, proc *process) {
	defer a.cancelLife()
	_ = sess.Wait()
	err := errors.New("connection closed")
	if proc != nil {
		if exit := proc.exitError(2 * time.Second); exit != nil {
			err = fmt.Errorf("server %w", exit)
		}
	}
	s.mu.Lock()
	if a.gen != s.gen || s.closed || s.state != StateConnected {
		s.mu.Unlock()
		return
	}
	s.state, s.err, s.tools, s.session = StateFailed, fmt.Errorf("crashed: %w", err), nil, nil
	s.mu.Unlock()
	shutdown(nil, proc)
	s.m.changed(s)
}

// live returns the session for a call of the server's tool named tool,
// or an error saying why there is none and what to do. It goes by the
// current connection, so a Tool from before a reconnect still works.
func (s *server) live(tool string) (*mcp.ClientSession, *process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case StateConnected:
		for _, t := range s.tools {
			if t.remote.Name == tool {
				return s.session, s.proc, nil
			}
		}
		return nil, nil, fmt.Errorf("MCP server %s no longer offers tool %s", s.cfg.Name, tool)
	case StateFailed:
		return nil, nil, fmt.Errorf("MCP server %s is down (%v); its tools are withdrawn until the user reconnects it (/mcp reconnect %s)", s.cfg.Name, s.err, s.cfg.Name)
	default:
		return nil, nil, fmt.Errorf("MCP server %s is %s", s.cfg.Name, s.state)
	}
}

// watchProgress registers a progress token whose notifications call reset.
func (s *server) watchProgress(reset func()) (token string, stop func()) {
	token = "zero-" + strconv.FormatInt(progressTokens.Add(1), 10)
	s.mu.Lock()
	if s.progress == nil {
		s.progress = map[string]func(){}
	}
	s.progress[token] = reset
	s.mu.Unlock()
	return token, func() {
		s.mu.Lock()
		delete(s.progress, token)
		s.mu.Unlock()
	}
}

func (s *server) progressed(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	token, _ := req.Params.ProgressToken.(string)
	s.mu.Lock()
	reset := s.progress[token]
	s.mu.Unlock()
	if reset != nil {
		reset()
	}
}

// skippedStdout logs a non-protocol stdout line and warns once (B29).
func (s *server) skippedStdout(line []byte) {
	if w := s.logWriter(); w != nil {
		fmt.Fprintf(w, "[stdout, not protocol] %s\n", line)
	}
	s.mu.Lock()
	first := !s.warned
	s.warned = true
	s.mu.Unlock()
	if first {
		s.m.warn(s.cfg.Name, fmt.Sprintf("server wrote non-protocol output to stdout (skipped; first line: %q)", truncate(string(line), 120)))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return validUTF8Prefix(s[:n]) + "…"
}

// logWriter appends to the server's log file, or is nil without a log
// directory.
func (s *server) logWriter() io.Writer {
	if s.logPath == "" {
		return nil
	}
	return appendFile(s.logPath)
}

// appendFile is an io.Writer that opens path for each write (O_APPEND), so
// no descriptor outlives a server and concurrent writers interleave lines.
type appendFile string

func (p appendFile) Write(b []byte) (int, error) {
	f, err := os.OpenFile(string(p), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.Write(b)
}

func logPath(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "mcp-"+sanitize(name)+".log")
}

// stop ends the current connection, or the attempt still starting, for
// good (closed) or for a reconnect, and waits until it has ended.
func (s *server) stop(closed bool) {
	s.mu.Lock()
	s.gen++
	s.closed = s.closed || closed
	a, sess, proc := s.current, s.session, s.proc
	s.session, s.proc, s.tools = nil, nil, nil
	if closed && s.state != StateDisabled {
		s.state, s.err = StateClosed, nil
	}
	s.mu.Unlock()
	if a != nil {
		a.cancel()
		<-a.done
	}
	shutdown(sess, proc)
	if a != nil {
		a.cancelLife()
	}
}

// detached connects its transport with the connection's life context
// instead of the start-up one, so the SSE stream and streamable HTTP's
// standalone stream survive the end of the start-up; the start-up timeout
// still ends a Connect in progress.
type detached struct {
	mcp.Transport
	life   context.Context
	cancel context.CancelFunc
}

func (d *detached) Connect(ctx context.Context) (mcp.Connection, error) {
	stop := context.AfterFunc(ctx, d.cancel)
	conn, err := d.Transport.Connect(d.life)
	if !stop() { // ctx ended during Connect
		if err == nil {
			_ = conn.Close()
		}
		return nil, ctx.Err()
	}
	return conn, err
}

// shutdown ends a process (group) first, so the session's close does not
// wait on a hung server, then the session.
func shutdown(sess *mcp.ClientSession, proc *process) {
	if proc != nil {
		proc.stop()
	}
	if sess != nil {
		done := make(chan struct{})
		go func() {
			_ = sess.Close()
			close(done)
		}()
		waitFor(done, termGrace)
	}
}

// roots are dirs as MCP roots: file:// URIs named after their folder.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/roots
func roots(dirs []string) []*mcp.Root {
	var out []*mcp.Root
	for _, d := range dirs {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(d)}
		out = append(out, &mcp.Root{URI: u.String(), Name: filepath.Base(d)})
	}
	return out
}

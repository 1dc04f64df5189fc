package mcp

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/tools"
)

// State is where a server is in its life.
type State string

// States.
const (
	StateStarting  State = "starting"
	StateConnected State = "connected"
	StateFailed    State = "failed"
	StateDisabled  State = "disabled"
	// StateClosed is a server after Manager.Close.
	StateClosed State = "closed"
)

// Status is one server's state, for /mcp, `zero mcp list` and the
// start-up notice.
type Status struct {
	Name     string
	State    State
	Required bool
	// Tools is how many tools it offers now (connected only).
	Tools int
	// Err says why it failed (StateFailed only): the exit code and stderr
	// tail, the timeout, or the protocol error.
	Err error
	// LogPath is the file holding its stderr and skipped stdout lines;
	// empty without Options.LogDir.
	LogPath string
	Origin  string
}

// Options configure a Manager. The zero value works: no log files, no
// callbacks, the process environment.
type Options struct {
	// LogDir receives one log per server, mcp-<name>.log (the session's
	// log directory, so `zero logs` can name them).
	LogDir string
	// ClientVersion is sent as the client's version in initialize.
	ClientVersion string
	// OnChange is called, from any goroutine, after a server's state or
	// tool list changed: connected, failed (a crash included), refreshed.
	OnChange func(Status)
	// Warn is called with a server's name and a one-line warning that is
	// not a state change (stdout noise, a failed tool list refresh).
	Warn func(server, msg string)
	// Environ is the environment a stdio server inherits from (a minimal
	// subset of it); nil is os.Environ().
	Environ []string
	// Roots are the folders servers are told they may work in (the
	// workspace and added directories), as file:// roots; none: the
	// client declares no roots capability.
	Roots []string
	// Elicit puts a server's elicitation (a form) to the user and returns
	// the answer; nil: Zero declares no elicitation capability, so
	// servers do not ask.
	Elicit ask.Asker
	// Auth holds the OAuth tokens `zero mcp login` stored; a streamable
	// HTTP server with one (and no Authorization header of its own) is
	// sent it. The zero value (no Dir) sends none.
	Auth mcpauth.Store
	// Getenv reads MAX_MCP_OUTPUT_TOKENS and bearer token variables; nil
	// is os.Getenv.
	Getenv func(string) string

	// dial, in tests, replaces the configured transport (an in-memory
	// server inside a synctest bubble).
	dial func(mcpconfig.Server) mcp.Transport
}

// Manager runs the configured MCP servers of one Zero process. The zero
// value is ready; Start it once, Close it at exit. Its methods are safe
// for concurrent use.
type Manager struct {
	opts      Options
	maxOutput int
	names     nameTable

	mu      sync.Mutex
	servers []*server // config order
}

// Start starts every enabled server in parallel in the background and
// returns at once. ctx bounds the start-ups (not the connections after).
func (m *Manager) Start(ctx context.Context, servers []mcpconfig.Server, opts Options) {
	if opts.LogDir != "" {
		if err := os.MkdirAll(opts.LogDir, 0o700); err != nil {
			opts.LogDir = ""
			if opts.Warn != nil {
				opts.Warn("", fmt.Sprintf("MCP server logs are off: %v", err))
			}
		}
	}
	m.mu.Lock()
	m.opts = opts
	m.maxOutput = maxOutputBytes(m.getenv)
	var starts []*server
	for _, cfg := range servers {
		s := &server{cfg: cfg, m: m, logPath: logPath(opts.LogDir, cfg.Name), state: StateDisabled}
		m.servers = append(m.servers, s)
		if cfg.Enabled {
			s.state = StateStarting
			starts = append(starts, s)
		}
	}
	m.mu.Unlock()
	for _, s := range starts {
		if a, ok := s.begin(ctx); ok {
			go s.connect(a)
		}
	}
}

// Wait waits for servers still starting, each up to its start-up timeout
// (enforced by the start itself) or until ctx ends, and returns the
// status of every enabled server that is not connected: failed, or still
// starting when ctx ended.
func (m *Manager) Wait(ctx context.Context) []Status {
	for _, s := range m.list() {
		s.mu.Lock()
		a := s.current
		s.mu.Unlock()
		if a == nil {
			continue
		}
		select {
		case <-a.done:
		case <-ctx.Done():
		}
	}
	var out []Status
	for _, st := range m.Status() {
		if st.State == StateFailed || st.State == StateStarting {
			out = append(out, st)
		}
	}
	return out
}

// Tools returns the current tools of connected servers, in config order
// and each server's order.
func (m *Manager) Tools() []tools.Tool {
	var out []tools.Tool
	for _, s := range m.list() {
		s.mu.Lock()
		if s.state == StateConnected {
			for _, t := range s.tools {
				out = append(out, t)
			}
		}
		s.mu.Unlock()
	}
	return out
}

// Lookup maps an offered tool name back to its server and the server's
// own tool name.
func (m *Manager) Lookup(name string) (server, tool string, ok bool) {
	ref, ok := m.names.lookup(name)
	return ref.Server, ref.Tool, ok
}

// Status returns every configured server's status, in config order.
func (m *Manager) Status() []Status {
	var out []Status
	for _, s := range m.list() {
		out = append(out, s.status())
	}
	return out
}

// Summary is the state in a few words: "starting", "connected, 9 tools",
// "failed: <why>", "disabled".
func (st Status) Summary() string {
	switch st.State {
	case StateConnected:
		if st.Tools == 1 {
			return "connected, 1 tool"
		}
		return fmt.Sprintf("connected, %d tools", st.Tools)
	case StateFailed:
		return fmt.Sprintf("failed: %v", st.Err)
	default:
		return string(st.State)
	}
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, State: s.state, Required: s.cfg.Required, LogPath: s.logPath, Origin: s.cfg.Origin}
	if s.state == StateConnected {
		st.Tools = len(s.tools)
	}
	if s.state == StateFailed {
		st.Err = s.err
	}
	return st
}

// Reconnect ends server name's connection, if any, and connects again,
// waiting up to its start-up timeout (or ctx). It returns the reason the
// new connection failed.
func (m *Manager) Reconnect(ctx context.Context, name string) error {
	s := m.find(name)
	if s == nil {
		return fmt.Errorf("no MCP server named %q (see zero mcp list)", name)
	}
	if !s.cfg.Enabled {
		return fmt.Errorf("MCP server %s is disabled (zero mcp enable %s)", name, name)
	}
	s.stop(false)
	a, ok := s.begin(ctx)
	if !ok {
		return fmt.Errorf("MCP servers are shut down")
	}
	go s.connect(a)
	select {
	case <-a.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.status().Err
}

// Close ends every server (a stdio server's whole process group) and
// waits for them.
func (m *Manager) Close() error {
	var wg sync.WaitGroup
	for _, s := range m.list() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stop(true)
		}()
	}
	wg.Wait()
	return nil
}

func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*server(nil), m.servers...)
}

func (m *Manager) find(name string) *server {
	for _, s := range m.list() {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

func (m *Manager) changed(s *server) {
	if m.opts.OnChange != nil {
		m.opts.OnChange(s.status())
	}
}

func (m *Manager) warn(server, msg string) {
	if m.opts.Warn != nil {
		m.opts.Warn(server, msg)
	}
}

func (m *Manager) environ() []string {
	if m.opts.Environ != nil {
		return m.opts.Environ
	}
	return os.Environ()
}

func (m *Manager) getenv(k string) string {
	if m.opts.Getenv != nil {
		return m.opts.Getenv(k)
	}
	return os.Getenv(k)
}

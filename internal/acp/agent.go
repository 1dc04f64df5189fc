package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
)

// Options say how `zero acp` runs: the run-layer options every session
// starts from (its Workdir is the session's cwd) and where logs go.
type Options struct {
	Run     run.Options
	Version string
	Stderr  io.Writer
}

// Serve speaks ACP on in/out until the client closes in, then closes
// every session (their tools' processes and MCP servers end with them).
func Serve(in io.Reader, out io.Writer, o Options) error {
	a := newAgent(o)
	late := &lateConn{ready: make(chan struct{})}
	a.conn = late
	// The SDK's reader starts at once; it reads nothing until the logger
	// is set (SetLogger is a plain write the reader's logging reads).
	conn := acpsdk.NewAgentSideConnection(a, out, readyReader{late.ready, in})
	conn.SetLogger(slog.New(slog.NewTextHandler(a.o.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	late.c = conn
	close(late.ready)
	<-conn.Done()
	a.closeAll()
	return nil
}

// readyReader reads r once ready is closed.
type readyReader struct {
	ready chan struct{}
	r     io.Reader
}

func (g readyReader) Read(p []byte) (int, error) {
	<-g.ready
	return g.r.Read(p)
}

// conn is what the bridge asks of the client side.
type conn interface {
	notifier
	fsConn
	termConn
	RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error)
}

// lateConn is the connection, once NewAgentSideConnection returned it
// (its reader may hand the agent a request before).
type lateConn struct {
	ready chan struct{}
	c     *acpsdk.AgentSideConnection
}

func (l *lateConn) SessionUpdate(ctx context.Context, n acpsdk.SessionNotification) error {
	<-l.ready
	return l.c.SessionUpdate(ctx, n)
}

func (l *lateConn) ReadTextFile(ctx context.Context, p acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	<-l.ready
	return l.c.ReadTextFile(ctx, p)
}

func (l *lateConn) WriteTextFile(ctx context.Context, p acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	<-l.ready
	return l.c.WriteTextFile(ctx, p)
}

func (l *lateConn) CreateTerminal(ctx context.Context, p acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	<-l.ready
	return l.c.CreateTerminal(ctx, p)
}

func (l *lateConn) TerminalOutput(ctx context.Context, p acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	<-l.ready
	return l.c.TerminalOutput(ctx, p)
}

func (l *lateConn) WaitForTerminalExit(ctx context.Context, p acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	<-l.ready
	return l.c.WaitForTerminalExit(ctx, p)
}

func (l *lateConn) KillTerminal(ctx context.Context, p acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	<-l.ready
	return l.c.KillTerminal(ctx, p)
}

func (l *lateConn) ReleaseTerminal(ctx context.Context, p acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	<-l.ready
	return l.c.ReleaseTerminal(ctx, p)
}

func (l *lateConn) RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	<-l.ready
	return l.c.RequestPermission(ctx, p)
}

// agent implements acp.Agent and acp.AgentLoader over the run layer.
type agent struct {
	o    Options
	conn conn

	mu       sync.Mutex
	sessions map[string]*session
	// fs is what the client's initialize offered of its file system;
	// terminal whether it offered terminal/*.
	fs       acpsdk.FileSystemCapabilities
	terminal bool
	// provider is the hosted provider an API-key auth method chose for
	// later sessions ("": the config's choice; auth.go).
	provider string
}

func newAgent(o Options) *agent {
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	o.Run.Stderr = o.Stderr
	return &agent{o: o, sessions: map[string]*session{}}
}

var (
	_ acpsdk.Agent       = (*agent)(nil)
	_ acpsdk.AgentLoader = (*agent)(nil)
)

func (a *agent) Initialize(_ context.Context, p acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
	a.mu.Lock()
	a.fs = p.ClientCapabilities.Fs
	a.terminal = p.ClientCapabilities.Terminal
	a.mu.Unlock()
	return acpsdk.InitializeResponse{
		ProtocolVersion: acpsdk.ProtocolVersionNumber,
		AgentInfo:       &acpsdk.Implementation{Name: "zero", Title: acpsdk.Ptr("Zero"), Version: a.o.Version},
		AgentCapabilities: acpsdk.AgentCapabilities{
			Auth:               acpsdk.AgentAuthCapabilities{Logout: &acpsdk.LogoutCapabilities{}},
			LoadSession:        true,
			PromptCapabilities: acpsdk.PromptCapabilities{EmbeddedContext: true, Image: true},
			McpCapabilities:    acpsdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: acpsdk.SessionCapabilities{
				List:   &acpsdk.SessionListCapabilities{},
				Resume: &acpsdk.SessionResumeCapabilities{},
				Close:  &acpsdk.SessionCloseCapabilities{},
			},
		},
		AuthMethods: authMethods(),
	}, nil
}

func (a *agent) NewSession(_ context.Context, p acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) {
	s, err := a.open(p.Cwd, p.AdditionalDirectories, p.McpServers, run.Which{})
	if err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	// After the answer, as the client needs the session id first.
	go s.updates.send(s.availableCommands())
	go s.fetchModels()
	return acpsdk.NewSessionResponse{SessionId: acpsdk.SessionId(s.id), Modes: s.modes(), ConfigOptions: s.configOptions()}, nil
}

func (a *agent) LoadSession(_ context.Context, p acpsdk.LoadSessionRequest) (acpsdk.LoadSessionResponse, error) {
	s, err := a.open(p.Cwd, p.AdditionalDirectories, p.McpServers, run.Which{ID: string(p.SessionId)})
	if err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	if err := s.replay(); err != nil {
		fmt.Fprintln(a.o.Stderr, "zero: warning: replaying the session log:", err)
	}
	s.updates.send(s.availableCommands())
	go s.fetchModels()
	return acpsdk.LoadSessionResponse{Modes: s.modes(), ConfigOptions: s.configOptions()}, nil
}

func (a *agent) ResumeSession(_ context.Context, p acpsdk.ResumeSessionRequest) (acpsdk.ResumeSessionResponse, error) {
	s, err := a.open(p.Cwd, p.AdditionalDirectories, p.McpServers, run.Which{ID: string(p.SessionId)})
	if err != nil {
		return acpsdk.ResumeSessionResponse{}, err
	}
	go s.updates.send(s.availableCommands())
	go s.fetchModels()
	return acpsdk.ResumeSessionResponse{Modes: s.modes(), ConfigOptions: s.configOptions()}, nil
}

func (a *agent) ListSessions(_ context.Context, p acpsdk.ListSessionsRequest) (acpsdk.ListSessionsResponse, error) {
	return listSessions(p)
}

func (a *agent) CloseSession(_ context.Context, p acpsdk.CloseSessionRequest) (acpsdk.CloseSessionResponse, error) {
	a.mu.Lock()
	s := a.sessions[string(p.SessionId)]
	delete(a.sessions, string(p.SessionId))
	a.mu.Unlock()
	if s == nil {
		return acpsdk.CloseSessionResponse{}, acpsdk.NewInvalidParams("no open session " + string(p.SessionId))
	}
	s.close()
	return acpsdk.CloseSessionResponse{}, nil
}

func (a *agent) Cancel(_ context.Context, p acpsdk.CancelNotification) error {
	if s := a.get(p.SessionId); s != nil {
		s.cancelPrompt()
	}
	return nil
}

func (a *agent) Prompt(ctx context.Context, p acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	s := a.get(p.SessionId)
	if s == nil {
		return acpsdk.PromptResponse{}, acpsdk.NewInvalidParams("no open session " + string(p.SessionId))
	}
	text, raw, err := promptText(p.Prompt)
	if err != nil {
		return acpsdk.PromptResponse{}, acpsdk.NewInvalidParams(err.Error())
	}
	var imgs []llm.Image
	for _, r := range raw {
		img, err := s.s.AttachImage(r.name, r.data)
		if err != nil {
			return acpsdk.PromptResponse{}, acpsdk.NewInvalidParams(err.Error())
		}
		imgs = append(imgs, img)
	}
	return s.prompt(ctx, text, imgs)
}

func (a *agent) SetSessionMode(_ context.Context, p acpsdk.SetSessionModeRequest) (acpsdk.SetSessionModeResponse, error) {
	s := a.get(p.SessionId)
	if s == nil {
		return acpsdk.SetSessionModeResponse{}, acpsdk.NewInvalidParams("no open session " + string(p.SessionId))
	}
	m, err := permission.ParseMode(string(p.ModeId))
	if err != nil {
		return acpsdk.SetSessionModeResponse{}, acpsdk.NewInvalidParams(err.Error())
	}
	s.setMode(m)
	return acpsdk.SetSessionModeResponse{}, nil
}

func (a *agent) SetSessionConfigOption(_ context.Context, p acpsdk.SetSessionConfigOptionRequest) (acpsdk.SetSessionConfigOptionResponse, error) {
	v := p.ValueId
	if v == nil {
		return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewInvalidParams("zero's config options (mode, model, thought_level) take a value id")
	}
	s := a.get(v.SessionId)
	if s == nil {
		return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewInvalidParams("no open session " + string(v.SessionId))
	}
	if err := s.setOption(string(v.ConfigId), string(v.Value)); err != nil {
		return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewInvalidParams(err.Error())
	}
	return acpsdk.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions()}, nil
}

func (a *agent) get(id acpsdk.SessionId) *session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[string(id)]
}

// open opens a runtime for cwd and a session in it. Each ACP session has
// its own runtime, so its mode and MCP servers are its own and end with
// it.
func (a *agent) open(cwd string, dirs []string, servers []acpsdk.McpServer, w run.Which) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, acpsdk.NewInvalidParams(fmt.Sprintf("cwd must be an absolute path, not %q", cwd))
	}
	if w.ID != "" && a.get(acpsdk.SessionId(w.ID)) != nil {
		return nil, acpsdk.NewInvalidRequest("session " + w.ID + " is open already")
	}
	extra, err := mcpServers(servers)
	if err != nil {
		return nil, acpsdk.NewInvalidParams(err.Error())
	}
	o := a.withProvider(a.o.Run)
	o.MCPServers = extra
	o.Workdir, o.AddDirs = cwd, append(append([]string(nil), o.AddDirs...), dirs...)
	// ask_user is offered: a question with choices reaches the editor
	// (questions.go).
	o.Questions = true
	rt, err := run.Open(o)
	if err != nil {
		return nil, openError(err)
	}
	rs, err := rt.OpenSession(w)
	if err != nil {
		rt.Close()
		return nil, openError(err)
	}
	s := newSession(a.conn, rt, rs)
	a.mu.Lock()
	if a.fs.ReadTextFile || a.fs.WriteTextFile {
		rt.Workspace.SetEditor(&editorFS{conn: a.conn, id: acpsdk.SessionId(s.id), read: a.fs.ReadTextFile, write: a.fs.WriteTextFile})
	}
	if a.terminal && rt.Config.ACPTerminal {
		s.terminal = &editorTerminal{conn: a.conn, id: acpsdk.SessionId(s.id), updates: s.updates}
		fmt.Fprintln(a.o.Stderr, "zero: acp.terminal is on: bash commands of session "+s.id+" run in the editor's terminal, outside Zero's sandbox")
	}
	a.sessions[s.id] = s
	a.mu.Unlock()
	return s, nil
}

// openError is a run-layer error as a JSON-RPC one: a hosted provider
// without its key, or no provider at all (nothing configured, no local
// server found), is auth_required, so the editor offers the auth
// methods; other configuration problems are the client's to show
// (invalid params), the rest internal.
func openError(err error) error {
	var ke *run.KeyError
	var ue *run.UnconfiguredError
	if errors.As(err, &ke) || errors.As(err, &ue) {
		return acpsdk.NewAuthRequired(err.Error())
	}
	var ce *run.ConfigError
	var iu *run.InUseError
	if errors.As(err, &ce) || errors.As(err, &iu) {
		return acpsdk.NewInvalidParams(err.Error())
	}
	return acpsdk.NewInternalError(err.Error())
}

func (a *agent) closeAll() {
	a.mu.Lock()
	all := a.sessions
	a.sessions = map[string]*session{}
	a.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}

// stopReason maps the run's stop reason to ACP's
// (https://agentclientprotocol.com/protocol/prompt-turn#stop-reasons).
func stopReason(r event.StopReason) acpsdk.StopReason {
	switch r {
	case event.StopMaxTurns:
		return acpsdk.StopReasonMaxTurnRequests
	case event.StopInterrupted:
		return acpsdk.StopReasonCancelled
	}
	return acpsdk.StopReasonEndTurn
}

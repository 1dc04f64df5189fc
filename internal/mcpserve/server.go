package mcpserve

import (
	"context"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/run"
)

// Options say how the server runs Zero.
type Options struct {
	// Run is the base of every runtime the server opens: provider
	// overrides, the default workspace (Workdir, "" is the server's
	// current directory) and permission mode, Stderr for set-up warnings.
	// A `zero` call's cwd, permission_mode and model override it.
	Run run.Options
	// Tools serves Zero's core tools instead of the agent.
	Tools bool
	// Version is the server version the client is told.
	Version string
}

// Server is Zero as an MCP server. Close ends the sessions it opened.
type Server struct {
	mcp  *mcp.Server
	opts Options
	// core is the runtime of --tools mode (nil in agent mode).
	core *run.Runtime
	// stopping ends when Run's context does: the SDK lets a handler run
	// on when its connection closes, so runs and calls watch this too.
	stopping context.Context
	stop     context.CancelFunc
	// heartbeat is the progress heartbeat's period (tests shorten it).
	heartbeat time.Duration

	mu      sync.Mutex
	threads map[string]*thread
}

// New builds the server. In --tools mode it opens the runtime at once (a
// configuration problem is an error before any client connects).
func New(o Options) (*Server, error) {
	if o.Run.Stderr == nil {
		o.Run.Stderr = io.Discard
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{opts: o, threads: map[string]*thread{}, heartbeat: heartbeat}
	s.stopping, s.stop = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "zero", Title: "Zero", Version: version}, &mcp.ServerOptions{
		Instructions:              instructions(o.Tools),
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		SupportedProtocolVersions: legacyVersions(),
	})
	if o.Tools {
		// tools only: no model is asked anything, so none is looked for
		ro := o.Run
		ro.NoModel = true
		rt, err := run.Open(ro)
		if err != nil {
			s.stop()
			return nil, err
		}
		s.core = rt
		s.addCoreTools(rt)
		return s, nil
	}
	s.addAgentTools()
	return s, nil
}

// legacyVersions are the protocol revisions that let a server send an
// elicitation while it serves a tool call (see the package comment).
func legacyVersions() []string {
	return slices.DeleteFunc(mcp.SupportedProtocolVersions(), func(v string) bool { return v >= "2026-07-28" })
}

func instructions(tools bool) string {
	if tools {
		return "Zero's core tools (read_file, grep, edit_file, bash, ...) over one workspace, under Zero's permission rules and sandbox: writes and commands ask for approval in normal mode."
	}
	return "Zero is a coding agent. `zero` runs a task in a workspace and answers with a threadId; `zero_reply` continues that thread."
}

// MCP is the SDK server, for a caller that connects its own transport
// (tests use an in-memory one).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t (stdio: &mcp.StdioTransport{}) until it
// disconnects or ctx ends (then runs under way are interrupted).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	defer context.AfterFunc(ctx, s.stop)()
	return s.mcp.Run(ctx, t)
}

// callContext is a handler's ctx, also ended when the server stops.
func (s *Server) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.stopping, cancel)
	return ctx, func() { stop(); cancel() }
}

// Close interrupts the runs under way and ends every thread's session
// and runtime.
func (s *Server) Close() {
	s.stop()
	s.mu.Lock()
	threads := s.threads
	s.threads = map[string]*thread{}
	s.mu.Unlock()
	for _, th := range threads {
		th.close()
	}
	if s.core != nil {
		s.core.Close()
	}
}

package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/mcp"
	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/mcp/toolsearch"
	"github.com/zero-agent/zero/internal/plugins"
	"github.com/zero-agent/zero/internal/tools"
)

// mcpServers are a runtime's MCP servers: read from every config source
// at Open and started there in the background, so neither the app's first
// frame nor a run's set-up waits for them; a session's first prompt does
// (Session.PrepareMCP), up to each server's start-up timeout.
type mcpServers struct {
	mgr    *mcp.Manager
	loaded mcpconfig.Loaded
	logDir string
	// waited: a session's first prompt has reported the start-ups, so a
	// failure from now on is a crash, said when it happens.
	waited atomic.Bool
}

// MCPRequiredError is a server marked required that did not start: `zero
// exec` exits with its own code rather than run without it.
type MCPRequiredError struct {
	Server string
	Err    error
}

func (e *MCPRequiredError) Error() string {
	return fmt.Sprintf("the required MCP server %q did not start: %v", e.Server, e.Err)
}

func (e *MCPRequiredError) Unwrap() error { return e.Err }

// startMCP reads the MCP configuration for the workspace and starts its
// servers; nil when none is configured. It says on stderr which servers
// it skipped and why (a project not trusted, a malformed entry) and what
// its sources warned of.
func startMCP(warnings func() io.Writer, elicit ask.Asker, o mcpStart) *mcpServers {
	stderr := warnings()
	home, _ := os.UserHomeDir()
	opts, warns := MCPOptions(home, o.workspace, o.trusted, o.plugins)
	for _, w := range warns {
		fmt.Fprintln(stderr, "zero: warning:", w)
	}
	loaded := mcpconfig.Load(opts)
	loaded.Servers = withExtra(loaded.Servers, o.extra)
	roots, logDir := o.roots, o.logDir
	for _, w := range loaded.Warnings {
		fmt.Fprintln(stderr, "zero: warning: MCP:", w)
	}
	for _, sk := range loaded.Skipped {
		fmt.Fprintf(stderr, "zero: MCP server %q (%s) not started: %s\n", sk.Name, sk.Origin, sk.Reason)
	}
	if len(loaded.Servers) == 0 {
		return nil
	}
	m := &mcpServers{mgr: &mcp.Manager{}, loaded: loaded, logDir: logDir}
	// Later lines go where the surface wants warnings now (the app's
	// transcript), not to the stderr of Open.
	m.mgr.Start(context.Background(), loaded.Servers, mcp.Options{
		LogDir:        logDir,
		ClientVersion: "zero",
		Auth:          MCPAuthStore(),
		Elicit:        elicit,
		Roots:         roots,
		Warn: func(server, msg string) {
			fmt.Fprintf(warnings(), "zero: warning: MCP server %q: %s\n", server, msg)
		},
		OnChange: func(st mcp.Status) {
			if st.State == mcp.StateFailed && m.waited.Load() {
				fmt.Fprintf(warnings(), "zero: MCP server %q stopped (%v); its tools fail until /mcp reconnect %s%s\n", st.Name, st.Err, st.Name, logNote(st.LogPath))
			}
		},
	})
	return m
}

// mcpStart is what startMCP needs of the runtime: the workspace and its
// roots, its trust, where servers' logs go, the surface's own servers
// and the plugins.
type mcpStart struct {
	workspace string
	roots     []string
	trusted   bool
	logDir    string
	extra     []mcpconfig.Server
	plugins   *plugins.Set
}

// MCPOptions are where MCP servers are read from for workspace (its
// trust), with the active plugins' servers (`zero mcp list` reads the
// same); warns are the plugins' MCP files that could not be read.
func MCPOptions(home, workspace string, trusted bool, plug *plugins.Set) (o mcpconfig.Options, warns []string) {
	o = mcpconfig.Options{Home: home, ConfigDir: config.Dir(), Workspace: workspace, Trusted: trusted, LookupEnv: os.LookupEnv}
	o.Plugins, warns = plug.MCPServers(os.LookupEnv)
	return o, warns
}

// withExtra is the configured servers with the surface's (Options.MCPServers)
// added; one whose name the config also uses replaces the config's.
func withExtra(servers, extra []mcpconfig.Server) []mcpconfig.Server {
	if len(extra) == 0 {
		return servers
	}
	names := map[string]bool{}
	for _, e := range extra {
		names[e.Name] = true
	}
	var out []mcpconfig.Server
	for _, s := range servers {
		if !names[s.Name] {
			out = append(out, s)
		}
	}
	return append(out, extra...)
}

// MCPAuthStore is where `zero mcp login` keeps OAuth tokens: the config
// dir's mcp-auth folder, one file per server, mode 0600.
func MCPAuthStore() mcpauth.Store {
	return mcpauth.Store{Dir: filepath.Join(config.Dir(), "mcp-auth")}
}

// MCPLogDir is where MCP servers' stderr goes (mcp-<name>.log): beside
// the sessions directory, so `zero logs` can name it.
func MCPLogDir(sessionsDir string) string {
	return filepath.Join(filepath.Dir(sessionsDir), "mcp-logs")
}

// close ends every server.
func (m *mcpServers) close() {
	if m != nil {
		_ = m.mgr.Close()
	}
}

// PrepareMCP waits for MCP servers still starting (each up to its
// start-up timeout, or until ctx ends), says which did not start, and
// fixes the MCP tools this session offers: all of them when their schemas
// fit the budget (a tenth of the window), else the ones marked alwaysLoad
// plus mcp_search and mcp_call over the rest. The list is decided once,
// before the first request, and never changes, so every request stays
// the previous one plus new messages (the prompt cache holds). A server
// marked required that did not start is an *MCPRequiredError. Prompt
// calls it; exec calls it first to fail before any request.
func (s *Session) PrepareMCP(ctx context.Context) error {
	s.mcpOnce.Do(func() { s.mcpErr = s.offerMCP(ctx) })
	return s.mcpErr
}

func (s *Session) offerMCP(ctx context.Context) error {
	m := s.rt.mcp
	if m == nil {
		return nil
	}
	var required error
	defer m.waited.Store(true)
	for _, st := range m.mgr.Wait(ctx) {
		why := "still starting"
		if st.Err != nil {
			why = st.Err.Error()
		}
		fmt.Fprintf(s.rt.warnings(), "zero: MCP server %q did not start (%s); going on without its tools%s\n", st.Name, why, logNote(st.LogPath))
		if st.Required && required == nil {
			required = &MCPRequiredError{Server: st.Name, Err: errors.New(why)}
		}
	}
	if required != nil {
		return required
	}
	entries := mcpEntries(m.mgr.Tools())
	_, window := s.rt.ModelWindow()
	direct, deferred := toolsearch.Budget(entries, window, toolsearch.DefaultFraction, alwaysLoad(m.loaded.Servers))
	byName := map[string]tools.Tool{}
	for _, t := range m.mgr.Tools() {
		byName[t.Name()] = t
	}
	o := ToolOptions{Policy: &s.rt.policy, Engine: s.rt.Engine, Hooks: s.hooks}
	for _, e := range direct {
		s.tools.Add(wrapTool(byName[e.Name], o))
	}
	if len(deferred) > 0 {
		catalog := func() []toolsearch.Entry { return mcpEntries(m.mgr.Tools()) }
		s.tools.Add(wrapTool(toolsearch.NewSearchTool(catalog), o))
		call := toolsearch.NewCallTool(catalog, s.callMCP)
		s.mcpCall, _ = call.(*toolsearch.CallTool)
		wrapped := wrapTool(call, o).(*observed)
		wrapped.target = s.mcpInner // PostToolUse sees mcp__server__tool, as PreToolUse does
		s.tools.Add(wrapped)
		fmt.Fprintf(s.rt.warnings(), "zero: %d MCP tools would take %d tokens of the %d-token window: offering them through mcp_search and mcp_call\n",
			len(entries), toolsearch.Tokens(toolsearch.Footprint(entries)), window)
	}
	return nil
}

func logNote(path string) string {
	if path == "" {
		return ""
	}
	return "; its log: " + path
}

// callMCP runs the MCP tool name for mcp_call.
func (s *Session) callMCP(ctx context.Context, name string, args json.RawMessage) (tools.Result, error) {
	for _, t := range s.rt.mcp.mgr.Tools() {
		if t.Name() == name {
			return t.Run(ctx, args)
		}
	}
	return tools.Result{Content: "no MCP tool " + name + " is connected now; run mcp_search again", IsError: true}, nil
}

// mcpEntries describes MCP tools for the search and the budget.
func mcpEntries(ts []tools.Tool) []toolsearch.Entry {
	var out []toolsearch.Entry
	for _, t := range ts {
		e := toolsearch.Entry{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}
		if mt, ok := t.(*mcp.Tool); ok {
			e.Server, e.Tool, e.ReadOnly = mt.Server(), mt.RemoteName(), mt.ReadOnly()
		}
		out = append(out, e)
	}
	return out
}

// alwaysLoad is the configured alwaysLoad choice per tool.
func alwaysLoad(servers []mcpconfig.Server) func(toolsearch.Entry) bool {
	return func(e toolsearch.Entry) bool {
		for _, s := range servers {
			if s.Name == e.Server {
				return s.AlwaysLoad || slices.Contains(s.AlwaysLoadTools, e.Tool)
			}
		}
		return false
	}
}

// mcpTarget is the call the permission gate, rules and hooks see for an
// mcp_call: the MCP tool it names, with its own arguments, so a grant or
// a hook matcher for mcp__server__tool applies however it is reached.
// ok is false when call is not an mcp_call that names a connected tool;
// the gate then decides on mcp_call itself.
// mcpInner is the tool an mcp_call's arguments name and its own
// arguments, for the hooks after the call.
func (s *Session) mcpInner(args json.RawMessage) (string, json.RawMessage, bool) {
	if s.mcpCall == nil {
		return "", nil, false
	}
	inner, _, ok := s.mcpTarget(llm.ToolCall{Name: toolsearch.CallName, Arguments: string(args)}, s.mcpCall)
	if !ok {
		return "", nil, false
	}
	return inner.Name, json.RawMessage(inner.Arguments), true
}

func (s *Session) mcpTarget(call llm.ToolCall, t tools.Tool) (llm.ToolCall, tools.Tool, bool) {
	if s.mcpCall == nil || t.Name() != toolsearch.CallName {
		return call, t, false
	}
	name, ok := s.mcpCall.Target(json.RawMessage(call.Arguments))
	if !ok {
		return call, t, false
	}
	for _, mt := range s.rt.mcp.mgr.Tools() {
		if mt.Name() == name {
			var a struct {
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal([]byte(call.Arguments), &a)
			inner := string(a.Arguments)
			if inner == "" || inner == "null" {
				inner = "{}"
			}
			return llm.ToolCall{ID: call.ID, Name: name, Arguments: inner}, mt, true
		}
	}
	return call, t, false
}

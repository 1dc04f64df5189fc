package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// Permission modes (issue 5): normal asks before writes and shell,
// auto-accept runs them (the guard's deny and project blocks still hold),
// plan offers read-only tools only.
const (
	modeNormal     = string(sandbox.ModeNormal)
	modeAutoAccept = string(sandbox.ModeAutoAccept)
	modePlan       = string(sandbox.ModePlan)
)

// answer is a person's decision on one call.
type answer struct {
	Allow bool
	// Scope is how long an allow holds: once (default), session or
	// persistent (saved in grants.json).
	Scope sandbox.Scope
	// Prefix, for a shell call allowed for the session or persistently,
	// grants every command that starts with these words ("go test")
	// instead of the exact command line.
	Prefix string
	// Reason is sent to the model with a denial.
	Reason string
}

// askFunc asks someone (a person in the TUI, a client over stream-json) to
// approve one call.
type askFunc func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer

// permissionGate is the agent.Gate of a surface: the permission engine
// (confinement → guard → rules → mode → grants) decides, a person is asked
// when the engine says ask, and beforeTool hooks may still block. A nil ask
// turns every "ask" into a denial the model can read (headless runs never
// block).
type permissionGate struct {
	engine *sandbox.Engine
	ask    askFunc
	hooks  *hookRunner
	// audit records each person's decision (permission_decision events).
	audit event.Sink
	// autoAccept tailors the headless denial text: in auto-accept only
	// flagged calls reach "ask", and no flag or rerun will allow them.
	autoAccept bool
	// ws is the tools' workspace: a read outside it that the engine
	// allowed (a person approved it, or a grant covers it) becomes
	// readable through a read-only root.
	ws *workspace.Workspace
}

// Decide implements agent.Gate.
func (g *permissionGate) Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) agent.Decision {
	d := g.engine.Decide(ctx, call, t)
	switch d.Action {
	case sandbox.Deny:
		return agent.Decision{Reason: d.Reason}
	case sandbox.Ask:
		if g.ask == nil {
			if g.autoAccept {
				return agent.Decision{Reason: "needs a person even in auto-accept mode: " + d.Reason + ". Do it another way, or the user can approve it in the interactive app or answer permission_request events with -i stream-json."}
			}
			return agent.Decision{Reason: d.NonInteractive().Reason}
		}
		ans := g.ask(ctx, call, t, d.Reason)
		g.record(call, t, ans)
		if !ans.Allow {
			if ans.Reason == "" {
				ans.Reason = "no reason given"
			}
			return agent.Decision{Reason: "the user denied this call: " + ans.Reason}
		}
		if ans.Scope == sandbox.ScopeSession || ans.Scope == sandbox.ScopePersistent {
			gr := sandbox.Grant{Scope: ans.Scope, Tool: t.Name()}
			if d.Rule == sandbox.RuleControlWrite || d.Rule == sandbox.RuleSecretWrite {
				// a write into .git, .zero or a secret is granted for that
				// path only, never tool-wide
				gr.Path = g.absPath(call)
			}
			if t.SideEffect() == tools.SideShell {
				gr.Command = commandOf(call)
				if p := strings.TrimSpace(ans.Prefix); p != "" {
					gr.Command, gr.Prefix = p, true
				}
			}
			_ = g.engine.Grant(gr)
		}
	}
	out := agent.Decision{Allow: true}
	if t.SideEffect() == tools.SideRead {
		g.openForRead(call)
	}
	if d.Command != "" && t.SideEffect() == tools.SideShell {
		out.Rewrite = withCommand(call, d.Command)
	}
	if blocked, reason := g.hooks.before(ctx, call); blocked {
		return agent.Decision{Reason: "a beforeTool hook blocked this call: " + reason}
	}
	return out
}

// absPath returns the call's path argument made absolute against the
// workspace root (symlinks are the engine's business).
func (g *permissionGate) absPath(call llm.ToolCall) string {
	var a struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &a)
	if a.Path == "" || g.ws == nil || filepath.IsAbs(a.Path) {
		return a.Path
	}
	return filepath.Join(g.ws.Root(), a.Path)
}

// openForRead makes an allowed read outside the workspace possible: the
// file's directory (or the directory itself) becomes a read-only root.
// Reads inside are left alone; the engine keeps deciding every later call.
func (g *permissionGate) openForRead(call llm.ToolCall) {
	if g.ws == nil {
		return
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal([]byte(call.Arguments), &a) != nil || a.Path == "" {
		return
	}
	if _, err := g.ws.Resolve(a.Path, false); err == nil {
		return
	}
	p := a.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(g.ws.Root(), p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return
	}
	if st, err := os.Stat(real); err == nil && !st.IsDir() {
		real = filepath.Dir(real)
	}
	_ = g.ws.AddReadRoot(real)
}

// record writes a person's decision to the audit sink.
func (g *permissionGate) record(call llm.ToolCall, t tools.Tool, ans answer) {
	if g.audit == nil {
		return
	}
	decision := "deny"
	if ans.Allow {
		decision = "allow_" + string(ans.Scope)
		if ans.Scope == "" {
			decision = "allow_once"
		}
	}
	g.audit.Emit(event.Event{Type: event.PermissionDecision, Permission: &event.Permission{
		ID: call.ID, Tool: t.Name(), Summary: ans.Prefix, Decision: decision, Reason: ans.Reason,
	}})
}

// commandOf returns the command argument of a shell call.
func commandOf(call llm.ToolCall) string {
	var a struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &a)
	return strings.TrimSpace(a.Command)
}

// withCommand returns call's arguments with the command replaced (a
// project rule's rewrite, already re-checked by the guard).
func withCommand(call llm.ToolCall, command string) string {
	var a map[string]any
	if json.Unmarshal([]byte(call.Arguments), &a) != nil || a == nil {
		a = map[string]any{}
	}
	a["command"] = command
	b, _ := json.Marshal(a)
	return string(b)
}

// visibleFor returns the tool filter of a mode: plan offers read-only tools.
func visibleFor(mode string) func(tools.Tool) bool {
	if mode == modePlan {
		return func(t tools.Tool) bool { return t.SideEffect() == tools.SideRead }
	}
	return nil
}

// hookRunner fires configured hooks and records every run as an event
// (the session log is the audit trail). A nil hookRunner does nothing.
type hookRunner struct {
	runner *hooks.Runner
	mu     sync.Mutex
	audit  event.Sink
	sessID string
}

func (h *hookRunner) setAudit(s event.Sink, sessionID string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.audit, h.sessID = s, sessionID
	h.mu.Unlock()
}

func (h *hookRunner) fire(ctx context.Context, ev hooks.Event, p hooks.Payload) (bool, string) {
	if h == nil || h.runner == nil {
		return false, ""
	}
	h.mu.Lock()
	audit, id := h.audit, h.sessID
	h.mu.Unlock()
	p.Event, p.SessionID, p.Cwd = ev, id, h.runner.Dir
	blocked, reason, runs := h.runner.Fire(ctx, ev, p)
	for _, r := range runs {
		if audit == nil {
			break
		}
		audit.Emit(event.Event{Type: event.Hook, SchemaVersion: event.SchemaVersion, HookRun: &event.HookRun{
			Event: string(r.Event), Command: r.Command, Source: r.Source, Tool: p.Tool, ExitCode: r.ExitCode,
			ElapsedMs: r.Elapsed.Milliseconds(), Blocked: r.Blocked, TimedOut: r.TimedOut, Stderr: r.Stderr, Error: r.Error,
		}})
	}
	return blocked, reason
}

func (h *hookRunner) before(ctx context.Context, call llm.ToolCall) (bool, string) {
	return h.fire(ctx, hooks.BeforeTool, hooks.Payload{Tool: call.Name, Arguments: json.RawMessage(argsOrEmpty(call.Arguments))})
}

func argsOrEmpty(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// observed wraps a tool so the engine learns the files the session wrote
// (running one of them later asks, case B19) and afterTool hooks see each
// result.
type observed struct {
	tools.Tool
	engine *sandbox.Engine
	hooks  *hookRunner
}

// Run runs the tool, then records writes and fires afterTool hooks.
func (o *observed) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	res, err := o.Tool.Run(ctx, args)
	if o.Tool.SideEffect() == tools.SideWrite && !res.IsError {
		for _, p := range res.Paths {
			o.engine.NoteWrite(p)
		}
	}
	o.hooks.fire(ctx, hooks.AfterTool, hooks.Payload{Tool: o.Tool.Name(), Arguments: args,
		Result: &hooks.ToolResult{Content: res.Content, IsError: res.IsError, ExitCode: res.ExitCode}})
	return res, err
}

package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// Asker asks a person (the app's prompt, a stream-json client, an editor)
// to approve one call. It blocks until they answer or ctx ends (then it
// returns a denial).
type Asker func(ctx context.Context, req Request) Decision

// Hooks are the PreToolUse hooks a gate fires for every call the engine
// does not deny, before anyone is asked.
type Hooks interface {
	PreToolUse(ctx context.Context, call llm.ToolCall) HookVerdict
}

// HookVerdict is what the PreToolUse hooks decided: Deny blocks the call
// with Reason; Ask makes an allowed call a question; Allow spares the
// question normal mode would ask (never a guard's, a control file's or a
// secret's, and never over a deny); "" leaves the engine's verdict.
// Arguments, when set, replace the call's (a hook's updatedInput, in
// Zero's field names); the engine decides the new call again.
type HookVerdict struct {
	Decision  Action
	Reason    string
	Arguments string
}

// RuleHook names a verdict a PreToolUse hook changed.
const RuleHook = "hook"

// Outcome is a gate's answer for one call: run it (with Rewrite as its
// arguments when set), or send Reason to the model as the tool result.
type Outcome struct {
	Allow   bool
	Reason  string
	Rewrite string
	// Network: the shell command runs with the network (sandbox.network
	// "ask", granted); the caller runs it under tools.WithNetwork.
	Network bool
}

// Gate decides each tool call of a run: the Engine rules (confinement →
// guard → rules → mode → grants → settings rules), then the PreToolUse
// Hooks (which may block, ask, allow or rewrite); when it asks, Ask
// answers (nil: the ask becomes a denial the model can read, so headless
// runs never block), and the request and the decision go to Audit (the
// session log and the surface).
type Gate struct {
	Engine    *Engine
	Workspace *workspace.Workspace
	// Cap, when set, is the widest mode this gate decides in (a
	// sub-agent's: the narrower of it and the engine's mode applies).
	Cap Mode
	// Agent, when set, names the sub-agent whose calls this gate decides:
	// each request it asks says so ("asked by the NAME sub-agent"), on
	// every surface (the prompt, the permission_request event).
	Agent string
	Ask   Asker
	Audit event.Sink
	Hooks Hooks
}

// Decide rules on one call.
func (g *Gate) Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) Outcome {
	v := g.Engine.DecideCapped(ctx, call, t, g.Cap)
	rewrite := ""
	if v.Action != Deny && g.Hooks != nil {
		var blocked string
		call, v, rewrite, blocked = g.preToolUse(ctx, call, t, v)
		if blocked != "" {
			return Outcome{Reason: blocked}
		}
	}
	n := g.network(call, t, &v)
	switch v.Action {
	case Deny:
		return Outcome{Reason: v.Reason}
	case Ask:
		if n.only && g.Ask == nil && !g.Engine.Refused(g.subject(call, t)) {
			break // no one to ask for the network: it runs offline, as with "off"
		}
		if denied := g.askPerson(ctx, call, t, v, n); denied != "" {
			return Outcome{Reason: denied}
		}
		n.granted = len(n.needs) > 0
	}
	out := Outcome{Allow: true, Rewrite: rewrite, Network: n.granted}
	if t.SideEffect() == tools.SideRead {
		g.openForRead(call)
	}
	if v.Command != "" && t.SideEffect() == tools.SideShell {
		out.Rewrite = withCommand(call, v.Command)
	}
	return out
}

// askPerson asks about a call the engine would ask about, unless the user
// rejected it always, and records the answer: a grant (covering the
// network too when n needs it), or a saved denial. It returns why the
// call may not run, or "". A network ask the person denies is refused,
// not run offline: the person said no to this command, and a package
// install that runs on without its network only fails half-way.
func (g *Gate) askPerson(ctx context.Context, call llm.ToolCall, t tools.Tool, v Verdict, n netAsk) string {
	if g.Engine.Refused(g.subject(call, t)) {
		return "the user rejected this always (a denial saved in grants.json; the user can remove it there)"
	}
	if g.Ask == nil {
		if Narrower(g.Engine.Mode(), g.Cap) == ModeAutoAccept {
			return "needs a person even in auto-accept mode: " + v.Reason + ". Do it another way, or the user can approve it in the interactive app or answer permission_request events with -i stream-json."
		}
		return v.NonInteractive().Reason
	}
	req := g.request(call, t, v)
	if len(n.needs) > 0 {
		req.Network = true
		if p := n.prefix(); p != "" && (v.Rule == RuleNetwork || v.Rule == RuleModeNormal) {
			req.Prefix = p
		}
	}
	req.Recheck = func() Verdict {
		if v.Rule == RuleHook {
			return v
		}
		again := g.Engine.DecideCapped(ctx, call, t, g.Cap)
		g.network(call, t, &again)
		return again
	}
	g.emit(event.PermissionRequest, req.Event())
	d := g.Ask(ctx, req)
	if !d.Allowed() && d.Choice == "" {
		d.Choice = Reject
	}
	g.emit(event.PermissionDecision, d.Event(req))
	// A shell call without a command would deny the whole tool.
	if denial := g.subject(call, t); d.Choice == RejectAlways && (denial.Command != "" || t.SideEffect() != tools.SideShell) {
		denial.Scope, denial.Deny = ScopePersistent, true
		if err := g.Engine.Grant(denial); err != nil {
			g.emitWarning("the denial was not saved (" + err.Error() + "); the next such call asks again")
		}
	}
	if !d.Allowed() {
		reason := d.Reason
		if reason == "" {
			reason = "no reason given"
		}
		if req.Network {
			return "the user denied this call, which asked to run with the network (" + n.prefixes() + "); it did not run: " + reason
		}
		return "the user denied this call: " + reason
	}
	if err := g.grant(call, t, v, d, req.Network); err != nil {
		g.emitWarning("the grant was not saved (" + err.Error() + "); this call runs, later ones ask again")
	}
	return ""
}

// preToolUse fires the hooks and folds their verdict into v: a block
// returns the reason for the model; updated arguments are decided by the
// engine again (a hook cannot slip a refused command past the guard).
func (g *Gate) preToolUse(ctx context.Context, call llm.ToolCall, t tools.Tool, v Verdict) (llm.ToolCall, Verdict, string, string) {
	hv := g.Hooks.PreToolUse(ctx, call)
	rewrite := ""
	if hv.Decision == Deny {
		return call, v, "", "a PreToolUse hook blocked this call: " + hv.Reason
	}
	if hv.Arguments != "" && hv.Arguments != call.Arguments {
		call.Arguments, rewrite = hv.Arguments, hv.Arguments
		if v = g.Engine.Decide(ctx, call, t); v.Action == Deny {
			return call, v, "", "a PreToolUse hook changed the arguments, and the new call is refused: " + v.Reason
		}
	}
	reason := hv.Reason
	if reason == "" {
		reason = "a PreToolUse hook decided so"
	}
	switch {
	case hv.Decision == Ask && v.Action == Allow:
		v = Verdict{Action: Ask, Reason: "a PreToolUse hook asks first: " + reason, Rule: RuleHook}
	case hv.Decision == Allow && v.Action == Ask && v.Rule == RuleModeNormal:
		v = Verdict{Action: Allow, Reason: "allowed by a PreToolUse hook: " + reason, Rule: RuleHook}
	}
	return call, v, rewrite, ""
}

// request builds what the person is shown for call.
func (g *Gate) request(call llm.ToolCall, t tools.Tool, v Verdict) Request {
	p := Preview(g.Workspace, call)
	req := Request{ID: call.ID, Tool: call.Name, Summary: oneLine(call.Arguments, 500), Command: p.Command, Path: p.Path, Diff: p.Diff, Why: withNote(v.Reason, p.Note)}
	if req.Diff == "" && p.Note != "" {
		req.Summary = p.Note // a write that changes nothing: say so, not the raw arguments
	}
	if external(t.SideEffect()) {
		req.Prefix = ServerPrefix(call.Name) // p: every tool of this MCP server
	}
	if t.SideEffect() == tools.SideShell && v.Rule == RuleModeNormal && g.Workspace != nil {
		home, _ := os.UserHomeDir()
		req.Prefix = SuggestPrefix(p.Command, shellguard.Options{Workspace: g.Workspace.Root(), Roots: g.Workspace.Roots()[1:], Home: home})
	}
	if g.Agent != "" {
		who := "asked by the " + g.Agent + " sub-agent"
		if req.Why != "" {
			who += ": " + req.Why
		}
		req.Why = who
	}
	return req
}

// subject is what a saved denial of call names: a shell call's exact
// command, a file tool's absolute path, else the tool.
func (g *Gate) subject(call llm.ToolCall, t tools.Tool) Grant {
	q := Grant{Tool: t.Name()}
	switch {
	case t.SideEffect() == tools.SideShell:
		q.Command = commandOf(call)
	case pathOf(call) != "":
		q.Path = g.absPath(call)
	}
	return q
}

// grant records an allow for the session or always with the engine;
// network makes a shell grant cover the command's network too.
func (g *Gate) grant(call llm.ToolCall, t tools.Tool, v Verdict, d Decision, network bool) error {
	scope := d.Scope()
	if scope == ScopeOnce {
		return nil
	}
	gr := Grant{Scope: scope, Tool: t.Name(), Network: network}
	if v.Rule == RuleControlWrite || v.Rule == RuleSecretWrite {
		// a write into .git, .zero or a secret is granted for that path
		// only, never tool-wide
		gr.Path = g.absPath(call)
	}
	if t.SideEffect() == tools.SideShell {
		gr.Command = commandOf(call)
		if p := strings.TrimSpace(d.Prefix); p != "" {
			gr.Command, gr.Prefix = p, true
		}
	}
	if p := ServerPrefix(call.Name); external(t.SideEffect()) && p != "" && d.Prefix == p {
		gr.Tool = p + "*"
	}
	return g.Engine.Grant(gr)
}

func (g *Gate) emitWarning(text string) {
	if g.Audit != nil {
		g.Audit.Emit(event.Event{Type: event.Warning, Text: text})
	}
}

func (g *Gate) emit(typ event.Type, p *event.Permission) {
	if g.Audit != nil {
		g.Audit.Emit(event.Event{Type: typ, Permission: p})
	}
}

// absPath returns the call's path argument made absolute against the
// workspace root (symlinks are the engine's business).
func (g *Gate) absPath(call llm.ToolCall) string {
	p := pathOf(call)
	if p == "" || g.Workspace == nil || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(g.Workspace.Root(), p)
}

// openForRead makes an allowed read outside the workspace possible: the
// file's directory (or the directory itself) becomes a read-only root.
// Reads inside are left alone; the engine keeps deciding every later call.
func (g *Gate) openForRead(call llm.ToolCall) {
	p := pathOf(call)
	if g.Workspace == nil || p == "" {
		return
	}
	if _, err := g.Workspace.Resolve(p, false); err == nil {
		return
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(g.Workspace.Root(), p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return
	}
	if st, err := os.Stat(real); err == nil && !st.IsDir() {
		real = filepath.Dir(real)
	}
	_ = g.Workspace.AddReadRoot(real)
}

func pathOf(call llm.ToolCall) string {
	var a struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &a)
	return a.Path
}

// commandOf returns the command argument of a shell call.
func commandOf(call llm.ToolCall) string {
	var a map[string]any
	_ = json.Unmarshal([]byte(call.Arguments), &a)
	_, cmd := shellCommand(a)
	return strings.TrimSpace(cmd)
}

// withCommand returns call's arguments with the command replaced (a
// project rule's rewrite, already re-checked by the guard).
func withCommand(call llm.ToolCall, command string) string {
	var a map[string]any
	if json.Unmarshal([]byte(call.Arguments), &a) != nil || a == nil {
		a = map[string]any{}
	}
	key, _ := shellCommand(a)
	a[key] = command
	b, _ := json.Marshal(a)
	return string(b)
}

// withNote appends a preview note to the request's reason.
func withNote(why, note string) string {
	if note == "" {
		return why
	}
	if why == "" {
		return note
	}
	return why + " · " + note
}

// oneLine is s with its whitespace runs folded to one space, cut to max
// runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// external: a tool an MCP server runs.
func external(e tools.SideEffect) bool { return e == tools.SideExternal || e == tools.SideExternalRead }

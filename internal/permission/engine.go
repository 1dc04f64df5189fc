package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// Action is what to do with a tool call.
type Action string

// Actions.
const (
	Allow Action = "allow"
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Verdict is the engine's answer for one tool call.
type Verdict struct {
	Action Action `json:"action"`
	// Reason is written for the model (and the person being asked): what
	// was decided and what can be done next.
	Reason string `json:"reason"`
	// Rule names what decided: a shellguard rule id, "rules.<id>" for a
	// project or user rule, or one of the engine's own (mode.plan,
	// path.secret, grant, ...).
	Rule string `json:"rule"`
	// Command, when set, is the command to run instead of the one the
	// model sent: a rules.json rewrite that the guard checked again.
	Command string `json:"command,omitempty"`
}

// Engine rules (besides shellguard's rule ids).
const (
	RulePlan          = "mode.plan"
	RuleModeNormal    = "mode.normal"
	RuleModeAuto      = "mode.auto-accept"
	RuleGrant         = "grant"
	RuleReadInside    = "path.read-inside"
	RuleReadOutside   = "path.read-outside"
	RuleWriteOutside  = "path.write-outside"
	RuleSecret        = "path.secret"
	RuleSecretWrite   = "path.secret-write"
	RuleControlWrite  = "path.control-write"
	RuleBadArguments  = "arguments.invalid"
	RuleUnknownEffect = "side-effect.unknown"
	RuleSessionState  = "side-effect.none"
	RuleStdin         = "exec.stdin"
)

// NonInteractive turns ask into deny for surfaces that cannot ask a
// person (headless exec without -i stream-json); the reason says how to
// allow the call next time.
func (d Verdict) NonInteractive() Verdict {
	if d.Action != Ask {
		return d
	}
	d.Action = Deny
	d.Reason = "needs approval, and no one can be asked in this run: " + d.Reason +
		" (rerun with --permission-mode auto-accept, grant it with `zero` interactively, or answer permission_request events with -i stream-json)"
	return d
}

// Config sets up an Engine.
type Config struct {
	// Workspace resolves and confines paths. Required.
	Workspace *workspace.Workspace
	// Home is the user's home directory; empty means os.UserHomeDir.
	Home string
	// ConfigDir holds grants.json (config.Dir() for the user's). Required.
	ConfigDir string
	// Mode is the starting mode; empty means normal.
	Mode Mode
	// CaseInsensitive makes path grants and containment compare names
	// without case; nil means true on macOS and Windows.
	CaseInsensitive *bool
	// Rules are the project and user rules (nil: none). Load project
	// rules only after the user trusts the folder.
	Rules *rules.Set
	// ToolRules are the settings files' and flags' permission rules
	// (toolrules.go); load project files only after the user trusts the
	// folder.
	ToolRules *ToolRules
	// Checkpoints: the session records what shell commands change in the
	// workspace (internal/checkpoint), so in auto-accept mode a delete
	// there that a rewind can undo runs without asking (undo.go).
	Checkpoints bool
	// NetworkAsk is sandbox.network "ask": a shell command that
	// shellguard's table knows to need the network asks to run with it
	// (network.go); every other command runs offline.
	NetworkAsk bool
}

// Engine decides tool calls. It is safe for concurrent use.
type Engine struct {
	ws        *workspace.Workspace
	home      string
	configDir string
	fold      bool

	mu     sync.Mutex
	mode   Mode
	grants *Grants
	recent []string
	rules  *rules.Set
	tools  *ToolRules
	// checkpoints is Config.Checkpoints.
	checkpoints bool
	// networkAsk is Config.NetworkAsk.
	networkAsk bool
	// scoped are allow rules in force for a while: a custom command's or
	// skill's allowed-tools during its prompt (AllowWhile).
	scoped []ToolRule
}

// New returns an engine and loads persistent grants from
// ConfigDir/grants.json (a missing file is no grants; a corrupt one is an
// error naming the file).
func New(cfg Config) (*Engine, error) {
	if cfg.Workspace == nil {
		return nil, errors.New("permission: Config.Workspace is required")
	}
	e := &Engine{ws: cfg.Workspace, home: cfg.Home, configDir: cfg.ConfigDir, mode: cfg.Mode, rules: cfg.Rules, tools: cfg.ToolRules, checkpoints: cfg.Checkpoints, networkAsk: cfg.NetworkAsk}
	if e.home == "" {
		e.home, _ = os.UserHomeDir()
	}
	if e.configDir == "" {
		return nil, errors.New("permission: Config.ConfigDir is required (config.Dir() for the user's)")
	}
	if e.mode == "" {
		e.mode = ModeNormal
	}
	e.fold = runtime.GOOS == "darwin" || runtime.GOOS == "windows"
	if cfg.CaseInsensitive != nil {
		e.fold = *cfg.CaseInsensitive
	}
	g, err := LoadGrants(filepath.Join(e.configDir, "grants.json"))
	if err != nil {
		return nil, err
	}
	e.grants = g
	return e, nil
}

// Mode returns the current mode.
func (e *Engine) Mode() Mode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mode
}

// SetMode changes the mode for the following calls.
func (e *Engine) SetMode(m Mode) {
	e.mu.Lock()
	e.mode = m
	e.mu.Unlock()
}

// SetRules replaces the rules (after `zero trust` loads the project's).
func (e *Engine) SetRules(s *rules.Set) {
	e.mu.Lock()
	e.rules = s
	e.mu.Unlock()
}

// NoteWrite records a file the session wrote (absolute, or relative to
// the workspace root); running it from the shell later asks (case B19).
func (e *Engine) NoteWrite(path string) {
	e.mu.Lock()
	e.recent = append(e.recent, path)
	e.mu.Unlock()
}

// Grant records an approval; see Grant for the kinds. A persistent grant
// is written to grants.json before Grant returns.
func (e *Engine) Grant(g Grant) error {
	return e.grants.Add(g, e.ws.Root())
}

// Refused reports whether the user rejected q always (a saved denial,
// Grants.Refuses).
func (e *Engine) Refused(q Grant) bool {
	return e.grants.Refuses(q, e.ws.Root(), e.fold)
}

// Decide is the seam the agent loop calls before running a tool call:
//
//	d := engine.Decide(ctx, call, tool)
//	switch d.Action { case permission.Allow: run; case permission.Ask: ask, then
//	engine.Grant(...) and run, or report d.Reason; case permission.Deny:
//	return d.Reason to the model as an error result }
//
// It reads only call.Arguments and tool.Name/SideEffect. A once grant
// that approves the call is used up. ctx is unused today (reserved for
// rules and hooks that may run commands).
func (e *Engine) Decide(ctx context.Context, call llm.ToolCall, tool tools.Tool) Verdict {
	return e.DecideCapped(ctx, call, tool, "")
}

// DecideCapped is Decide in the narrower of the engine's mode and limit
// ("" is no limit): a sub-agent's gate, whose definition may ask for less
// than its parent's mode and never for more.
func (e *Engine) DecideCapped(ctx context.Context, call llm.ToolCall, tool tools.Tool, limit Mode) Verdict {
	_ = ctx
	e.mu.Lock()
	mode := Narrower(e.mode, limit)
	recent := append([]string(nil), e.recent...)
	rs := e.rules
	trs := e.tools
	if len(e.scoped) > 0 {
		trs = withAllows(e.tools, e.scoped)
	}
	e.mu.Unlock()
	var args map[string]any
	if raw, err := call.ArgumentsJSON(); err == nil {
		_ = json.Unmarshal(raw, &args)
	} else {
		return Verdict{Action: Deny, Reason: "the arguments are not a JSON object: " + err.Error(), Rule: RuleBadArguments}
	}
	name := tool.Name()
	d := e.decideEffect(name, tool.SideEffect(), args, mode, recent, rs)
	d = applyToolRule(d, rs.Evaluate(rules.OnTool, name))
	if trs.Len() == 0 {
		return d
	}
	return trs.apply(d, e.facts(name, tool.SideEffect(), args, recent))
}

// AllowWhile adds allow rules (a custom command's or skill's
// allowed-tools, Claude Code's front matter) until the returned function
// is called. They weigh as any allow rule of their origin: they spare
// only normal mode's question, and every deny or ask rule, guard question
// and plan mode still holds.
func (e *Engine) AllowWhile(allow []ToolRule) (done func()) {
	if len(allow) == 0 {
		return func() {}
	}
	e.mu.Lock()
	before := e.scoped
	e.scoped = append(append([]ToolRule(nil), before...), allow...)
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.scoped = before
		e.mu.Unlock()
	}
}

// withAllows is rs with more allow rules.
func withAllows(rs *ToolRules, allow []ToolRule) *ToolRules {
	out := &ToolRules{}
	if rs != nil {
		*out = ToolRules{Allow: append([]ToolRule(nil), rs.Allow...), Ask: rs.Ask, Deny: rs.Deny}
	}
	out.Allow = append(out.Allow, allow...)
	return out
}

// facts gathers what permission rules match on one call: the shell
// command's parts, the resolved paths a file tool touches, the host a
// fetch reaches.
func (e *Engine) facts(name string, effect tools.SideEffect, args map[string]any, recent []string) callFacts {
	c := callFacts{tool: name, root: e.ws.Root(), home: e.home}
	switch effect {
	case tools.SideShell:
		_, cmd := shellCommand(args)
		opts := shellguard.Options{Workspace: e.ws.Root(), Home: e.home, Roots: e.ws.Roots()[1:], RecentWrites: recent}
		c.parts, c.partsOK = shellguard.Parts(cmd, opts)
	case tools.SideRead, tools.SideWrite:
		ps := []string{pathArg(args)}
		if name == tools.ApplyPatchName {
			raw, _ := json.Marshal(args)
			ps, _ = tools.PatchPaths(raw)
		}
		for _, p := range ps {
			if abs, _, err := e.resolve(p, effect == tools.SideWrite); err == nil {
				c.paths = append(c.paths, abs)
			}
		}
	case tools.SideNetwork:
		c.host = hostOf(args)
	}
	return c
}

// applyToolRule lets an `on: tool` rule tighten any decision (block,
// confirm) and loosen only the question the mode would ask (allow).
func applyToolRule(d Verdict, r rules.Result) Verdict {
	if r.Rule == nil || d.Action == Deny {
		return d
	}
	switch r.Action {
	case rules.Block:
		return ruleDecision(Deny, r.Rule)
	case rules.Confirm:
		if d.Action == Allow {
			return ruleDecision(Ask, r.Rule)
		}
	case rules.Allow:
		if d.Action == Ask && d.Rule == RuleModeNormal {
			return ruleDecision(Allow, r.Rule)
		}
	}
	return d
}

func ruleDecision(a Action, r *rules.Rule) Verdict {
	reason := r.Reason
	if reason == "" {
		reason = fmt.Sprintf("rule %q matched %q", r.ID, r.Match)
	}
	if a == Deny {
		reason = "blocked by rule " + r.ID + ": " + reason
	}
	return Verdict{Action: a, Reason: reason, Rule: "rules." + r.ID}
}

func (e *Engine) decideEffect(name string, effect tools.SideEffect, args map[string]any, mode Mode, recent []string, rs *rules.Set) Verdict {
	switch effect {
	case tools.SideNone:
		return Verdict{Action: Allow, Reason: name + " changes only the session's own state", Rule: RuleSessionState}
	case tools.SideRead:
		return e.decideRead(name, args)
	case tools.SideWrite:
		if mode == ModePlan {
			return planDeny(name)
		}
		if name == tools.ApplyPatchName {
			return e.decidePatch(name, args, mode, rs)
		}
		return e.decideWrite(name, args, mode, rs)
	case tools.SideShell:
		if name == tools.WriteStdinName {
			return e.decideStdin(name, args, mode)
		}
		key, cmd := shellCommand(args)
		if cmd == "" {
			return Verdict{Action: Deny, Reason: name + " needs a non-empty \"" + key + "\" string", Rule: RuleBadArguments}
		}
		cwd, v, ok := e.workdir(name, args)
		if !ok {
			return v
		}
		return e.decideShell(name, cmd, cwd, mode, recent, rs)
	case tools.SideNetwork:
		if mode == ModePlan {
			return planDeny(name)
		}
		if e.grants.Match(Grant{Tool: name}, e.ws.Root(), e.fold) {
			return Verdict{Action: Allow, Reason: "approved earlier for " + name, Rule: RuleGrant}
		}
		if mode == ModeAutoAccept {
			return Verdict{Action: Allow, Reason: "auto-accept mode runs network tools", Rule: RuleModeAuto}
		}
		return Verdict{Action: Ask, Reason: name + " reaches the network", Rule: RuleModeNormal}
	case tools.SideExternal, tools.SideExternalRead:
		return e.decideExternal(name, effect, mode)
	default:
		if mode == ModePlan {
			return planDeny(name)
		}
		return Verdict{Action: Ask, Reason: fmt.Sprintf("%s has an unknown side effect %q", name, effect), Rule: RuleUnknownEffect}
	}
}

// decideExternal decides a tool another program runs (an MCP server's):
// plan mode runs only those marked read-only; a grant for the tool runs
// it; auto-accept runs it; normal mode asks, read-only or not, since the
// mark is the server's claim.
func (e *Engine) decideExternal(name string, effect tools.SideEffect, mode Mode) Verdict {
	switch {
	case mode == ModePlan && effect == tools.SideExternalRead:
		return Verdict{Action: Allow, Reason: name + " is marked read-only by its server", Rule: RulePlan}
	case mode == ModePlan:
		return planDeny(name)
	case e.grants.Match(Grant{Tool: name}, e.ws.Root(), e.fold):
		return Verdict{Action: Allow, Reason: "approved earlier for " + name, Rule: RuleGrant}
	case mode == ModeAutoAccept:
		return Verdict{Action: Allow, Reason: "auto-accept mode runs external tools", Rule: RuleModeAuto}
	}
	return Verdict{Action: Ask, Reason: name + " is run by an outside program (an MCP server)", Rule: RuleModeNormal}
}

func planDeny(name string) Verdict {
	return Verdict{Action: Deny, Reason: "plan mode allows read-only tools only; " + name +
		" is not run. Finish the plan, then the user can switch mode (Shift+Tab) to carry it out", Rule: RulePlan}
}

// pathArg returns the path argument of a file tool ("" means the
// workspace root).
func pathArg(args map[string]any) string {
	for _, k := range []string{"path", "file_path", "filepath", "dir", "directory"} {
		if s, ok := args[k].(string); ok {
			return s
		}
	}
	return ""
}

// decideRead: inside the workspace runs; secrets are refused; outside
// asks (unless a path grant covers it).
func (e *Engine) decideRead(name string, args map[string]any) Verdict {
	p := pathArg(args)
	abs, inside, err := e.resolve(p, false)
	if err != nil {
		return Verdict{Action: Allow, Reason: "the tool reports the path error itself", Rule: RuleReadInside}
	}
	if kind, secret := shellguard.SecretPath(abs, e.home, e.configDir); secret {
		if e.grants.Match(Grant{Tool: name, Path: abs}, e.ws.Root(), e.fold) {
			return Verdict{Action: Allow, Reason: "approved earlier for " + abs, Rule: RuleGrant}
		}
		return Verdict{Action: Deny, Reason: fmt.Sprintf("%s is a secret (%s) and is not read by default; the user can grant this path explicitly", p, kind), Rule: RuleSecret}
	}
	if inside {
		return Verdict{Action: Allow, Reason: "reads inside the workspace run", Rule: RuleReadInside}
	}
	if e.grants.Match(Grant{Tool: name, Path: abs}, e.ws.Root(), e.fold) {
		return Verdict{Action: Allow, Reason: "approved earlier for " + abs, Rule: RuleGrant}
	}
	return Verdict{Action: Ask, Reason: fmt.Sprintf("%s reads %s, outside the workspace %s", name, abs, e.ws.Root()), Rule: RuleReadOutside}
}

// decideWrite: writes are confined to the workspace and added roots.
// decidePatch decides an apply_patch call as a write of every file its
// patch names (added, updated, deleted, moved from or to): the strictest
// of those verdicts holds, so a patch that also touches .git/hooks asks in
// every mode, as write_file would. A patch that does not parse writes
// nothing; the tool reports it.
func (e *Engine) decidePatch(name string, args map[string]any, mode Mode, rs *rules.Set) Verdict {
	raw, _ := json.Marshal(args)
	paths, err := tools.PatchPaths(raw)
	if err != nil || len(paths) == 0 {
		return Verdict{Action: Allow, Reason: "the tool reports the patch error itself", Rule: RuleModeNormal}
	}
	var worst Verdict
	for i, p := range paths {
		v := e.decideWrite(name, map[string]any{"path": p}, mode, rs)
		if i == 0 || strictness(v) > strictness(worst) {
			worst = v
		}
	}
	return worst
}

// strictness orders verdicts: a denial, then an ask that holds in every
// mode (a control or secret file), then any ask, then an allow.
func strictness(v Verdict) int {
	switch {
	case v.Action == Deny:
		return 3
	case v.Action == Ask && (v.Rule == RuleControlWrite || v.Rule == RuleSecretWrite):
		return 2
	case v.Action == Ask:
		return 1
	}
	return 0
}

func (e *Engine) decideWrite(name string, args map[string]any, mode Mode, rs *rules.Set) Verdict {
	p := pathArg(args)
	abs, inside, err := e.resolve(p, true)
	if err != nil {
		return Verdict{Action: Allow, Reason: "the tool reports the path error itself", Rule: RuleModeNormal}
	}
	if !inside {
		return Verdict{Action: Deny, Reason: fmt.Sprintf("%s may only write inside the workspace %s (or a root added with --add-dir); %s is outside", name, e.ws.Root(), abs), Rule: RuleWriteOutside}
	}
	if dir, full, ok := e.controlDir(abs); ok {
		// Only a person's explicit approval of a path inside this folder
		// lets it through: not the mode, not a tool-wide grant, not a
		// grant of the whole workspace, not a rule (a project's
		// rules.json is itself under .zero).
		if e.grants.matchPathIn(Grant{Tool: name, Path: abs}, full, e.ws.Root(), e.fold) {
			return Verdict{Action: Allow, Reason: "approved earlier for " + abs, Rule: RuleGrant}
		}
		return Verdict{Action: Ask, Reason: fmt.Sprintf("%s writes %s, inside %s: files there run code later (git hooks and config, "+
			"Zero's hooks, rules and config), so a person must approve this change in every mode", name, e.ws.Rel(abs), dir), Rule: RuleControlWrite}
	}
	if kind, secret := shellguard.SecretPath(abs, e.home, e.configDir); secret {
		if e.grants.Match(Grant{Tool: name, Path: abs}, e.ws.Root(), e.fold) {
			return Verdict{Action: Allow, Reason: "approved earlier for " + abs, Rule: RuleGrant}
		}
		return Verdict{Action: Ask, Reason: fmt.Sprintf("%s writes %s, a secret file (%s)", name, p, kind), Rule: RuleSecretWrite}
	}
	ruleAllow := false
	if r := rs.Evaluate(rules.OnEdit, filepath.ToSlash(e.ws.Rel(abs))); r.Rule != nil {
		switch r.Action {
		case rules.Block:
			return ruleDecision(Deny, r.Rule)
		case rules.Confirm:
			return ruleDecision(Ask, r.Rule)
		case rules.Allow:
			ruleAllow = true
		}
	}
	if e.grants.Match(Grant{Tool: name}, e.ws.Root(), e.fold) || e.grants.Match(Grant{Tool: name, Path: abs}, e.ws.Root(), e.fold) {
		return Verdict{Action: Allow, Reason: "approved earlier for " + name, Rule: RuleGrant}
	}
	if ruleAllow {
		return Verdict{Action: Allow, Reason: "allowed by a project or user rule", Rule: "rules"}
	}
	if mode == ModeAutoAccept {
		return Verdict{Action: Allow, Reason: "auto-accept mode runs writes inside the workspace", Rule: RuleModeAuto}
	}
	return Verdict{Action: Ask, Reason: fmt.Sprintf("%s changes %s", name, e.ws.Rel(abs)), Rule: RuleModeNormal}
}

// ControlDirs are the workspace folders whose files run code outside
// the model's turn: git runs .git/hooks and what .git/config names
// (core.fsmonitor, core.hooksPath, filters), and Zero loads .zero's hooks,
// rules and config on the next session. Writes there always ask a person
// (rule path.control-write); Policy.Wrap binds them read-only.
var ControlDirs = []string{".git", ".zero"}

// controlDir reports whether abs (resolved) is a control directory of a
// root or inside one, and returns its name (".git" or ".zero") and its
// absolute path.
func (e *Engine) controlDir(abs string) (name, full string, ok bool) {
	for _, root := range e.ws.Roots() {
		for _, d := range ControlDirs {
			if full := filepath.Join(root, d); pathWithin(abs, full, e.fold) {
				return d, full, true
			}
		}
	}
	return "", "", false
}

// decideShell: the guard's deny is final; plan mode runs no shell; a
// guard ask needs an exact approval; a guard allow runs in auto-accept
// mode or when prefix grants cover every part of the command.
func (e *Engine) decideShell(name, cmd, cwd string, mode Mode, recent []string, rs *rules.Set) Verdict {
	opts := shellguard.Options{Workspace: e.ws.Root(), Cwd: cwd, Home: e.home, Roots: e.ws.Roots()[1:], RecentWrites: recent}
	if e.checkpoints {
		opts.Undoable = e.undoable
	}
	v := shellguard.Check(cmd, opts)
	if v.Verdict == shellguard.Deny {
		return Verdict{Action: Deny, Reason: "refused in every mode: " + v.Reason, Rule: v.Rule}
	}
	if mode == ModePlan {
		return planDeny(name)
	}
	rewritten := ""
	ruleAllow := false
	if r := rs.Evaluate(rules.OnCommand, cmd); r.Rule != nil {
		switch r.Action {
		case rules.Block:
			return ruleDecision(Deny, r.Rule)
		case rules.Confirm:
			d := ruleDecision(Ask, r.Rule)
			if v.Verdict == shellguard.Ask {
				d.Reason += "; " + v.Reason
			}
			return d
		case rules.Rewrite:
			rewritten, cmd = r.Command, r.Command
			if v = shellguard.Check(cmd, opts); v.Verdict == shellguard.Deny {
				return Verdict{Action: Deny, Reason: "rule " + r.Rule.ID + " rewrote the command and it is refused in every mode: " + v.Reason, Rule: v.Rule}
			}
		case rules.Allow:
			ruleAllow = true
		}
	}
	d := e.shellGrantsAndMode(name, cmd, v, mode, opts, ruleAllow)
	d.Command = rewritten
	return d
}

// shellGrantsAndMode finishes a shell decision the guard did not deny:
// an exact grant approves; a guard ask asks; then a rule allow, the mode
// or prefix grants decide.
func (e *Engine) shellGrantsAndMode(name, cmd string, v shellguard.Verdict, mode Mode, opts shellguard.Options, ruleAllow bool) Verdict {
	if e.grants.Match(Grant{Tool: name, Command: cmd}, e.ws.Root(), e.fold) {
		return Verdict{Action: Allow, Reason: "approved earlier: " + cmd, Rule: RuleGrant}
	}
	if v.Verdict == shellguard.Ask {
		if v.Rule == shellguard.RuleDeleteUndoable && mode == ModeAutoAccept {
			return Verdict{Action: Allow, Reason: "auto-accept mode runs deletes a rewind can undo: " + v.Reason, Rule: RuleModeAuto}
		}
		return Verdict{Action: Ask, Reason: v.Reason, Rule: v.Rule}
	}
	if ruleAllow {
		return Verdict{Action: Allow, Reason: "allowed by a project or user rule", Rule: "rules"}
	}
	if mode == ModeAutoAccept {
		return Verdict{Action: Allow, Reason: "auto-accept mode runs commands the guard allows", Rule: RuleModeAuto}
	}
	if parts, ok := shellguard.Parts(cmd, opts); ok && e.grants.Covers(name, parts, e.ws.Root()) {
		return Verdict{Action: Allow, Reason: "every part of the command is covered by a command grant", Rule: RuleGrant}
	}
	return Verdict{Action: Ask, Reason: "shell commands ask in normal mode: " + clip(cmd), Rule: RuleModeNormal}
}

// resolve returns the resolved absolute path and whether it is inside a
// root. An outside path resolves through workspace.OutsideError.
func (e *Engine) resolve(p string, forWrite bool) (string, bool, error) {
	abs, err := e.ws.Resolve(p, forWrite)
	if err == nil {
		return abs, true, nil
	}
	var out *workspace.OutsideError
	if errors.As(err, &out) {
		r := out.Resolved
		if r == "" {
			r = out.Path
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(e.ws.Root(), r)
		}
		return filepath.Clean(r), false, nil
	}
	return "", false, err
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

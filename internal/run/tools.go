package run

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/checkpoint"
	"github.com/zero-agent/zero/internal/mcp/toolsearch"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/redact"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/tools/webfetch"
	"github.com/zero-agent/zero/internal/workspace"
)

// ToolOptions are what ToolSet wires the tools to. The zero value gives
// the tools as the model sees them (names, schemas, descriptions), for
// reports that run nothing (`zero context`).
type ToolOptions struct {
	// Policy confines shell commands (the OS sandbox); zero: unconfined.
	Policy *sandbox.Policy
	// Engine learns the files the session wrote (running one of them
	// later asks, case B19); nil: nothing is noted.
	Engine *permission.Engine
	// Hooks fire PostToolUse (PostToolUseFailure) for each result; nil:
	// none.
	Hooks *HookRunner
	// Procs holds the session's interactive processes (exec_command);
	// nil: a set of its own that nothing closes (reports run nothing).
	Procs *tools.Procs
	// Ask is the session's question asker now (ask_user); nil, or a nil
	// result: no one can answer.
	Ask func() ask.Asker
	// Checkpoints records what file tools and shell commands change
	// (checkpoints.go); nil: nothing is recorded.
	Checkpoints *checkpoint.Set
}

// ToolSet is the one tool set of a run: the core tools bound to ws plus
// web_fetch, apply_patch, update_plan and the interactive-process tools
// (exec_command, write_stdin, on o.Procs), each with secrets masked in its output (and in the file a
// huge output streams to); shell results also carry the sandbox's notes. Runs, `zero context` and the app's /tools
// all take it from here, so they cannot disagree.
func ToolSet(ws *workspace.Workspace, o ToolOptions) *tools.Registry {
	core := tools.Options{BashEnv: bashEnv()}
	annotate := func(context.Context, string) string { return "" }
	if pol := o.Policy; pol != nil {
		core.CommandWrapper = func(ctx context.Context, cmd *exec.Cmd) error { return callPolicy(ctx, pol).Wrap(cmd) }
		annotate = func(ctx context.Context, out string) string { return callPolicy(ctx, pol).Annotate(out) }
	}
	procs := o.Procs
	if procs == nil {
		procs = tools.NewProcs()
	}
	all := append(tools.Core(ws, core), webfetch.New(webfetch.Options{}), tools.NewApplyPatch(ws), tools.UpdatePlan{})
	reg := tools.NewRegistry()
	asker := o.Ask
	if asker == nil {
		asker = func() ask.Asker { return nil }
	}
	all = append(all, ask.NewTool(asker))
	for _, t := range append(all, tools.ExecTools(ws, core, procs)...) {
		t = tools.Filtered(t, redactSecrets)
		if t.SideEffect() == tools.SideShell {
			// the sandbox's note goes on the result, never into the
			// full-output file
			t = tools.Annotated(t, annotate)
		}
		reg.Add(&observed{Tool: t, engine: o.Engine, hooks: o.Hooks, ckpt: o.Checkpoints, ws: ws})
	}
	return reg
}

// callPolicy is the sandbox policy of one call: p, with the network when
// the permission gate granted it to this call (sandbox.network "ask").
func callPolicy(ctx context.Context, p *sandbox.Policy) sandbox.Policy {
	q := *p
	if tools.Network(ctx) {
		q.Network = true
	}
	return q
}

// wrapTool gives a tool added later (an MCP server's) what ToolSet gives
// the core ones: secrets masked in its output, writes noted, PostToolUse
// hooks fired.
func wrapTool(t tools.Tool, o ToolOptions) tools.Tool {
	return &observed{Tool: tools.Filtered(t, redactSecrets), engine: o.Engine, hooks: o.Hooks}
}

// Visible returns the tool filter of a mode: plan offers read-only tools.
func Visible(mode permission.Mode) func(tools.Tool) bool { return visible(mode, false) }

// minimalTools are the tools of the minimal profile (a small window):
// enough to find, read, change and test code; listing and globbing are
// one bash call away, and the web is left out.
var minimalTools = map[string]bool{"read_file": true, "grep": true, "edit_file": true, tools.ApplyPatchName: true, "write_file": true, "bash": true, skills.ToolName: true}

// visible is the tool filter of a mode in a profile (minimal: the
// minimalTools only).
func visible(mode permission.Mode, minimal bool) func(tools.Tool) bool {
	switch {
	case mode.ReadOnly() && minimal:
		return func(t tools.Tool) bool { return readOnly(t.SideEffect()) && (minimalTools[t.Name()] || fromMCP(t)) }
	case mode.ReadOnly():
		return func(t tools.Tool) bool { return readOnly(t.SideEffect()) }
	case minimal:
		return func(t tools.Tool) bool { return minimalTools[t.Name()] || fromMCP(t) }
	}
	return nil
}

// editTools are the file-editing tools a model is offered: the config's
// editTool, else apply_patch for a model the catalog says was trained on
// it and edit_file for the rest (each schema is paid on every request, so
// a model gets one of them unless the config asks for both).
type editTools struct{ editFile, applyPatch bool }

func chooseEditTools(configured, kind, model string) editTools {
	switch configured {
	case "edit_file":
		return editTools{editFile: true}
	case "apply_patch":
		return editTools{applyPatch: true}
	case "both":
		return editTools{editFile: true, applyPatch: true}
	}
	if m, _ := catalog.Resolve(kind, model); m.ApplyPatch {
		return editTools{applyPatch: true}
	}
	return editTools{editFile: true}
}

// filter narrows a tool filter (nil: every tool) to the chosen edit tools.
// offered is the filter of the tools the model is offered: base (the
// mode's and profile's), the model's edit tool, and none that a deny
// rule refuses whole (`"deny": ["WebFetch"]`, --disallowed-tools Bash):
// offering a tool every call of which is refused only burns turns.
func (s *Session) offered(base func(tools.Tool) bool) func(tools.Tool) bool {
	f := s.edits.filter(base)
	questions := s.rt.opts.Questions
	return func(t tools.Tool) bool {
		if t.Name() == ask.ToolName && !questions {
			return false // no one could answer it
		}
		return f(t) && !s.rt.Engine.DeniesTool(t.Name())
	}
}

func (e editTools) filter(base func(tools.Tool) bool) func(tools.Tool) bool {
	return func(t tools.Tool) bool {
		switch t.Name() {
		case "edit_file":
			if !e.editFile {
				return false
			}
		case tools.ApplyPatchName:
			if !e.applyPatch {
				return false
			}
		}
		return base == nil || base(t)
	}
}

// fromMCP: the tool is an MCP server's, or the search over them; the
// minimal profile keeps them (PrepareMCP has already fitted them to a
// tenth of the window).
func fromMCP(t tools.Tool) bool {
	e := t.SideEffect()
	return e == tools.SideExternal || e == tools.SideExternalRead || t.Name() == toolsearch.SearchName
}

// readOnly: plan mode offers the tool (an MCP tool its server marks
// read-only included, and update_plan, which changes only the session).
func readOnly(e tools.SideEffect) bool {
	return e == tools.SideRead || e == tools.SideExternalRead || e == tools.SideNone
}

// userShell is the tool that runs the user's own `!cmd` lines: outside the
// sandbox and with the user's environment (the guard's hard deny still
// applies, in Session.Shell).
func userShell(ws *workspace.Workspace) tools.Tool {
	for _, t := range tools.Core(ws, tools.Options{}) {
		if t.SideEffect() == tools.SideShell {
			return t
		}
	}
	return nil
}

// shellPolicy is what shell commands may touch inside the sandbox
// (bubblewrap, else Landlock): read everywhere but secrets, write the
// workspace, added roots, temp and the build caches (a `go test` or `npm
// test` must be able to write its cache), no network.
func shellPolicy(ws *workspace.Workspace) sandbox.Policy {
	p := sandbox.Policy{Workspace: ws.Root(), Writable: append([]string(nil), ws.Roots()[1:]...)}
	if dir, err := os.UserCacheDir(); err == nil {
		p.Writable = append(p.Writable, dir)
	}
	for _, env := range []string{"GOCACHE", "GOMODCACHE"} {
		if v := os.Getenv(env); v != "" {
			p.Writable = append(p.Writable, v)
		}
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if home, err := os.UserHomeDir(); err == nil {
			gopath = filepath.Join(home, "go")
		}
	}
	if gopath != "" {
		p.Writable = append(p.Writable, filepath.Join(gopath, "pkg", "mod"))
	}
	var existing []string
	for _, d := range p.Writable {
		if _, err := os.Stat(d); err == nil {
			existing = append(existing, d)
		}
	}
	p.Writable = existing
	return p
}

// bashEnv is the environment of shell commands and hooks: the user's,
// without provider keys and Zero's own settings (a command's output is
// seen by the model; masking alone can be bypassed by transforming the
// value).
func bashEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		if strings.HasPrefix(u, "ZERO_") || strings.HasSuffix(u, "_API_KEY") || strings.HasSuffix(u, "_TOKEN") ||
			strings.HasSuffix(u, "_SECRET") || strings.HasSuffix(u, "_SECRET_ACCESS_KEY") || u == "ANTHROPIC_AUTH_TOKEN" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// redactSecrets masks API keys, tokens and private keys in tool output
// before it reaches the model, the screen or the session log.
func redactSecrets(s string) string {
	out, _ := redact.String(s)
	return out
}

// observed wraps a tool so the engine learns the files the session wrote
// (running one of them later asks, case B19) and PostToolUse hooks see
// each result.
type observed struct {
	tools.Tool
	engine *permission.Engine
	hooks  *HookRunner
	// target, for mcp_call, names the server tool a call runs and its
	// arguments: hooks see that tool, not the indirection.
	target func(args json.RawMessage) (name string, inner json.RawMessage, ok bool)
	// ckpt records the files the tool changes (nil: off); ws resolves
	// the paths a file tool names.
	ckpt *checkpoint.Set
	ws   *workspace.Workspace
}

// Run runs the tool, then records writes and fires PostToolUse hooks
// (their block reason and context follow the result the model reads).
func (o *observed) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	after := o.checkpoint(args)
	res, err := o.Tool.Run(ctx, args)
	after()
	if o.engine != nil && o.Tool.SideEffect() == tools.SideWrite && !res.IsError {
		for _, p := range res.Paths {
			o.engine.NoteWrite(p)
		}
	}
	if err == nil {
		name, hookArgs := o.Tool.Name(), args
		if o.target != nil {
			if n, a, ok := o.target(args); ok {
				name, hookArgs = n, a
			}
		}
		if note := o.hooks.PostTool(ctx, name, hookArgs, res); note != "" {
			res.Content += "\n\n" + note
		}
	}
	return res, err
}

package run

import (
	"fmt"
	"io"
	"sync"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/plugins"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// Options say what a surface asks of the run layer; the rest comes from
// configuration.
type Options struct {
	// Workdir is the workspace directory ("" is the current directory);
	// AddDirs are extra roots the tools may write (--add-dir).
	Workdir string
	AddDirs []string
	// Overrides are the command line's provider choices (--base-url,
	// --model, --api-key, --provider).
	Overrides config.Overrides
	// Mode is the permission mode asked for on the command line ("":
	// the config's). AutoApprove is --auto-approve (auto-accept mode); it
	// contradicts an explicit plan mode, which is a ConfigError.
	Mode        string
	AutoApprove bool
	// MaxTurns caps model requests per prompt (0: the config's).
	MaxTurns int
	// CompletionCheck nudges the model once when its final answer says
	// work remains or claims tests pass unverified (on for exec; off, the
	// finding is a warning event).
	CompletionCheck bool
	// Tools are the --allowed-tools and --disallowed-tools rules.
	Tools ToolFlags
	// Questions says the surface can answer questions (the app,
	// stream-json input, an editor): only then is ask_user offered. A
	// call to it without (a model trained on it may try) still gets an
	// answer: that no one can reply.
	Questions bool
	// NoSandbox is --no-sandbox: shell commands run without the OS
	// sandbox for this run (so does sandbox.enabled false in the user's
	// config).
	NoSandbox bool
	// MCPServers are servers the surface adds to the config's (an
	// editor's session/new mcpServers); one named like a configured
	// server replaces it.
	MCPServers []mcpconfig.Server
	// NoModel opens a runtime that serves tools without an agent (zero
	// mcp serve --tools): no provider is looked for, so none need be
	// configured; Active and Provider are nil and no session can be
	// opened over it.
	NoModel bool
	// Stderr receives set-up warnings (nil: discarded).
	Stderr io.Writer
}

// Runtime is everything resolved once per process: configuration, the
// provider and its window, the workspace, the permission engine and hooks.
// Sessions are opened over it. Close releases the workspace.
type Runtime struct {
	Config *config.Config
	// Active is the resolved provider profile (Model changes with
	// Session.SetModel).
	Active   *config.Resolved
	Provider llm.Provider
	// Window is the model's context window in tokens.
	Window    int
	Workspace *workspace.Workspace
	Store     *sessions.Store
	Engine    *permission.Engine
	// Trusted is whether the folder is trusted (project rules and hooks
	// load).
	Trusted bool

	mu        sync.Mutex // guards Active.Model and Window after Open
	warnOnce  sync.Once  // the small-window warning
	extOnce   sync.Once  // the untrusted skills and commands warning
	opts      Options
	stderr    io.Writer
	mode      permission.Mode
	maxTurns  int
	policy    sandbox.Policy
	hooks     *hooks.Runner
	userShell tools.Tool
	// mcp are the MCP servers (nil: none configured), started at Open.
	mcp *mcpServers
	// plugins are the installed plugins, checked at Open; the active
	// ones' skills, commands, hooks and MCP servers load with the user's.
	plugins *plugins.Set
	// asking are the sessions prompting now, for elicitations.
	asking asking
	// background are the runtime's own goroutines that write into the
	// data directory (checkpoint collection); Close waits for them.
	background sync.WaitGroup

	// windowAssumed: Window is the server's default for a model it had
	// not loaded yet (windowrefresh.go); guarded by mu.
	windowAssumed bool
	// counts: the server is llama.cpp, whose tokenizer Zero asks to
	// count its fixed prompt at session start (tokencount.go).
	counts bool
	// slots is how many requests the server runs at once (llama.cpp's
	// total_slots; 0: unknown); agentSlots bounds the sub-agents running
	// at once by it and the config (subagent_parallel.go).
	slots      int
	slotsOnce  sync.Once
	agentSlots chan struct{}
}

// Open resolves configuration, the provider and the workspace.
// Configuration problems are ConfigErrors saying what to do next.
func Open(o Options) (*Runtime, error) {
	stderr := o.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	dir, err := Workdir(o.Workdir)
	if err != nil {
		return nil, err
	}
	if err := checkWorkspace(stderr, dir); err != nil {
		return nil, err
	}
	cfg, trust, err := LoadConfig(dir, o.Overrides)
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(stderr, "zero: warning:", w)
	}
	mode, err := resolveMode(o, cfg)
	if err != nil {
		return nil, err
	}
	var active *config.Resolved
	var srv *discovery.Server
	var prov llm.Provider
	if !o.NoModel {
		if active, prov, srv, err = openProvider(stderr, cfg, o.Overrides.Model); err != nil {
			return nil, err
		}
	}
	ws, err := workspace.New(dir, o.AddDirs...)
	if err != nil {
		return nil, configErrorf("workspace: %v", err)
	}
	st, err := OpenStore()
	if err != nil {
		ws.Close()
		return nil, err
	}
	rt := &Runtime{Config: cfg, Active: active, Provider: prov, Workspace: ws, Store: st, opts: o, stderr: stderr, mode: mode, maxTurns: cfg.MaxTurns}
	if o.MaxTurns > 0 {
		rt.maxTurns = o.MaxTurns
	}
	if !o.NoModel {
		rt.Window, rt.windowAssumed, rt.counts, rt.slots = resolveWindow(stderr, cfg, active, srv)
	}
	rt.policy = shellPolicy(ws)
	rt.policy.Network = cfg.SandboxNetwork == config.NetworkOn
	rt.policy.NetworkAsk = cfg.SandboxNetwork == config.NetworkAsk
	if o.NoSandbox || cfg.NoSandbox {
		rt.policy.NetworkAsk = false // unconfined: there is no network to ask for
		rt.policy.Backend = sandbox.BackendNone
		fmt.Fprintln(stderr, "zero: shell commands run without the OS sandbox (--no-sandbox or sandbox.enabled false): the guard and the permission mode still decide what runs")
	}
	rt.plugins = LoadPlugins()
	for _, w := range rt.plugins.Warnings {
		fmt.Fprintln(stderr, "zero: warning:", w)
	}
	sf, err := newSafety(stderr, ws, cfg, trust, mode, o.Tools, rt.plugins)
	if err != nil {
		ws.Close()
		return nil, err
	}
	rt.Engine, rt.Trusted = sf.engine, sf.trusted
	rt.Engine.SetNetworkAsk(rt.policy.NetworkAsk && rt.policy.Backend != sandbox.BackendNone && sandbox.Backend() != sandbox.BackendNone)
	rt.hooks = sf.hooks
	rt.userShell = userShell(ws)
	rt.mcp = startMCP(rt.warnings, rt.elicit, mcpStart{workspace: ws.Root(), roots: ws.Roots(), trusted: rt.Trusted, logDir: MCPLogDir(st.Dir()), extra: o.MCPServers, plugins: rt.plugins})
	return rt, nil
}

// openProvider resolves the provider a run talks to: the config's
// active one, or a local server found on 127.0.0.1 (srv, nil otherwise).
func openProvider(stderr io.Writer, cfg *config.Config, model string) (*config.Resolved, llm.Provider, *discovery.Server, error) {
	active := cfg.Active
	var srv *discovery.Server
	if active == nil {
		var err error
		if active, srv, err = discover(stderr, model); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := NeedKey(active); err != nil {
		return nil, nil, nil, err
	}
	if err := firstModel(stderr, active); err != nil {
		return nil, nil, nil, err
	}
	prov, err := NewProvider(active)
	if err != nil {
		return nil, nil, nil, err
	}
	return active, prov, srv, nil
}

// resolveMode is the permission mode of a run. The command line beats
// the config: --permission-mode, or --auto-approve (auto-accept); both at
// once must agree (plan or normal with --auto-approve is a ConfigError).
// Without either, the config's permissionMode, where autoApprove means
// auto-accept unless the config also asks for plan (the safer of the two).
func resolveMode(o Options, cfg *config.Config) (permission.Mode, error) {
	flagMode, err := permission.ParseMode(o.Mode)
	if err != nil {
		return "", &ConfigError{err.Error()}
	}
	switch {
	case o.Mode != "" && o.AutoApprove && flagMode != permission.ModeAutoAccept:
		return "", configErrorf("--permission-mode %s and --auto-approve contradict each other: %s", flagMode, map[permission.Mode]string{
			permission.ModePlan:   "plan mode runs read-only tools only",
			permission.ModeNormal: "normal mode asks before edits and commands",
		}[flagMode])
	case o.Mode != "":
		return flagMode, nil
	case o.AutoApprove:
		return permission.ModeAutoAccept, nil
	}
	mode, err := permission.ParseMode(cfg.PermissionMode)
	if err != nil {
		return "", configErrorf("permissionMode in the config: %v", err)
	}
	if cfg.AutoApprove && mode != permission.ModePlan {
		mode = permission.ModeAutoAccept
	}
	return mode, nil
}

// setModel records a model switch: the active profile's model and the
// window later reports and run_start events name.
func (rt *Runtime) setModel(name string, window int) {
	rt.mu.Lock()
	rt.Active.Model, rt.Window = name, window
	rt.mu.Unlock()
}

// window is the context window now (it changes with the model).
func (rt *Runtime) window() int {
	_, w := rt.ModelWindow()
	return w
}

// ModelWindow is the model in use and its context window in tokens, safe
// to call while a prompt runs or the model switches.
func (rt *Runtime) ModelWindow() (model string, window int) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.Active.Model, rt.Window
}

// SetWarnings sends later warnings (opening a session) to w instead of
// Options.Stderr: a full-screen surface collects them instead of letting
// them land on its screen (nil: discard).
func (rt *Runtime) SetWarnings(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	rt.mu.Lock()
	rt.stderr = w
	rt.mu.Unlock()
}

func (rt *Runtime) warnings() io.Writer {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.stderr
}

// Mode is the runtime's current permission mode.
func (rt *Runtime) Mode() permission.Mode { return rt.Engine.Mode() }

// Tools returns the tool set as sessions build it, for reports (/tools):
// the same names, schemas and descriptions the model is offered.
func (rt *Runtime) Tools() *tools.Registry {
	return ToolSet(rt.Workspace, ToolOptions{Policy: &rt.policy, Engine: rt.Engine})
}

// Close releases the workspace.
func (rt *Runtime) Close() {
	rt.mcp.close()
	rt.background.Wait()
	rt.Workspace.Close()
}

// OpenStore opens the session store ($ZERO_SESSION_DIR or the data
// directory).
func OpenStore() (*sessions.Store, error) {
	dir, err := sessions.DefaultDir()
	if err != nil {
		return nil, err
	}
	return sessions.Open(dir), nil
}

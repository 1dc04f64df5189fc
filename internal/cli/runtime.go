package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/anthropic"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/gemini"
	"github.com/zero-agent/zero/internal/providers/openai"
	"github.com/zero-agent/zero/internal/redact"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/tools/webfetch"
	"github.com/zero-agent/zero/internal/workspace"
)

// overrides are the flags every model-using command shares.
type overrides struct {
	baseURL, model, apiKey, provider string
	autoApprove                      bool
	workdir                          string
	addDirs                          multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// config returns the flags as configuration overrides.
func (o *overrides) config() config.Overrides {
	return config.Overrides{BaseURL: o.baseURL, Model: o.model, APIKey: o.apiKey, Provider: o.provider}
}

func (o *overrides) register(fs *flag.FlagSet) {
	fs.StringVar(&o.baseURL, "base-url", "", "API root of an OpenAI-compatible server (with or without /v1)")
	fs.StringVar(&o.model, "model", "", "model id, or provider/model")
	fs.StringVar(&o.model, "m", "", "shorthand for --model")
	fs.StringVar(&o.apiKey, "api-key", "", "API key (prefer the provider's environment variable)")
	fs.StringVar(&o.provider, "provider", "", "provider profile name")
	fs.BoolVar(&o.autoApprove, "auto-approve", false, "run write and shell tools without asking (the shell guard still refuses catastrophic commands)")
	fs.StringVar(&o.workdir, "C", "", "workspace directory (default: the current directory)")
	fs.Var(&o.addDirs, "add-dir", "extra directory the tools may write (repeatable)")
}

// runtime is everything a run needs, built from configuration.
type runtime struct {
	s        stdio
	cfg      *config.Config
	active   *config.Resolved
	provider llm.Provider
	ws       *workspace.Workspace
	registry *tools.Registry
	store    *sessions.Store
	maxTurns int
	mode     string
	// window is the model's context window in tokens.
	window int
	safety *safety
	// userShell runs the user's own `!cmd` lines: outside the sandbox and
	// with the user's environment (the guard's hard deny still applies).
	userShell tools.Tool
}

// newRuntime resolves configuration, the provider and the workspace.
// Configuration errors are usage errors (exit 2) with what to do next.
func newRuntime(s stdio, o overrides, mode string) (*runtime, error) {
	dir := o.workdir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	dir = canonicalDir(dir)
	if err := checkWorkspace(s, dir); err != nil {
		return nil, err
	}
	cfg, trust, err := loadConfigTrust(dir, o.config())
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(s.err, "zero: warning:", w)
	}
	active := cfg.Active
	var srv *discovery.Server
	if active == nil {
		active, srv, err = discover(s, o.model)
		if err != nil {
			return nil, err
		}
	}
	if err := needKey(active); err != nil {
		return nil, err
	}
	if active.Model == "" && (active.Kind == config.KindOpenAICompatible) {
		// A server named by --base-url alone: use its first model, as
		// discovery does.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ids, err := openai.ListModels(ctx, active.BaseURL, active.APIKey)
		cancel()
		if err == nil && len(ids) > 0 {
			active.Model = ids[0]
			fmt.Fprintf(s.err, "zero: using model %s from %s (pass --model to choose)\n", active.Model, active.BaseURL)
		}
	}
	prov, err := buildProvider(active)
	if err != nil {
		return nil, usagef("%v", err)
	}
	ws, err := workspace.New(dir, o.addDirs...)
	if err != nil {
		return nil, usagef("workspace: %v", err)
	}
	st, err := openStore()
	if err != nil {
		return nil, err
	}
	if mode == "" {
		mode = cfg.PermissionMode
	}
	if (o.autoApprove || cfg.AutoApprove) && mode != modePlan {
		mode = modeAutoAccept // plan mode, when asked for, always wins
	}
	switch mode {
	case "", modeNormal, modeAutoAccept, modePlan:
	default:
		return nil, usagef("unknown permission mode %q (normal, auto-accept, plan)", mode)
	}
	rt := &runtime{s: s, cfg: cfg, active: active, provider: prov, ws: ws, store: st, maxTurns: cfg.MaxTurns, mode: mode}
	rt.window = contextWindow(s, cfg, active, srv)
	policy := shellPolicy(ws)
	if rt.safety, err = newSafety(rt, trust, mode, policy); err != nil {
		return nil, err
	}
	for _, t := range tools.Core(ws, tools.Options{}) {
		if t.SideEffect() == tools.SideShell {
			rt.userShell = t
		}
	}
	rt.registry = tools.NewRegistry()
	all := append(tools.Core(ws, tools.Options{CommandWrapper: policy.Wrap, BashEnv: bashEnv()}), webfetch.New(webfetch.Options{}))
	for _, t := range all {
		filter := redactSecrets
		if t.SideEffect() == tools.SideShell {
			filter = func(s string) string { return redactSecrets(s + policy.Annotate(s)) }
		}
		rt.registry.Add(&observed{Tool: tools.Filtered(t, filter), engine: rt.safety.engine, hooks: rt.safety.hooks})
	}
	return rt, nil
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

// checkWorkspace refuses the filesystem root as a workspace and warns
// about the home directory: an agent there can reach everything.
func checkWorkspace(s stdio, dir string) error {
	if dir == string(filepath.Separator) {
		return usagef("refusing to use / as the workspace: cd into a project directory (or pass -C DIR)")
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(home) == dir {
		fmt.Fprintln(s.err, "zero: warning: the workspace is your home directory; every file in it is in reach. cd into a project directory for a narrower workspace.")
	}
	return nil
}

// needKey fails fast, before any network, when a vendor API is chosen
// without its key.
func needKey(r *config.Resolved) error {
	if r.APIKey != "" {
		return nil
	}
	env := map[config.Kind]string{config.KindOpenAI: "OPENAI_API_KEY", config.KindAnthropic: "ANTHROPIC_API_KEY", config.KindGemini: "GEMINI_API_KEY"}[r.Kind]
	if env == "" {
		return nil
	}
	return usagef("provider %s needs an API key: set %s (or apiKeyEnv in its profile), or pick a local server with --base-url", r.Name, env)
}

// bashEnv is the environment of shell commands: the user's, without
// provider keys and Zero's own settings (a command's output is seen by the
// model; masking alone can be bypassed by transforming the value).
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

// buildProvider makes the llm.Provider for a resolved profile. Stream
// timeouts come from the environment: ZERO_IDLE_TIMEOUT (seconds of
// silence allowed inside a stream) and ZERO_FIRST_BYTE_TIMEOUT (seconds to
// wait for a local server to start answering a long prompt; OpenAI-
// compatible servers only).
func buildProvider(r *config.Resolved) (llm.Provider, error) {
	if r.Model == "" {
		return nil, fmt.Errorf("no model for provider %q: pass --model or set \"model\" in ~/.config/zero/config.json", r.Name)
	}
	idle, err := secondsEnv("ZERO_IDLE_TIMEOUT")
	if err != nil {
		return nil, err
	}
	first, err := secondsEnv("ZERO_FIRST_BYTE_TIMEOUT")
	if err != nil {
		return nil, err
	}
	switch r.Kind {
	case config.KindAnthropic:
		return anthropic.New(anthropic.Options{Name: r.Name, BaseURL: r.BaseURL, APIKey: r.APIKey, Model: r.Model, Headers: r.Headers, IdleTimeout: idle}), nil
	case config.KindGemini:
		return gemini.New(gemini.Options{Name: r.Name, BaseURL: r.BaseURL, APIKey: r.APIKey, Model: r.Model, Headers: r.Headers, IdleTimeout: idle}), nil
	default:
		p, err := openai.New(openai.Options{Name: r.Name, BaseURL: r.BaseURL, APIKey: r.APIKey, Model: r.Model, Headers: r.Headers, IdleTimeout: idle, FirstByteTimeout: first})
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// secondsEnv reads a duration in seconds from the environment; unset is 0
// (the provider's default).
func secondsEnv(name string) (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("%s must be a positive number of seconds, not %q", name, v)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// discover is used when nothing is configured: it probes the usual local
// server ports on 127.0.0.1 (short timeouts) and uses the first that
// answers GET /v1/models, with its first model. Nothing found exits 2 with
// how to start a server or set a key.
func discover(s stdio, model string) (*config.Resolved, *discovery.Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	srv, err := discovery.Find(ctx)
	if err != nil {
		return nil, nil, usagef("no model configured and no local server found: %v\n"+
			"  Start one: ollama serve · llama-server -m model.gguf --port 8080 · LM Studio's server (port 1234) · vllm serve MODEL\n"+
			"  or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or pass --base-url and --model", err)
	}
	if model == "" {
		model = srv.Models[0]
	}
	fmt.Fprintf(s.err, "zero: using %s at %s, model %s\n", srv.Kind, srv.BaseURL, model)
	return &config.Resolved{Name: string(srv.Kind), Kind: config.KindOpenAICompatible, BaseURL: srv.BaseURL, Model: model, TextToolCalls: true}, srv, nil
}

// localHost reports whether base names a server on this machine or the
// local network, where llama.cpp, Ollama and LM Studio report their window;
// a remote API is not probed at start-up (it would only add round trips).
func localHost(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// contextWindow resolves the model's window in tokens: config, then what a
// local server reports, then the catalog, then a conservative default
// (with a warning, never a silent large guess).
func contextWindow(s stdio, cfg *config.Config, r *config.Resolved, srv *discovery.Server) int {
	m, warn := catalog.Resolve(string(r.Kind), r.Model)
	discovered := 0
	if !m.Known && cfg.ContextWindow == 0 && r.Kind == config.KindOpenAICompatible && (srv != nil || localHost(r.BaseURL)) {
		if srv == nil {
			srv = &discovery.Server{BaseURL: r.BaseURL}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		discovered, _ = (&discovery.Prober{}).ContextWindow(ctx, *srv, r.Model)
		cancel()
	}
	w, source := catalog.Window(m, discovered, cfg.ContextWindow)
	if source == "default" && warn != "" {
		fmt.Fprintln(s.err, "zero: warning:", warn)
	}
	return w
}

// Close releases the workspace.
func (rt *runtime) Close() { rt.ws.Close() }

// openSession creates a session, or resumes (latest or id) or forks one,
// returning it with its history.
func (rt *runtime) openSession(resume bool, resumeID, forkID, prompt string) (*sessions.Session, []llm.Message, error) {
	var sess *sessions.Session
	var err error
	switch {
	case forkID != "":
		sess, err = rt.store.Fork(forkID)
	case resume && resumeID != "":
		sess, err = rt.store.Load(resumeID)
	case resume:
		sess, err = rt.store.Latest(rt.ws.Root())
		if errors.Is(err, sessions.ErrNotFound) {
			return nil, nil, usagef("no session to resume in %s (zero sessions --all lists them)", rt.ws.Root())
		}
	default:
		sess, err = rt.store.Create(sessions.Metadata{Workspace: rt.ws.Root(), Provider: rt.active.Name, Model: rt.active.Model})
	}
	if err != nil {
		if errors.Is(err, sessions.ErrNotFound) {
			return nil, nil, usagef("%v", err)
		}
		return nil, nil, err
	}
	if err := sess.Lock(); err != nil {
		sess.Close()
		if errors.Is(err, sessions.ErrInUse) {
			return nil, nil, usagef("%v (fork it instead: --fork %s)", err, sess.ID())
		}
		return nil, nil, err
	}
	history, warns, err := sess.History()
	if err != nil {
		sess.Close()
		return nil, nil, err
	}
	for _, w := range sessions.Summarize(warns) {
		fmt.Fprintln(rt.s.err, "zero: session log:", w)
	}
	return sess, history, nil
}

// newAgent builds the agent loop over a session: its history, its
// directory (cut tool outputs are spilled there and the model may read
// them back), and the context levers from config.
func (rt *runtime) newAgent(sess *sessions.Session, history []llm.Message, maxTurns int, sink event.Sink, completionCheck bool) *agent.Agent {
	if err := rt.ws.AddReadRoot(sess.Dir()); err != nil {
		fmt.Fprintln(rt.s.err, "zero: warning: cut tool outputs will not be readable:", err)
	}
	return agent.New(agent.Options{
		Provider:             rt.provider,
		Model:                rt.active.Model,
		System:               agent.SystemPrompt(rt.ws.Root(), time.Now(), rt.safety.guidelines),
		Tools:                rt.registry,
		Gate:                 rt.gate(nil, nil),
		Visible:              visibleFor(rt.mode),
		MaxTurns:             maxTurns,
		History:              history,
		Sink:                 sink,
		SessionDir:           sess.Dir(),
		ContextWindow:        rt.window,
		MaxToolOutput:        rt.cfg.MaxToolOutput,
		MaxTurnOutput:        rt.cfg.MaxTurnOutput,
		DisableTextToolCalls: !rt.active.TextToolCalls,
		CompletionCheck:      completionCheck,
	})
}

// gate is the permission decision of a surface: asks become denials with
// a reason the model can read, unless ask is given.
// audit receives permission decisions for the session log (nil: none).
func (rt *runtime) gate(ask askFunc, audit event.Sink) agent.Gate {
	return &permissionGate{engine: rt.safety.engine, ask: ask, hooks: rt.safety.hooks, audit: audit, autoAccept: rt.mode == modeAutoAccept, ws: rt.ws}
}

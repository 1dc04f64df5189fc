package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/openai"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
)

// doctorLong is `zero doctor --help`.
const doctorLong = `Prints what Zero would use and whether it works: the config files, the
settings files hooks and permission rules come from (as a session reads
them, so a file that does not parse fails here too), one
provider, the shell sandbox, the session store, the skills, custom commands
and plugins, bash and git.

The provider checked is the active one, or NAME (a profile as
` + "`zero providers`" + ` lists it). An OpenAI-compatible server is asked for its
model list (GET /models); for Anthropic and Gemini only the key is checked
(` + "`zero providers check NAME`" + ` sends a real request). With nothing
configured, doctor looks for a local server on 127.0.0.1. It contacts no
host but the provider it checks and 127.0.0.1. For a server on this machine or
the local network it also shows the window the server runs the model with,
and warns when that is less than the model supports (Ollama's default), and
how tools will reach the model (native, or listed in the prompt, and why).

Exit codes: 0 when every check passed (✓; "·" and "!" lines are notes), 1
when one failed (✗). An unknown NAME exits 2 and lists the known ones.`

// doctorCmd is `zero doctor [--provider NAME]`.
func doctorCmd(s stdio) *cobra.Command {
	var name string
	c := &cobra.Command{
		Use:     "doctor",
		Short:   "Check the configuration, a provider, the shell sandbox and the session store",
		Long:    doctorLong,
		GroupID: groupSetup,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("doctor takes no arguments (to check a provider: zero doctor --provider %s)", args[0])
			}
			return nil
		},
		RunE: ran(func(*cobra.Command, []string) error { return runDoctor(s, name) }),
	}
	c.Flags().StringVar(&name, "provider", "", "check provider profile `NAME` instead of the active one")
	c.RegisterFlagCompletionFunc("provider", completeProviders)
	return c
}

// checks prints doctor's lines and counts the failed ones.
type checks struct {
	w      io.Writer
	failed int
}

// line prints one check: ✓ when ok, ✗ (and counted) otherwise.
func (c *checks) line(ok bool, format string, a ...any) {
	mark := "✓"
	if !ok {
		mark = "✗"
		c.failed++
	}
	fmt.Fprintf(c.w, mark+" "+format+"\n", a...)
}

// note prints a line that is neither a pass nor a failure ("·", "!").
func (c *checks) note(format string, a ...any) { fmt.Fprintf(c.w, format+"\n", a...) }

// runDoctor prints what Zero would use and whether it works: config
// files, the active provider (or NAME), the shell sandbox backend, the
// session store. It contacts only the provider checked (for
// OpenAI-compatible servers, GET /models) and loopback. A failed check
// exits ExitFailed.
func runDoctor(s stdio, name string) error {
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil && name != "" {
		return err
	}
	if err == nil && name != "" && !slices.ContainsFunc(cfg.Providers, func(p config.Provider) bool { return p.Name == name }) {
		var known []string
		for _, p := range cfg.Providers {
			known = append(known, p.Name)
		}
		return usagef("doctor: no provider named %q; known: %s (zero providers lists them)", name, strings.Join(known, ", "))
	}
	c := &checks{w: s.out}
	if err != nil {
		c.line(false, "config: %s", strings.TrimPrefix(err.Error(), "config: ")) // the error names it already
	} else {
		doctorConfig(c, cfg, name)
		doctorSettings(c)
	}
	backend, detail := sandbox.BackendInfo()
	if cfg != nil && cfg.NoSandbox {
		c.line(false, "shell sandbox: off (sandbox.enabled false in the user config); %s would be used — %s", backend, detail)
	} else {
		c.line(backend != "none" && backend != "", "shell sandbox: %s — %s", backend, detail)
	}
	c.line(true, "shell network: %s", networkText(cfg, backend))
	dir, err := sessions.DefaultDir()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	c.line(err == nil, "sessions: %s %v", dir, errText(err))
	doctorExtensions(c)
	doctorPlugins(c)
	for _, tool := range []string{"bash", "git"} {
		_, err := exec.LookPath(tool)
		c.line(err == nil, "%s on PATH %v", tool, errText(err))
	}
	if c.failed > 0 {
		return &exitError{ExitFailed, fmt.Errorf("doctor: %s failed", count(c.failed, "check"))}
	}
	return nil
}

// doctorSettings checks the settings files a session here reads hooks
// and permission rules from (Claude Code's and Zero's settings.json, the
// project's only in a trusted folder), with the reader a session uses:
// a file that does not parse fails, naming the file and position.
func doctorSettings(c *checks) {
	r, err := run.ReadSetup("")
	if err != nil {
		c.line(false, "%v", err)
		return
	}
	if len(r.Loaded) == 0 {
		c.note("· settings: no hooks or permission rules in any settings file")
	} else {
		c.line(true, "settings: hooks and permission rules from %s", strings.Join(r.Loaded, ", "))
	}
	if len(r.Ignored) > 0 {
		c.note("· settings: %s", ignoredText(r))
	}
	for _, w := range r.Warnings {
		c.note("! %s", w)
	}
}

// networkText is `zero doctor`'s line on sandbox.network: which value
// is in force, what it lets shell commands reach, and how to change it.
func networkText(cfg *config.Config, backend string) string {
	unconfined := backend == sandbox.BackendNone || backend == "" || cfg != nil && cfg.NoSandbox
	switch {
	case unconfined:
		return "not confined (no OS sandbox runs shell commands, so they reach the network)"
	case cfg != nil && cfg.SandboxNetwork == config.NetworkOn:
		return "on (sandbox.network in the config: every shell command reaches the network)"
	case cfg != nil && cfg.SandboxNetwork == config.NetworkAsk:
		return "ask (sandbox.network in the config: package installs, remote git, curl and wget ask to run with the network; other commands run offline)"
	}
	return "off (shell commands reach no network; set \"sandbox\": {\"network\": \"ask\"} or \"on\" in ~/.config/zero/config.json to allow it)"
}

// doctorConfig checks the config files and one provider: NAME, the
// active one, or a local server found on 127.0.0.1.
func doctorConfig(c *checks, cfg *config.Config, name string) {
	if len(cfg.Files) == 0 {
		c.note("· config: no config files (defaults and environment only)")
	}
	for _, f := range cfg.Files {
		c.line(true, "config file %s", f)
	}
	for _, w := range cfg.Warnings {
		c.note("! %s", w)
	}
	switch {
	case name != "":
		if r, err := cfg.Resolve(name, ""); err != nil {
			c.line(false, "provider %s: %v", name, err)
		} else {
			doctorProvider(c, cfg, r)
		}
	case cfg.Active != nil:
		doctorProvider(c, cfg, cfg.Active)
	default:
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		p := &discovery.Prober{}
		srv, err := p.Find(ctx)
		if err != nil {
			c.line(false, "no provider configured and no local server found: %v", err)
			return
		}
		model := p.PickModel(ctx, *srv)
		c.line(true, "local server %s at %s (%s), model %q", srv.Kind, srv.BaseURL, count(len(srv.Models), "model"), model)
		doctorWindow(c, *srv, model)
		doctorTools(c, cfg, &config.Resolved{Name: string(srv.Kind), Kind: config.KindOpenAICompatible, BaseURL: srv.BaseURL}, model)
	}
}

// doctorProvider checks provider r: for OpenAI-compatible servers whether
// GET /models answers (3 s), and on a local one the window it runs the
// model with; for vendor APIs whether a key is set. The kind and model
// shown are the ones Zero uses: the openai profile pointed at another
// host speaks the compatible dialect, and a server with no model set gets
// the model Zero would pick there.
func doctorProvider(c *checks, cfg *config.Config, r *config.Resolved) {
	kind := string(r.Kind)
	if r.Kind == config.KindOpenAICompatible && declaredKind(cfg, r.Name) == config.KindOpenAI {
		kind += ", as its base URL is not api.openai.com"
	}
	if r.Kind != config.KindOpenAICompatible && r.Kind != config.KindOpenAI {
		c.line(r.APIKey != "", "provider %s (%s) %s model %q (key from %s; `zero providers check %s` sends a real request)", r.Name, kind, r.BaseURL, r.Model, keySource(r), r.Name)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	ids, err := openai.ListModels(ctx, r.BaseURL, r.APIKey)
	model, shown := r.Model, fmt.Sprintf("model %q", r.Model)
	if model == "" && err == nil {
		if m, perr := run.DefaultModel(ctx, r); perr == nil {
			model, shown = m, fmt.Sprintf("model %q (none set: the one Zero picks on the server)", m)
		}
	}
	line := fmt.Sprintf("provider %s (%s) %s %s", r.Name, kind, r.BaseURL, shown)
	if err != nil {
		c.line(false, "%s: %v", line, err)
		return
	}
	c.line(true, "%s: %s", line, count(len(ids), "model"))
	if r.Kind == config.KindOpenAICompatible && run.LocalServer(r.BaseURL) && model != "" {
		doctorWindow(c, discovery.Server{BaseURL: r.BaseURL}, model)
	}
	if model != "" {
		doctorTools(c, cfg, r, model)
	}
}

// doctorTools notes how tools will reach model: natively, or listed in
// the prompt and why (the config, an earlier refusal, Ollama's
// capabilities).
func doctorTools(c *checks, cfg *config.Config, r *config.Resolved, model string) {
	p, why, err := run.StartToolProtocol(cfg.ToolProtocol, r, model)
	if err != nil {
		c.note("! %v", err)
	}
	switch {
	case why != "":
		c.note("· tools: %s", why)
	case p == agent.ToolProtocolAuto:
		c.note("· tools: native tool calls (listed in the prompt instead if the server refuses them)")
	default:
		c.note("· tools: %s (\"toolProtocol\" in the config)", p)
	}
}

// declaredKind is the kind the config gives profile name ("" when it
// names none: the built-in profiles' kind is their name).
func declaredKind(cfg *config.Config, name string) config.Kind {
	for _, p := range cfg.Providers {
		if p.Name == name {
			if p.Kind == "" {
				return config.Kind(p.Name)
			}
			return p.Kind
		}
	}
	return ""
}

// doctorWindow notes the window srv runs model with, and the server's
// warning when that is less than the model supports (Ollama's default).
func doctorWindow(c *checks, srv discovery.Server, model string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	w, err := (&discovery.Prober{}).Window(ctx, srv, model)
	if err != nil {
		c.note("· window: the server does not say; Zero uses the catalog's or a default")
		return
	}
	source := w.Source
	if w.Assumed {
		source += ", assumed"
	}
	if w.Model > 0 {
		source += fmt.Sprintf("; the model supports %d", w.Model)
	}
	c.note("· window: %d tokens (%s)", w.Tokens, source)
	if w.Warning != "" {
		c.note("! %s", w.Warning)
	}
}

// keySource says where r's key came from, or that there is none.
func keySource(r *config.Resolved) string {
	if r.KeySource == "" {
		return "nowhere: no key set"
	}
	return r.KeySource
}

// count is "1 check", "2 checks".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}

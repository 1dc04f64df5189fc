package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxTurns is the backstop on model requests per run.
const DefaultMaxTurns = 200

// Built-in profiles: what environment variables alone select.
var builtins = []Provider{
	{Name: "openai", Kind: KindOpenAI, BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"},
	{Name: "anthropic", Kind: KindAnthropic, BaseURL: "https://api.anthropic.com", APIKeyEnv: "ANTHROPIC_API_KEY"},
	{Name: "gemini", Kind: KindGemini, BaseURL: "https://generativelanguage.googleapis.com", APIKeyEnv: "GEMINI_API_KEY"},
}

// Hosted are the built-in profiles of the hosted APIs (OpenAI, Anthropic,
// Gemini), each with the variable its key comes from: what the
// environment alone selects, and what `zero acp` offers as API-key auth
// methods.
func Hosted() []Provider { return slices.Clone(builtins) }

// DefaultModels is the model used for a kind when none is configured.
// openai-compatible has none: the server's own list decides.
var DefaultModels = map[Kind]string{
	KindOpenAI:    "gpt-4.1",
	KindAnthropic: "claude-sonnet-4-5",
	KindGemini:    "gemini-2.5-flash",
}

// Overrides are the command-line flags, the last and strongest layer.
type Overrides struct {
	// BaseURL points the active profile (or, with no profile named, a
	// "custom" openai-compatible profile) at this API root.
	BaseURL string
	// Model is "model" or "provider/model" (the prefix counts only when
	// it names a known profile, so "qwen/qwen3-coder" stays a model).
	Model string
	// APIKey is used for the active profile whatever its host.
	APIKey string
	// Provider names the profile to use.
	Provider string
}

// Options say where Load looks.
type Options struct {
	// UserFile is the user config path; "" means UserPath().
	UserFile string
	// Workspace is the directory whose .zero/config.json is the project
	// file; "" means the current directory.
	Workspace string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv    func(string) string
	Overrides Overrides
	// TrustedProject says the user trusted the workspace (`zero trust`).
	// Until then the project file cannot choose where prompts and code are
	// sent: its providers, activeProvider and model are ignored (with a
	// warning). Its other settings apply either way.
	TrustedProject bool
}

// Config is the resolved configuration.
type Config struct {
	// Providers are all profiles after merging, built-ins included.
	Providers      []Provider `json:"providers"`
	ActiveProvider string     `json:"activeProvider,omitempty"`
	// Model is the active profile's model; with no active profile, the
	// model asked for (flag, ZERO_MODEL or files), to pick on a
	// discovered server.
	Model       string `json:"model,omitempty"`
	MaxTurns    int    `json:"maxTurns"`
	AutoApprove bool   `json:"autoApprove"`
	// PermissionMode is "" (normal) or a mode permission.ParseMode accepts.
	PermissionMode string `json:"permissionMode,omitempty"`
	// ToolProtocol is "", "auto", "native" or "prompted" (file.go).
	ToolProtocol string `json:"toolProtocol,omitempty"`
	// EditTool is "", "auto", "edit_file", "apply_patch" or "both" (file.go).
	EditTool string `json:"editTool,omitempty"`
	// ContextWindow in tokens; 0 means ask the catalog or the server.
	ContextWindow int `json:"contextWindow,omitempty"`
	// MaxToolOutput and MaxTurnOutput in bytes; 0 means the defaults of
	// internal/contextmgr.
	MaxToolOutput int `json:"maxToolOutput,omitempty"`
	MaxTurnOutput int `json:"maxTurnOutput,omitempty"`
	// MaxOutputTokens caps one model reply, in tokens; 0 means the
	// agent's default (agent.DefaultMaxOutputTokens).
	MaxOutputTokens int `json:"maxOutputTokens,omitempty"`
	// SandboxNetwork is config.NetworkOff (or ""), NetworkAsk or NetworkOn; NoSandbox
	// turns the OS sandbox off. Both come from the user file (or the
	// command line); a project file cannot widen them.
	SandboxNetwork string `json:"sandboxNetwork,omitempty"`
	NoSandbox      bool   `json:"noSandbox,omitempty"`
	// ACPTerminal is acp.terminal of the user file: `zero acp` runs bash
	// commands in the editor's terminal (outside the sandbox) when the
	// editor offers one. A project file cannot set it.
	ACPTerminal bool `json:"acpTerminal,omitempty"`
	// PermissionTimeout is permissionTimeout of the user file (nil: not
	// set; --permission-timeout beats it). A project file cannot set it.
	PermissionTimeout *time.Duration `json:"permissionTimeout,omitempty"`
	// Checkpoints is checkpoints of the user file (nil: the defaults). A
	// project file cannot set it.
	Checkpoints *Checkpoints `json:"checkpoints,omitempty"`
	// Hooks come from the user file.
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// AgentModels map sub-agent model names to models (file.go); a
	// later file's entry wins a name.
	AgentModels map[string]string `json:"agentModels,omitempty"`
	// MaxParallelAgents caps the sub-agents run at once (0: the default).
	MaxParallelAgents int `json:"maxParallelAgents,omitempty"`
	// ProjectHooks come from the project file: untrusted code that arrived
	// with the repository; internal/hooks must not run them without the
	// user's consent.
	ProjectHooks json.RawMessage `json:"projectHooks,omitempty"`
	// Active is the profile to use; nil when nothing is configured (then
	// run discovery).
	Active *Resolved `json:"active,omitempty"`
	// Files lists the config files read, in order.
	Files []string `json:"files,omitempty"`
	// Warnings say what was ignored and why (security drops included).
	Warnings []string `json:"warnings,omitempty"`

	profiles map[string]*profile
	getenv   func(string) string
	// trustedProject is Options.TrustedProject.
	trustedProject bool
	// userPath is the user file Load read (or would have).
	userPath string
}

// Resolved is one provider profile ready to use: where to send requests,
// which model, and the key.
type Resolved struct {
	Name    string `json:"name"`
	Kind    Kind   `json:"kind"`
	BaseURL string `json:"baseURL"`
	Model   string `json:"model,omitempty"`
	APIKey  string `json:"apiKey,omitempty"`
	// KeySource says where the key came from: "flag", "env NAME", "user
	// config", "project config"; "" when there is no key.
	KeySource     string            `json:"keySource,omitempty"`
	Headers       map[string]string `json:"headers,omitempty"`
	TextToolCalls bool              `json:"textToolCalls"`
	// BaseURLGiven names the flag or variable the base URL came from
	// ("--base-url", "ZERO_BASE_URL", "OPENAI_BASE_URL"…); "" when a file,
	// the built-in default or discovery gave it. An error about the
	// server need not tell the user to pass what they passed.
	BaseURLGiven string `json:"-"`
}

// origin is the layer a profile's base URL came from.
type origin int

const (
	fromBuiltin origin = iota
	fromUser
	fromProject
	fromEnv
	fromFlag
)

type profile struct {
	Provider
	urlFrom origin
	urlVar  string // the flag or variable of a urlFrom fromFlag or fromEnv: Resolved.BaseURLGiven
	// project is true for a profile the project file defined (not just
	// adjusted): it never receives a user's key.
	project bool
	keyFrom string // layer of a literal APIKey
}

// Load resolves the configuration from every layer. Errors are for
// unreadable or invalid files and values; everything that is ignored for
// safety is a warning.
func Load(opts Options) (*Config, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c := &Config{MaxTurns: DefaultMaxTurns, profiles: map[string]*profile{}, getenv: getenv, trustedProject: opts.TrustedProject}
	for _, b := range builtins {
		c.profiles[b.Name] = &profile{Provider: b, urlFrom: fromBuiltin}
	}

	userPath := opts.UserFile
	if userPath == "" {
		var err error
		if userPath, err = userPathFrom(getenv); err != nil {
			return nil, err
		}
	}
	c.userPath = userPath
	user, err := c.read(userPath)
	if err != nil {
		return nil, err
	}
	ws := opts.Workspace
	if ws == "" {
		if ws, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	project, err := c.read(ProjectPath(ws))
	if err != nil {
		return nil, err
	}

	if user != nil {
		c.applyUser(user)
	}
	if project != nil {
		c.applyProject(project, ProjectPath(ws))
	}
	if err := c.applyEnv(getenv); err != nil {
		return nil, err
	}
	if err := c.selectActive(opts.Overrides, getenv); err != nil {
		return nil, err
	}
	c.Providers = c.providerList()
	return c, nil
}

func userPathFrom(getenv func(string) string) (string, error) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "zero", "config.json"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "zero", "config.json"), nil
	}
	return UserPath()
}

func (c *Config) read(path string) (*File, error) {
	f, warns, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	if f != nil {
		c.Files = append(c.Files, path)
	}
	c.Warnings = append(c.Warnings, warns...)
	return f, nil
}

// applyUser merges the user file: trusted.
func (c *Config) applyUser(f *File) {
	for _, p := range f.Providers {
		pr := c.profiles[p.Name]
		if pr == nil {
			pr = &profile{Provider: Provider{Name: p.Name}}
			c.profiles[p.Name] = pr
		}
		merge(&pr.Provider, p)
		if p.BaseURL != "" {
			pr.urlFrom, pr.urlVar = fromUser, ""
		}
		if p.APIKey != "" {
			pr.keyFrom = "user config"
		}
	}
	c.applyCommon(f)
	if f.ActiveProvider != "" {
		c.ActiveProvider = f.ActiveProvider
	}
	if f.AutoApprove != nil {
		c.AutoApprove = *f.AutoApprove
	}
	if f.ToolProtocol != "" {
		c.ToolProtocol = f.ToolProtocol
	}
	if f.EditTool != "" {
		c.EditTool = f.EditTool
	}
	if f.PermissionMode != "" {
		c.PermissionMode = f.PermissionMode
	}
	if sb := f.Sandbox; sb != nil {
		if sb.Network != "" {
			c.SandboxNetwork = sb.Network
		}
		if sb.Enabled != nil {
			c.NoSandbox = !*sb.Enabled
		}
	}
	if f.ACP != nil && f.ACP.Terminal != nil {
		c.ACPTerminal = *f.ACP.Terminal
	}
	if f.PermissionTimeout != "" {
		d, _ := time.ParseDuration(f.PermissionTimeout) // validate checked it
		c.PermissionTimeout = &d
	}
	if f.Checkpoints != nil {
		c.Checkpoints = f.Checkpoints
	}
	c.Hooks = f.Hooks
}

// networkRank orders the sandbox.network values from narrowest: off
// (unset), ask, on.
func networkRank(v string) int {
	switch v {
	case NetworkAsk:
		return 1
	case NetworkOn:
		return 2
	}
	return 0
}

// applyProject merges the project file: untrusted. It may add profiles
// and choose among them, but never redirect a user's key to another host,
// read a secret from the user's environment, or widen permissions.
func (c *Config) applyProject(f *File, path string) {
	warn := func(format string, args ...any) {
		c.Warnings = append(c.Warnings, path+": "+fmt.Sprintf(format, args...))
	}
	if !c.trustedProject && (len(f.Providers) > 0 || f.ActiveProvider != "" || f.Model != "") {
		warn("providers, activeProvider and model ignored: an untrusted project cannot choose where your prompts and code are sent (run `zero trust` in this folder to allow it)")
		g := *f
		g.Providers, g.ActiveProvider, g.Model = nil, "", ""
		f = &g
	}
	for _, p := range f.Providers {
		pr := c.profiles[p.Name]
		if pr == nil {
			if p.APIKeyEnv != "" {
				warn("provider %q: apiKeyEnv %s ignored: a project config cannot read your keys (define the provider in %s instead)", p.Name, p.APIKeyEnv, "~/.config/zero/config.json")
				p.APIKeyEnv = ""
			}
			pr = &profile{Provider: Provider{Name: p.Name}, project: true, urlFrom: fromProject}
			merge(&pr.Provider, p)
			if p.APIKey != "" {
				pr.keyFrom = "project config"
			}
			c.profiles[p.Name] = pr
			continue
		}
		if p.BaseURL != "" && !pr.project {
			oldHost, _ := hostOf(pr.BaseURL)
			newHost, _ := hostOf(p.BaseURL)
			if oldHost != newHost {
				warn("provider %q rejected: it would send your key for %s to %s", p.Name, pr.BaseURL, p.BaseURL)
				continue
			}
		}
		if p.APIKeyEnv != "" && p.APIKeyEnv != pr.APIKeyEnv {
			warn("provider %q: apiKeyEnv %s ignored: a project config cannot choose which of your secrets is sent", p.Name, p.APIKeyEnv)
			p.APIKeyEnv = ""
		}
		if p.Kind != "" && p.Kind != pr.Kind && pr.Kind != "" {
			warn("provider %q: kind %s ignored: a project config cannot change the protocol of your profile", p.Name, p.Kind)
			p.Kind = ""
		}
		merge(&pr.Provider, p)
		if p.BaseURL != "" && pr.project {
			pr.urlFrom, pr.urlVar = fromProject, ""
		}
		if p.APIKey != "" {
			pr.keyFrom = "project config"
		}
	}
	c.applyCommon(f)
	if f.ActiveProvider != "" {
		c.ActiveProvider = f.ActiveProvider
	}
	if f.AutoApprove != nil {
		warn("autoApprove ignored: a project config cannot widen permissions")
	}
	if f.PermissionMode != "" {
		warn("permissionMode ignored: a project config cannot widen permissions")
	}
	if f.Checkpoints != nil {
		warn("checkpoints ignored: a project config cannot change how much of your undo history Zero keeps (set it in ~/.config/zero/config.json)")
	}
	if f.PermissionTimeout != "" {
		warn("permissionTimeout ignored: a project config cannot change how long Zero waits for your approval (set it in ~/.config/zero/config.json, or pass --permission-timeout)")
	}
	if sb := f.Sandbox; sb != nil {
		switch {
		case sb.Network == "":
		case networkRank(sb.Network) > networkRank(c.SandboxNetwork):
			warn("sandbox.network %q ignored: a project config cannot give shell commands more network than your config does (set it in ~/.config/zero/config.json)", sb.Network)
		default:
			c.SandboxNetwork = sb.Network
		}
		if sb.Enabled != nil && !*sb.Enabled {
			warn("sandbox.enabled false ignored: a project config cannot turn the sandbox off (zero --no-sandbox does, for one run)")
		}
		if sb.Enabled != nil && *sb.Enabled {
			c.NoSandbox = false
		}
	}
	if f.ACP != nil && f.ACP.Terminal != nil {
		if *f.ACP.Terminal {
			warn("acp.terminal true ignored: a project config cannot run commands outside the sandbox (set it in ~/.config/zero/config.json)")
		} else {
			c.ACPTerminal = false
		}
	}
	c.ProjectHooks = f.Hooks
}

// applyCommon merges the fields both files may set.
func (c *Config) applyCommon(f *File) {
	if f.Model != "" {
		c.Model = f.Model
	}
	setInt(&c.MaxTurns, f.MaxTurns)
	setInt(&c.ContextWindow, f.ContextWindow)
	setInt(&c.MaxToolOutput, f.MaxToolOutput)
	setInt(&c.MaxTurnOutput, f.MaxTurnOutput)
	setInt(&c.MaxOutputTokens, f.MaxOutputTokens)
	setInt(&c.MaxParallelAgents, f.MaxParallelAgents)
	for k, v := range f.AgentModels {
		if c.AgentModels == nil {
			c.AgentModels = map[string]string{}
		}
		c.AgentModels[k] = v
	}
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

// merge copies the fields p sets onto dst.
func merge(dst *Provider, p Provider) {
	if p.Kind != "" {
		dst.Kind = p.Kind
	}
	if p.BaseURL != "" {
		dst.BaseURL = p.BaseURL
	}
	if p.APIKeyEnv != "" {
		dst.APIKeyEnv = p.APIKeyEnv
	}
	if p.APIKey != "" {
		dst.APIKey = p.APIKey
	}
	if p.Model != "" {
		dst.Model = p.Model
	}
	if len(p.Headers) > 0 {
		h := map[string]string{}
		for k, v := range dst.Headers {
			h[k] = v
		}
		for k, v := range p.Headers {
			h[k] = v
		}
		dst.Headers = h
	}
	if p.TextToolCalls != nil {
		v := *p.TextToolCalls
		dst.TextToolCalls = &v
	}
}

// applyEnv applies the environment layer (except the selection variables,
// which selectActive reads).
func (c *Config) applyEnv(getenv func(string) string) error {
	for _, kv := range []struct{ name, env string }{
		{"openai", "OPENAI_BASE_URL"}, {"anthropic", "ANTHROPIC_BASE_URL"}, {"gemini", "GEMINI_BASE_URL"},
	} {
		if v := getenv(kv.env); v != "" {
			if _, err := hostOf(v); err != nil {
				return fmt.Errorf("config: %s: %w", kv.env, err)
			}
			pr := c.profiles[kv.name]
			pr.BaseURL, pr.urlFrom, pr.urlVar, pr.project = v, fromEnv, kv.env, false
		}
	}
	for _, kv := range []struct {
		env string
		dst *int
	}{{"ZERO_CONTEXT_WINDOW", &c.ContextWindow}, {"ZERO_MAX_TURNS", &c.MaxTurns}, {"ZERO_MAX_OUTPUT_TOKENS", &c.MaxOutputTokens}} {
		if v := getenv(kv.env); v != "" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 {
				return fmt.Errorf("config: %s=%q is not a positive integer", kv.env, v)
			}
			*kv.dst = n
		}
	}
	if v := getenv("ZERO_AUTO_APPROVE"); v != "" {
		b, ok := parseBool(v)
		if !ok {
			return fmt.Errorf("config: ZERO_AUTO_APPROVE=%q is not a boolean (1, true, yes, 0, false, no)", v)
		}
		c.AutoApprove = b
	}
	return nil
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "yes", "y", "on":
		return true, true
	case "0", "f", "false", "no", "n", "off":
		return false, true
	}
	return false, false
}

// providerList returns the merged profiles sorted by name, keys included.
func (c *Config) providerList() []Provider {
	out := make([]Provider, 0, len(c.profiles))
	for _, p := range c.profiles {
		out = append(out, p.Provider)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

package config

import (
	"fmt"
	"sort"
	"strings"
)

// selectActive chooses the active profile. Order: --provider, then
// ZERO_PROVIDER, then a "provider/model" prefix on --model or ZERO_MODEL
// (or the files' model), then --base-url / ZERO_BASE_URL alone (a "custom"
// openai-compatible profile), then the files' activeProvider, then the only
// profile the user file defines, then whichever of OPENAI_API_KEY,
// ANTHROPIC_API_KEY, GEMINI_API_KEY is set (in that order), then
// OPENAI_BASE_URL alone. Nothing left means Active stays nil.
func (c *Config) selectActive(o Overrides, getenv func(string) string) error {
	name := first(o.Provider, getenv("ZERO_PROVIDER"))
	model := first(o.Model, getenv("ZERO_MODEL"), c.Model)
	if p, m, ok := c.SplitModel(model); ok && (name == "" || name == p) {
		name, model = p, m
	}
	baseURL, urlFrom, urlVar := o.BaseURL, fromFlag, "--base-url"
	if baseURL == "" {
		baseURL, urlFrom, urlVar = getenv("ZERO_BASE_URL"), fromEnv, "ZERO_BASE_URL"
	}
	key, keySource := o.APIKey, "flag"
	if key == "" {
		key, keySource = getenv("ZERO_API_KEY"), "env ZERO_API_KEY"
	}
	if baseURL != "" {
		if _, err := hostOf(baseURL); err != nil {
			return fmt.Errorf("config: base URL: %w", err)
		}
	}

	if name == "" && baseURL != "" {
		name = "custom"
		if c.profiles[name] == nil || c.profiles[name].project {
			c.profiles[name] = &profile{Provider: Provider{Name: name, Kind: KindOpenAICompatible}}
		}
	}
	if name == "" {
		name = c.ActiveProvider
	}
	if name == "" {
		name = c.onlyUserProfile()
	}
	if name == "" {
		for _, b := range builtins {
			if getenv(b.APIKeyEnv) != "" {
				name = b.Name
				break
			}
		}
	}
	if name == "" && getenv("OPENAI_BASE_URL") != "" {
		name = "openai"
	}
	if name == "" {
		c.Model = model
		return nil
	}
	pr := c.profiles[name]
	if pr == nil {
		return fmt.Errorf("config: provider %q is not configured (known: %s); add it with `zero providers add`", name, strings.Join(c.names(), ", "))
	}
	if baseURL != "" {
		pr.BaseURL, pr.urlFrom, pr.urlVar, pr.project = baseURL, urlFrom, urlVar, false
	}
	c.ActiveProvider = name
	r, err := c.resolve(pr, model)
	if err != nil {
		return err
	}
	if key != "" {
		if keySource != "flag" && pr.project {
			c.Warnings = append(c.Warnings, fmt.Sprintf("ZERO_API_KEY not sent to %s: the project config named that host", pr.BaseURL))
		} else {
			r.APIKey, r.KeySource = key, keySource
		}
	}
	c.Active = r
	c.Model = r.Model
	return nil
}

// SplitModel reads a "provider/model" name as --model, ZERO_MODEL and the
// app's /model take it: the part before the first "/" counts as a
// provider only when it names a configured profile, so "qwen/qwen3-coder"
// stays a model id. ok is false for a plain model.
func (c *Config) SplitModel(s string) (provider, model string, ok bool) {
	p, m, cut := strings.Cut(s, "/")
	if !cut || c.profiles[p] == nil {
		return "", s, false
	}
	return p, m, true
}

// Resolve returns the named profile ready to use with model (or the
// profile's own model, or the kind's default), applying the same key rules
// as the active profile; for `/model` and `zero providers use`.
func (c *Config) Resolve(name, model string) (*Resolved, error) {
	pr := c.profiles[name]
	if pr == nil {
		return nil, fmt.Errorf("config: provider %q is not configured (known: %s)", name, strings.Join(c.names(), ", "))
	}
	return c.resolve(pr, model)
}

func (c *Config) resolve(pr *profile, model string) (*Resolved, error) {
	kind := pr.Kind
	if kind == "" {
		kind = KindOpenAICompatible
		if Kind(pr.Name).valid() {
			kind = Kind(pr.Name)
		}
	}
	if pr.BaseURL == "" {
		return nil, fmt.Errorf("config: provider %q has no baseURL", pr.Name)
	}
	// The openai profile pointed elsewhere (OPENAI_BASE_URL at OpenRouter
	// or a local server) speaks the compatible dialect.
	if kind == KindOpenAI {
		if h, _ := hostOf(pr.BaseURL); h != "https://api.openai.com:443" {
			kind = KindOpenAICompatible
		}
	}
	r := &Resolved{
		Name:          pr.Name,
		Kind:          kind,
		BaseURL:       strings.TrimRight(pr.BaseURL, "/"),
		Model:         first(model, pr.Model, DefaultModels[kind]),
		Headers:       pr.Headers,
		TextToolCalls: pr.TextToolCalls == nil || *pr.TextToolCalls,
		BaseURLGiven:  pr.urlVar,
	}
	switch {
	case pr.APIKey != "":
		r.APIKey, r.KeySource = pr.APIKey, pr.keyFrom
	case pr.project:
		// A profile the project defined gets no key of the user's.
	case pr.APIKeyEnv != "":
		r.APIKey, r.KeySource = c.getenv(pr.APIKeyEnv), "env "+pr.APIKeyEnv
	default:
		if env := KeyEnv(kind); env != "" {
			r.APIKey, r.KeySource = c.getenv(env), "env "+env
		}
	}
	if r.APIKey == "" {
		r.KeySource = ""
	}
	return r, nil
}

// KeyEnv is the conventional key variable of a kind ("" for an
// OpenAI-compatible server): the built-in profile's, used for user
// profiles that name no apiKeyEnv and in what a missing key asks to set.
func KeyEnv(k Kind) string {
	for _, b := range builtins {
		if b.Kind == k {
			return b.APIKeyEnv
		}
	}
	return ""
}

// onlyUserProfile returns the name of the single non-built-in profile the
// user file defines, or "".
func (c *Config) onlyUserProfile() string {
	found := ""
	for name, p := range c.profiles {
		if p.project || isBuiltin(name) {
			continue
		}
		if found != "" {
			return ""
		}
		found = name
	}
	return found
}

func isBuiltin(name string) bool {
	for _, b := range builtins {
		if b.Name == name {
			return true
		}
	}
	return false
}

func (c *Config) names() []string {
	var out []string
	for n := range c.profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// AddProfile adds profile p (or replaces the one of its name) for this
// process, as the user file that now holds it would after the next Load
// (/connect's new profile, which the session then switches to).
func (c *Config) AddProfile(p Provider) {
	c.profiles[p.Name] = &profile{Provider: p, urlFrom: fromUser}
	c.Providers = c.providerList()
}

// ReloadProfiles reads the user file again and adds the profiles it now
// defines that this process does not know (written by another zero, or
// by hand, since the start), so /provider lists and switches to every
// profile of the user's config. Profiles already known are left as they
// are: flags and the environment changed them at the start, and the
// session may be using one.
func (c *Config) ReloadProfiles() error {
	if c.userPath == "" {
		return nil
	}
	f, _, err := ReadFile(c.userPath)
	if err != nil || f == nil {
		return err
	}
	for _, p := range f.Providers {
		if c.profiles[p.Name] != nil {
			continue
		}
		pr := &profile{Provider: Provider{Name: p.Name}, urlFrom: fromUser}
		merge(&pr.Provider, p)
		if p.APIKey != "" {
			pr.keyFrom = "user config"
		}
		c.profiles[p.Name] = pr
	}
	c.Providers = c.providerList()
	return nil
}

// UseLocal makes a discovered local server the active profile: kind
// openai-compatible, no key, named name (e.g. "ollama"), with the model
// asked for when the server lists it, else the server's first model.
func (c *Config) UseLocal(name, baseURL string, models []string) *Resolved {
	model := ""
	for _, m := range models {
		if m == c.Model {
			model = m
		}
	}
	if model == "" && len(models) > 0 {
		if c.Model != "" {
			c.Warnings = append(c.Warnings, fmt.Sprintf("model %q is not served by %s; using %s", c.Model, baseURL, models[0]))
		}
		model = models[0]
	}
	r := &Resolved{Name: name, Kind: KindOpenAICompatible, BaseURL: strings.TrimRight(baseURL, "/"), Model: model, TextToolCalls: true}
	c.profiles[name] = &profile{Provider: Provider{Name: name, Kind: KindOpenAICompatible, BaseURL: r.BaseURL, Model: model}, urlFrom: fromEnv}
	c.Providers = c.providerList()
	c.ActiveProvider, c.Model, c.Active = name, model, r
	return r
}

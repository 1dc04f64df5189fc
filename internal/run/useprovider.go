package run

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/config"
)

// SplitModel reads a model name as `zero -m` does (config.SplitModel):
// "provider/model" when the prefix names a configured profile or the
// provider in use, else a model id of the provider in use (provider "").
func (rt *Runtime) SplitModel(spec string) (provider, model string) {
	if p, m, ok := rt.Config.SplitModel(spec); ok {
		return p, m
	}
	active := rt.ActiveProfile()
	if m, ok := strings.CutPrefix(spec, active.Name+"/"); ok && active.Name != "" {
		return active.Name, m
	}
	return "", spec
}

// ActiveProfile is a copy of the provider profile in use, safe to call
// while a prompt runs or the provider switches.
func (rt *Runtime) ActiveProfile() config.Resolved {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return *rt.Active
}

// SwitchModel switches later requests to spec, read as `zero -m` reads it
// (SplitModel): a model of the provider in use (SetModel), or
// "provider/model" of another profile (UseProvider). It returns the
// provider and model now in use.
func (s *Session) SwitchModel(ctx context.Context, spec string) (provider, model string, err error) {
	spec = strings.TrimSpace(spec)
	if err := s.rt.reloadProfiles(); err != nil {
		return "", "", err
	}
	prov, model := s.rt.SplitModel(spec)
	if model == "" {
		return "", "", fmt.Errorf("no model in %q: give provider/model or a model id", spec)
	}
	if prov != "" && prov != s.rt.ActiveProfile().Name {
		r, err := s.UseProvider(ctx, prov, model)
		if err != nil {
			return "", "", err
		}
		return r.Name, r.Model, nil
	}
	s.SetModel(model)
	return s.rt.ActiveProfile().Name, model, nil
}

// UseProvider switches the session (and the runtime, so sessions opened
// later follow) to the configured profile name with model ("": the
// profile's own, else its kind's default, else what its server would pick
// as at start). The conversation goes on: later requests carry the same
// history to the new provider, with its window, output cap, prices, edit
// tool and tool protocol. A profile that cannot be used (unknown, no key, no
// model) is an error and nothing changes. Not during a prompt.
func (s *Session) UseProvider(ctx context.Context, name, model string) (config.Resolved, error) {
	rt := s.rt
	if err := rt.reloadProfiles(); err != nil {
		return config.Resolved{}, err
	}
	r, err := rt.resolve(name, model)
	if err != nil {
		return config.Resolved{}, err
	}
	if env := rt.missingKey(r); env != "" {
		return config.Resolved{}, configErrorf("provider %s has no API key: set %s in the environment zero starts in (or apiKey in its profile), then /provider %s", r.Name, env, r.Name)
	}
	if r.Model == "" && r.Kind == config.KindOpenAICompatible {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		r.Model, err = DefaultModel(lctx, r)
		cancel()
		if err != nil {
			return config.Resolved{}, fmt.Errorf("provider %s: no model configured and none listed: %w (give one: /model %s/MODEL)", name, err, name)
		}
	}
	prov, err := NewProvider(r)
	if err != nil {
		return config.Resolved{}, err
	}
	window, assumed, counts, slots := resolveWindow(io.Discard, rt.Config, r, nil)
	rt.mu.Lock()
	rt.Active, rt.Provider, rt.Window = r, prov, window
	rt.windowAssumed, rt.counts, rt.slots = assumed, counts, slots
	rt.Config.ActiveProvider, rt.Config.Model = r.Name, r.Model
	rt.mu.Unlock()
	proto, _ := rt.sessionToolProtocol(r.Model)
	s.agent.SetProvider(prov, !r.TextToolCalls, proto)
	s.agent.SetModel(r.Model)
	s.agent.SetContextWindow(window)
	s.agent.SetMaxOutputTokens(outputCap(string(r.Kind), r.Model, rt.Config.MaxOutputTokens))
	s.edits = chooseEditTools(rt.Config.EditTool, string(r.Kind), r.Model)
	s.fitWindow(window)
	s.pricing.setProvider(string(r.Kind), r.Model)
	return *r, nil
}

// ProvidersReport is /provider: the configured profiles, the one in use
// marked ●, each with its kind, endpoint, model and whether it has the
// key it needs.
func (rt *Runtime) ProvidersReport() string {
	reloadErr := rt.reloadProfiles()
	active := rt.ActiveProfile()
	model, _ := rt.ModelWindow()
	var rows [][]string
	listed := false
	for _, p := range rt.Profiles() {
		mark, m := "  ", p.Model
		if p.Name == active.Name {
			mark, m, listed = "● ", model, true
		}
		kind, note := string(p.Kind), ""
		if r, err := rt.resolve(p.Name, m); err != nil {
			note = err.Error()
		} else {
			kind, m = string(r.Kind), r.Model
			if env := rt.missingKey(r); env != "" {
				note = "no key: set " + env
			}
		}
		rows = append(rows, []string{mark + p.Name, kind, HostOf(p.BaseURL), m, note})
	}
	if !listed { // found at start (discovery), not a profile
		rows = append([][]string{{"● " + active.Name, string(active.Kind), HostOf(active.BaseURL), model, "found at start"}}, rows...)
	}
	var b strings.Builder
	widths := make([]int, 4)
	for _, r := range rows {
		for i := range widths {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%-*s  %-*s  %-*s  %-*s  %s", widths[0], r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3], r[4])
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if reloadErr != nil {
		fmt.Fprintf(&b, "%v: profiles added since the start are not listed\n", reloadErr)
	}
	b.WriteString("switch with /provider NAME or /model NAME/MODEL (this session; `zero providers use NAME` keeps it)")
	return b.String()
}

// reloadProfiles adds the profiles the user file gained since the start
// (config.ReloadProfiles).
func (rt *Runtime) reloadProfiles() error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if err := rt.Config.ReloadProfiles(); err != nil {
		return fmt.Errorf("re-reading the config: %w", err)
	}
	return nil
}

// Profiles is a copy of the configured provider profiles, safe to call
// while another goroutine re-reads them (reloadProfiles).
func (rt *Runtime) Profiles() []config.Provider {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return slices.Clone(rt.Config.Providers)
}

// resolve is Config.Resolve under the lock reloadProfiles takes.
func (rt *Runtime) resolve(name, model string) (*config.Resolved, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.Config.Resolve(name, model)
}

// missingKey names the variable profile r's key would come from when r
// has none but needs one (a vendor API, or a profile naming apiKeyEnv),
// else "".
func (rt *Runtime) missingKey(r *config.Resolved) string {
	if r.APIKey != "" {
		return ""
	}
	for _, p := range rt.Profiles() {
		if p.Name == r.Name && p.APIKeyEnv != "" {
			return p.APIKeyEnv
		}
	}
	return config.KeyEnv(r.Kind)
}

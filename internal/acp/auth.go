package acp

import (
	"context"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/run"
)

// Auth methods (https://agentclientprotocol.com/protocol/initialization):
// Zero's own configuration (a local server needs no key), and one per
// hosted API (config.Hosted) whose key is in Zero's config or the
// environment zero acp starts in. All are of the "agent" type, the only
// one in the stable schema (schema/schema.json of acp-go-sdk v0.13.5;
// "env_var" is in schema.unstable.json only, and the stable zAuthMethod
// of the official TypeScript SDK 2.4.0 reads an "env_var" method as an
// "agent" one, dropping its variables), so every client shows them
// alike.
const (
	authLocal     = "zero-config"
	authKeySuffix = "-api-key"
)

func authMethods() []acpsdk.AuthMethod {
	desc := "Use the providers of Zero's config and environment (no key for local servers)"
	ms := []acpsdk.AuthMethod{{Agent: &acpsdk.AuthMethodAgent{Id: authLocal, Name: "Zero's configuration", Description: &desc}}}
	for _, p := range config.Hosted() {
		d := fmt.Sprintf("Use %s with the key in %s (set it in the environment the editor starts zero acp in) or in the %s profile of Zero's config",
			p.Kind.Vendor(), p.APIKeyEnv, p.Name)
		ms = append(ms, acpsdk.AuthMethod{Agent: &acpsdk.AuthMethodAgent{Id: p.Name + authKeySuffix, Name: p.Kind.Vendor() + " API key", Description: &d}})
	}
	return ms
}

// Authenticate with zero-config leaves the provider to Zero's config;
// with an API-key method it checks that provider's key is there (as the
// CLI resolves it: the config, then the environment) and has this
// connection's later sessions use that provider, as `--provider NAME`
// would. A missing key is auth_required, saying what to set.
func (a *agent) Authenticate(_ context.Context, p acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	if p.MethodId == authLocal {
		a.mu.Lock()
		a.provider = ""
		a.mu.Unlock()
		return acpsdk.AuthenticateResponse{}, nil
	}
	name, ok := strings.CutSuffix(p.MethodId, authKeySuffix)
	var hosted *config.Provider
	for _, h := range config.Hosted() {
		if ok && h.Name == name {
			hosted = &h
		}
	}
	if hosted == nil {
		var ids []string
		for _, m := range authMethods() {
			ids = append(ids, m.Agent.Id)
		}
		return acpsdk.AuthenticateResponse{}, acpsdk.NewInvalidParams(fmt.Sprintf("unknown auth method %q (zero offers %s)", p.MethodId, strings.Join(ids, ", ")))
	}
	if err := a.hasKey(*hosted); err != nil {
		return acpsdk.AuthenticateResponse{}, err
	}
	a.mu.Lock()
	a.provider = hosted.Name
	a.mu.Unlock()
	return acpsdk.AuthenticateResponse{}, nil
}

// Logout ends what an API-key method chose: this connection's later
// sessions use the config's provider again, as after zero-config (the
// key itself stays where the user put it; sessions already open keep
// theirs until they close).
func (a *agent) Logout(context.Context, acpsdk.LogoutRequest) (acpsdk.LogoutResponse, error) {
	a.mu.Lock()
	a.provider = ""
	a.mu.Unlock()
	return acpsdk.LogoutResponse{}, nil
}

// hasKey reports, as auth_required, a hosted provider without its key in
// the config of zero acp's folder or the environment.
func (a *agent) hasKey(h config.Provider) error {
	over := a.o.Run.Overrides
	over.Provider = h.Name
	cfg, _, err := run.LoadConfig(a.o.Run.Workdir, over)
	if err != nil {
		return acpsdk.NewInvalidParams(err.Error())
	}
	if cfg.Active != nil && cfg.Active.APIKey != "" {
		return nil
	}
	env := h.APIKeyEnv
	for _, p := range cfg.Providers {
		if p.Name == h.Name && p.APIKeyEnv != "" {
			env = p.APIKeyEnv // the user's profile names its own variable
		}
	}
	return acpsdk.NewAuthRequired(fmt.Sprintf("no %s API key: set %s in the environment the editor starts zero acp in (its agent_servers env), or apiKey in the %s profile of Zero's config",
		h.Kind.Vendor(), env, h.Name))
}

// withProvider is o with the provider an API-key method chose, if any.
func (a *agent) withProvider(o run.Options) run.Options {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.provider != "" {
		o.Overrides.Provider = a.provider
	}
	return o
}

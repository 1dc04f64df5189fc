package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/anthropic"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/gemini"
	"github.com/zero-agent/zero/internal/providers/openai"
)

// NewProvider makes the llm.Provider for a resolved profile. Stream
// timeouts come from the environment: ZERO_IDLE_TIMEOUT (seconds of
// silence allowed inside a stream) and ZERO_FIRST_BYTE_TIMEOUT (seconds to
// wait for a local server to start answering a long prompt; OpenAI-
// compatible servers only). Errors are ConfigErrors.
func NewProvider(r *config.Resolved) (llm.Provider, error) {
	if r.Model == "" {
		return nil, configErrorf("no model for provider %q: pass --model or set \"model\" in ~/.config/zero/config.json", r.Name)
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
		p, err := openai.New(openai.Options{Name: r.Name, BaseURL: r.BaseURL, BaseURLGiven: r.BaseURLGiven, APIKey: r.APIKey, Model: r.Model, Headers: r.Headers, IdleTimeout: idle, FirstByteTimeout: first})
		if err != nil {
			return nil, &ConfigError{err.Error()}
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
		return 0, configErrorf("%s must be a positive number of seconds, not %q", name, v)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// NeedKey fails fast, before any network, when a vendor API is chosen
// without its key: a *KeyError.
func NeedKey(r *config.Resolved) error {
	if r.APIKey != "" {
		return nil
	}
	env := config.KeyEnv(r.Kind)
	if env == "" {
		return nil
	}
	return &KeyError{ConfigError: &ConfigError{fmt.Sprintf("provider %s needs an API key: set %s (or apiKeyEnv in its profile), or pick a local server with --base-url", r.Name, env)}, Provider: r.Name, Env: env}
}

// ModelIDs lists the model ids provider r offers: the catalog for vendor
// APIs, the server's live GET /models list for OpenAI-compatible ones
// (a vendor profile without its key is a ConfigError, before any network).
func ModelIDs(ctx context.Context, r *config.Resolved) ([]string, error) {
	switch r.Kind {
	case config.KindAnthropic, config.KindGemini:
		var ids []string
		for _, m := range catalog.Models(string(r.Kind)) {
			ids = append(ids, m.ID)
		}
		return ids, nil
	}
	if err := NeedKey(r); err != nil {
		return nil, err
	}
	return openai.ListModels(ctx, r.BaseURL, r.APIKey)
}

// discover is used when nothing is configured: it probes the usual local
// server ports on 127.0.0.1 (short timeouts) and uses the first that
// answers GET /v1/models, with the chat model it has loaded, else its
// first chat model (discovery.PickModel). Nothing found is a ConfigError
// with how to start a server or set a key.
func discover(stderr io.Writer, model string) (*config.Resolved, *discovery.Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	srv, err := discovery.Find(ctx)
	if err != nil {
		return nil, nil, &UnconfiguredError{&ConfigError{fmt.Sprintf("no model configured and no local server found: %v", err)}}
	}
	if model == "" {
		model = (&discovery.Prober{}).PickModel(ctx, *srv)
	}
	kind := string(srv.Kind)
	if srv.Version != "" {
		kind += " " + srv.Version
	}
	fmt.Fprintf(stderr, "zero: using %s at %s, model %s\n", kind, srv.BaseURL, model)
	return &config.Resolved{Name: string(srv.Kind), Kind: config.KindOpenAICompatible, BaseURL: srv.BaseURL, Model: model, TextToolCalls: true}, srv, nil
}

// firstModel fills in the model of an OpenAI-compatible profile that
// names none from what its server serves (DefaultModel). A server that
// does not answer is a ConfigError naming its URL (there is then no model
// to suggest, and --model alone would not help); any other failure leaves
// the model empty, for NewProvider to ask for --model.
func firstModel(stderr io.Writer, r *config.Resolved) error {
	if r.Model != "" || r.Kind != config.KindOpenAICompatible {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	model, err := DefaultModel(ctx, r)
	cancel()
	var pe *llm.ProviderError
	if errors.As(err, &pe) && pe.Kind == llm.ErrConnect {
		hint := pe.Hint
		if u, perr := url.Parse(r.BaseURL); perr == nil && r.BaseURLGiven != "" && loopback(u.Hostname()) {
			hint = openai.StartHint(u, r.BaseURLGiven) // not "or pass --base-url"
		}
		return configErrorf("provider %q: nothing answered at %s (%s), so it named no model: %s", r.Name, r.BaseURL, pe.Message, hint)
	}
	if err == nil {
		r.Model = model
		fmt.Fprintf(stderr, "zero: using model %s from %s (pass --model to choose)\n", r.Model, r.BaseURL)
	}
	return nil
}

// loopback reports whether host is this machine, where the transport
// suggests starting a server (openai.StartHint).
func loopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
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
// (with a warning, never a silent large guess). A local server is asked
// even for a model the catalog knows: Ollama and LM Studio run models with
// a smaller window than the model's (discovery.Window), and that smaller
// window is the one compaction must keep under; its warning (how to raise
// the window) is printed once here. A configured window still wins, with a
// warning when it is more than the server runs the model with.
func contextWindow(stderr io.Writer, cfg *config.Config, r *config.Resolved, srv *discovery.Server) int {
	w, _, _, _ := resolveWindow(stderr, cfg, r, srv)
	return w
}

// resolveWindow is contextWindow, whether the window is the server's
// default assumed for a model it has not loaded yet (windowrefresh.go),
// and whether the server is llama.cpp, which counts prompts exactly
// (tokencount.go), and how many requests it runs at once (0: unknown).
func resolveWindow(stderr io.Writer, cfg *config.Config, r *config.Resolved, srv *discovery.Server) (int, bool, bool, int) {
	m, warn := catalog.Resolve(string(r.Kind), r.Model)
	assumed, llamaCpp, slots := false, false, 0
	discovered := 0
	if r.Kind == config.KindOpenAICompatible && (srv != nil || localHost(r.BaseURL)) {
		if srv == nil {
			srv = &discovery.Server{BaseURL: r.BaseURL}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		w, err := (&discovery.Prober{}).Window(ctx, *srv, r.Model)
		cancel()
		llamaCpp = err == nil && w.Kind == discovery.LlamaCpp
		slots = w.Slots
		switch {
		case err != nil:
		case cfg.ContextWindow > w.Tokens:
			source := w.Source
			if w.Assumed {
				source += ", assumed"
			}
			fmt.Fprintf(stderr, "zero: warning: contextWindow %d in the config is more than the %d tokens the server runs %s with (%s); "+
				"what does not fit is cut by the server: lower contextWindow or raise the server's window\n",
				cfg.ContextWindow, w.Tokens, r.Model, source)
		case cfg.ContextWindow == 0:
			discovered, assumed = w.Tokens, w.Assumed
			if w.Warning != "" {
				fmt.Fprintln(stderr, "zero: warning:", w.Warning)
			}
		}
	}
	w, source := catalog.Window(m, discovered, cfg.ContextWindow)
	if source == "default" && warn != "" {
		fmt.Fprintln(stderr, "zero: warning:", warn)
	}
	return w, assumed, llamaCpp, slots
}

// HostOf returns the host:port of a base URL for display.
func HostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Host
}

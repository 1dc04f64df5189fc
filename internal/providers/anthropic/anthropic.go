package anthropic

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// DefaultMaxTokens is the output cap (tokens) sent when neither the request
// nor Options set one; the Messages API requires max_tokens.
const DefaultMaxTokens = 8192

// DefaultIdleTimeout is how long a response body may stay silent before the
// stream fails with llm.ErrStreamStall. Anthropic sends `ping` events during
// long thinking, so a minute of silence means the connection is dead.
const DefaultIdleTimeout = 90 * time.Second

// Options configures one Anthropic provider profile.
type Options struct {
	// Name is the profile name returned by Name(); "anthropic" when empty.
	Name string
	// BaseURL is the API root, e.g. "https://api.anthropic.com" (a trailing
	// "/v1" is accepted); empty means the SDK's production default.
	// Environment variables are never consulted.
	BaseURL string
	// APIKey is sent as the SDK's credential; empty sends no credential (the
	// server then answers 401, reported as llm.ErrAuth).
	APIKey string
	// Model is used when a Request leaves Model empty.
	Model string
	// Headers are extra HTTP headers sent with every request (e.g.
	// "anthropic-beta").
	Headers map[string]string
	// HTTPClient replaces the default client; nil uses http.DefaultClient.
	// The SDK reaches it only through the transport.
	HTTPClient *http.Client
	// MaxTokens is the output cap (tokens) when a Request sets none;
	// 0 means DefaultMaxTokens.
	MaxTokens int
	// IdleTimeout bounds the wait for the first response byte and every
	// silence after it; 0 means DefaultIdleTimeout, negative disables the
	// check.
	IdleTimeout time.Duration
	// AdaptiveThinking sends thinking {"type":"adaptive"} plus
	// output_config.effort for Request.ReasoningEffort, instead of a
	// budget_tokens thinking config. Models that deprecate budgets
	// (claude-opus-4-6 and later) use adaptive thinking regardless.
	AdaptiveThinking bool
}

// Provider streams completions from the Anthropic Messages API. It is safe
// for concurrent use; each Stream call is independent.
type Provider struct {
	opts   Options
	client sdk.Client
	// warned holds schema warnings already reported, so each is shown once.
	warned sync.Map
}

// New returns a Provider for opts. It performs no I/O.
func New(opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "anthropic"
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	// The SDK sends through the transport (option.HTTPClient is any
	// Do(*http.Request)): the connect retry, the watchdogs and the error
	// classification are the transport's, and the SDK's own retries are
	// off.
	tc := &transport.Client{Provider: opts.Name, HTTP: opts.HTTPClient, IdleTimeout: opts.IdleTimeout}
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithMaxRetries(0),
		option.WithHTTPClient(tc),
	}
	if opts.BaseURL != "" {
		// The SDK appends "v1/messages"; a base URL that already ends in
		// /v1 is accepted rather than doubled.
		base := strings.TrimSuffix(strings.TrimRight(opts.BaseURL, "/"), "/v1")
		ro = append(ro, option.WithBaseURL(base+"/"))
	}
	if opts.APIKey != "" {
		ro = append(ro, option.WithAPIKey(opts.APIKey))
	}
	for k, v := range opts.Headers {
		ro = append(ro, option.WithHeader(k, v))
	}
	return &Provider{opts: opts, client: sdk.NewClient(ro...)}
}

// Name returns the profile name, e.g. "anthropic".
func (p *Provider) Name() string { return p.opts.Name }

// Stream starts one Messages request. An HTTP error status, a connect
// failure, or an error event before the first stream event is returned
// directly as *llm.ProviderError; afterwards failures arrive as the final
// EventError. See the package comment for what happens on a mid-stream
// error.
func (p *Provider) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	model := req.Model
	if model == "" {
		model = p.opts.Model
	}
	tools, names, warnings := schema.PrepareTools(schema.Anthropic, req.Tools)
	params, extra, err := p.buildParams(model, req, tools, names)
	if err != nil {
		return nil, &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: p.opts.Name, Model: model,
			Message: err.Error(), Err: err, Hint: "the conversation could not be encoded for the Messages API"}
	}
	st := p.client.Messages.NewStreaming(ctx, params, extra...)
	d := newDecoder(p.opts.Name, model, names)
	// The first Next performs the request: an HTTP error surfaces here and
	// is returned directly, as llm.Provider requires.
	if !st.Next() {
		err := st.Err()
		st.Close()
		if err == nil {
			err = d.truncated()
		}
		return nil, d.classify(ctx, err)
	}
	return transport.Run(ctx, func(emit func(llm.Event) bool) error {
		defer st.Close()
		for _, w := range warnings {
			if _, seen := p.warned.LoadOrStore(w, true); !seen && !emit(llm.Event{Type: llm.EventWarning, Text: w}) {
				return ctx.Err()
			}
		}
		for {
			evs, done := d.handle(st.Current())
			for _, ev := range evs {
				if !emit(ev) {
					return ctx.Err()
				}
			}
			if done {
				return nil
			}
			if !st.Next() {
				if err := st.Err(); err != nil {
					return err
				}
				return d.truncated()
			}
		}
	}, func(err error) *llm.ProviderError { return d.classify(ctx, err) }), nil
}

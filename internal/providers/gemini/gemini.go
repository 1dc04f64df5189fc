package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// DefaultBaseURL is the Gemini API root.
const DefaultBaseURL = "https://generativelanguage.googleapis.com"

// DefaultIdleTimeout is how long a response body may stay silent before the
// stream fails with llm.ErrStreamStall. Gemini sends no keep-alives, and a
// long thinking phase can be quiet, so this is generous.
const DefaultIdleTimeout = 120 * time.Second

// Options configures one Gemini provider profile.
type Options struct {
	// Name is the profile name returned by Name(); "gemini" when empty.
	Name string
	// BaseURL is the API root, e.g.
	// "https://generativelanguage.googleapis.com"; a trailing "/v1beta",
	// "/v1alpha" or "/v1" is taken as the APIVersion. Empty means
	// DefaultBaseURL. Environment variables are never consulted.
	BaseURL string
	// APIVersion is the path version; empty means "v1beta".
	APIVersion string
	// APIKey is sent as x-goog-api-key; empty sends none.
	APIKey string
	// Model is used when a Request leaves Model empty, e.g.
	// "gemini-2.5-pro" ("models/" prefix optional).
	Model string
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string
	// HTTPClient replaces http.DefaultClient.
	HTTPClient *http.Client
	// IdleTimeout bounds the wait for the first response byte and every
	// silence after it; 0 means DefaultIdleTimeout, negative disables the
	// check.
	IdleTimeout time.Duration
}

// Provider streams completions from the Gemini API. It is safe for
// concurrent use.
type Provider struct {
	opts Options
	tc   *transport.Client
	// warned holds schema warnings already reported, so each is shown once.
	warned sync.Map
}

// New returns a Provider for opts. It performs no I/O.
func New(opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "gemini"
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	// A base URL that already names the version ("…/v1beta") is
	// accepted as such rather than doubled.
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	for _, v := range []string{"v1beta", "v1alpha", "v1"} {
		if strings.HasSuffix(opts.BaseURL, "/"+v) {
			opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/"+v)
			if opts.APIVersion == "" {
				opts.APIVersion = v
			}
			break
		}
	}
	if opts.APIVersion == "" {
		opts.APIVersion = "v1beta"
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	tc := &transport.Client{Provider: opts.Name, HTTP: opts.HTTPClient, Header: http.Header{}, IdleTimeout: opts.IdleTimeout}
	if opts.APIKey != "" {
		tc.Header.Set("x-goog-api-key", opts.APIKey)
	}
	for k, v := range opts.Headers {
		tc.Header.Set(k, v)
	}
	return &Provider{opts: opts, tc: tc}
}

// Name returns the profile name, e.g. "gemini".
func (p *Provider) Name() string { return p.opts.Name }

// Stream starts one streamGenerateContent request. An HTTP error status or
// a connect failure is returned directly as the transport's
// *llm.ProviderError; afterwards failures arrive as the final EventError.
func (p *Provider) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	model := strings.TrimPrefix(req.Model, "models/")
	if model == "" {
		model = strings.TrimPrefix(p.opts.Model, "models/")
	}
	fail := func(err error) *llm.ProviderError {
		return &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: p.opts.Name, Model: model, Message: err.Error(), Err: err,
			Hint: "the conversation could not be encoded for Gemini"}
	}
	tools, names, warnings := schema.PrepareTools(schema.Gemini, req.Tools)
	body, err := encodeRequest(model, req, tools, names)
	if err != nil {
		return nil, fail(err)
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fail(err)
	}
	u := strings.TrimRight(p.opts.BaseURL, "/") + "/" + p.opts.APIVersion + "/models/" + url.PathEscape(model) +
		":streamGenerateContent?alt=sse"
	s, err := p.tc.Post(ctx, u, model, payload)
	if err != nil {
		return nil, err
	}
	d := &decoder{provider: p.opts.Name, model: model, names: names}
	return s.Run(func(emit func(llm.Event) bool) error {
		for _, w := range warnings {
			if _, seen := p.warned.LoadOrStore(w, true); !seen && !emit(llm.Event{Type: llm.EventWarning, Text: w}) {
				return ctx.Err()
			}
		}
		return d.run(s, emit)
	}), nil
}

// run decodes the event stream to its end: nil after a finishReason, the
// error the stream or the decoder reported otherwise (a stream that ends
// without a finishReason is ErrStreamBroken).
func (d *decoder) run(s *transport.Stream, emit func(llm.Event) bool) error {
	r := s.Events()
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return d.truncated()
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(ev.Data) == "" {
			continue
		}
		evs, done := d.handle([]byte(ev.Data))
		for _, e := range evs {
			if e.Type == llm.EventError {
				return e.Err
			}
			if !emit(e) {
				return context.Canceled
			}
		}
		if done {
			return nil
		}
	}
}

// streamError classifies an {"error": {...}} object sent inside the stream.
func (d *decoder) streamError(data []byte) *llm.ProviderError {
	return transport.ClassifyStreamError(d.provider, d.model, data)
}

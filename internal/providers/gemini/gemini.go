package gemini

import (
	"bytes"
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
	"github.com/zero-agent/zero/internal/llm/sse"
	"github.com/zero-agent/zero/internal/providers/httperr"
	"github.com/zero-agent/zero/internal/providers/idle"
)

// DefaultBaseURL is the Gemini API root.
const DefaultBaseURL = "https://generativelanguage.googleapis.com"

// DefaultIdleTimeout is how long a response body may stay silent before the
// stream fails with llm.ErrStreamStall. Gemini sends no keep-alives, and a
// long thinking phase can be quiet, so this is generous.
const DefaultIdleTimeout = 120 * time.Second

// maxErrorBody caps how much of an error response is read (bytes).
const maxErrorBody = 1 << 20

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
	// IdleTimeout bounds the silence between response bytes; 0 means
	// DefaultIdleTimeout, negative disables the check.
	IdleTimeout time.Duration
}

// Provider streams completions from the Gemini API. It is safe for
// concurrent use.
type Provider struct {
	opts Options
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
	return &Provider{opts: opts}
}

// Name returns the profile name, e.g. "gemini".
func (p *Provider) Name() string { return p.opts.Name }

// Stream starts one streamGenerateContent request. An HTTP error status or
// a connect failure is returned directly as *llm.ProviderError (classified
// by httperr); afterwards failures arrive as the final EventError.
func (p *Provider) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	model := strings.TrimPrefix(req.Model, "models/")
	if model == "" {
		model = strings.TrimPrefix(p.opts.Model, "models/")
	}
	fail := func(kind llm.ErrorKind, err error, hint string) *llm.ProviderError {
		return &llm.ProviderError{Kind: kind, Provider: p.opts.Name, Model: model, Message: err.Error(), Err: err, Hint: hint}
	}
	tools, names, warnings := schema.PrepareTools(schema.Gemini, req.Tools)
	body, err := encodeRequest(model, req, tools, names)
	if err != nil {
		return nil, fail(llm.ErrBadRequest, err, "the conversation could not be encoded for Gemini")
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fail(llm.ErrBadRequest, err, "the conversation could not be encoded for Gemini")
	}
	u := strings.TrimRight(p.opts.BaseURL, "/") + "/" + p.opts.APIVersion + "/models/" + url.PathEscape(model) +
		":streamGenerateContent?alt=sse"
	// reqCtx is cancelled by the idle watchdog (no headers or no bytes
	// within IdleTimeout) and when the stream ends.
	reqCtx, cancel := context.WithCancel(ctx)
	hreq, err := http.NewRequestWithContext(reqCtx, http.MethodPost, u, bytes.NewReader(payload))
	if err != nil {
		cancel()
		return nil, fail(llm.ErrBadRequest, err, "check the provider's baseURL")
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if p.opts.APIKey != "" {
		hreq.Header.Set("x-goog-api-key", p.opts.APIKey)
	}
	for k, v := range p.opts.Headers {
		hreq.Header.Set(k, v)
	}
	var w *idle.Watchdog
	if p.opts.IdleTimeout > 0 {
		w = idle.New(p.opts.IdleTimeout, cancel)
	}
	stalled := func() bool { return w != nil && w.Fired() }
	resp, err := p.opts.HTTPClient.Do(hreq)
	if err != nil {
		if w != nil {
			w.Stop()
		}
		cancel()
		if stalled() {
			return nil, p.stallError(model, err)
		}
		if ctx.Err() != nil {
			return nil, &llm.ProviderError{Kind: llm.ErrCanceled, Provider: p.opts.Name, Model: model, Err: ctx.Err()}
		}
		return nil, fail(llm.ErrConnect, err, "check the network and the provider's baseURL")
	}
	if resp.StatusCode/100 != 2 {
		defer cancel()
		if w != nil {
			w.Stop()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, httperr.Classify(p.opts.Name, model, resp.StatusCode, resp.Header, b)
	}

	var rd io.ReadCloser = resp.Body
	if w != nil {
		w.Feed()
		rd = w.Body(resp.Body, p.opts.IdleTimeout, nil)
	}
	d := &decoder{provider: p.opts.Name, model: model, names: names}
	out := make(chan llm.Event, 64)
	go func() {
		defer close(out)
		defer cancel()
		defer rd.Close()
		send := func(ev llm.Event) bool {
			select {
			case out <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		// The final error is sent unconditionally: consumers drain the
		// channel until it closes (llm.Provider contract).
		final := func(err *llm.ProviderError) { out <- llm.Event{Type: llm.EventError, Err: err} }
		canceled := func() *llm.ProviderError {
			return &llm.ProviderError{Kind: llm.ErrCanceled, Provider: p.opts.Name, Model: model, Err: ctx.Err()}
		}
		for _, w := range warnings {
			if _, seen := p.warned.LoadOrStore(w, true); !seen && !send(llm.Event{Type: llm.EventWarning, Text: w}) {
				final(canceled())
				return
			}
		}
		r := sse.NewReader(rd)
		for {
			ev, err := r.Next()
			if err != nil {
				switch {
				case ctx.Err() != nil:
					final(canceled())
				case stalled():
					final(p.stallError(model, err))
				case errors.Is(err, io.EOF):
					final(d.truncated())
				default:
					pe := d.truncated()
					pe.Err, pe.Message = err, "stream broken: "+err.Error()
					final(pe)
				}
				return
			}
			if strings.TrimSpace(ev.Data) == "" {
				continue
			}
			evs, done := d.handle([]byte(ev.Data))
			for _, e := range evs {
				if e.Type == llm.EventError {
					final(e.Err.(*llm.ProviderError))
					return
				}
				if !send(e) {
					final(canceled())
					return
				}
			}
			if done {
				return
			}
		}
	}()
	return out, nil
}

// streamError classifies an {"error": {...}} object sent inside the stream.
func (d *decoder) streamError(data []byte) *llm.ProviderError {
	return httperr.ClassifyStreamError(d.provider, d.model, data)
}

// stallError reports a server that sent nothing for IdleTimeout.
func (p *Provider) stallError(model string, err error) *llm.ProviderError {
	return &llm.ProviderError{Kind: llm.ErrStreamStall, Provider: p.opts.Name, Model: model, Err: err,
		Message: "no data within " + p.opts.IdleTimeout.String(),
		Hint:    "the server stopped sending; the request can be retried"}
}

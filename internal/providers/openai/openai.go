// Package openai is Zero's adapter for OpenAI Chat Completions and every
// server that speaks it (llama.cpp, Ollama, vLLM, LM Studio, OpenRouter,
// ...), on a small client over net/http.
//
// It exists because the compatible servers differ from OpenAI and from each
// other in ways that break agents: "data:" framing and keep-alive comments
// (case B07), a usage chunk with empty choices, tool-call deltas whose
// arguments start in the first chunk, empty ids, arguments sent as objects
// and nameless entries (B06), reasoning in reasoning_content, reasoning or
// <think> tags (B05), and error bodies of every shape (B10, via httperr).
// Connect failures are retried (connect only, never once a response has
// begun); a silent stream fails with ErrStreamStall instead of hanging.
// Tool schemas are cleaned and tool names mapped to legal wire names
// (internal/llm/schema, case B31) before each request; called names are
// mapped back, and each rewrite is reported once as an EventWarning.
//
// It translates between the llm vocabulary and the wire format and must not
// know about the agent loop, sessions or the terminal.
package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
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

// Defaults for Options fields left zero.
const (
	DefaultIdleTimeout      = 60 * time.Second
	DefaultFirstByteTimeout = 5 * time.Minute
	DefaultConnectRetries   = 3
	DefaultRetryBackoff     = 500 * time.Millisecond
)

// maxErrorBody caps how much of an error response is read (bytes).
const maxErrorBody = 1 << 20

// Options configures a Provider. Only BaseURL is required.
type Options struct {
	// Name is the profile name shown to users ("openai", "ollama", ...);
	// default "openai".
	Name string
	// BaseURL is the server root, with or without "/v1"
	// ("http://127.0.0.1:8080", "https://api.openai.com/v1"). A URL with
	// no path gets "/v1"; any other path is used as given (OpenRouter's
	// "/api/v1", Gemini's "/v1beta/openai").
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" when non-empty.
	APIKey string
	// Model is used when a Request has no Model.
	Model string
	// Headers are added to every request (e.g. OpenRouter's HTTP-Referer).
	Headers map[string]string
	// HTTPClient defaults to a client with no overall timeout (streams are
	// long); timeouts come from IdleTimeout and FirstByteTimeout.
	HTTPClient *http.Client
	// IdleTimeout is the longest silence allowed once the body has begun;
	// keep-alive comments count as traffic. Default 60 s.
	IdleTimeout time.Duration
	// FirstByteTimeout is the longest wait for the response headers and
	// the first body byte (local servers may process a long prompt
	// first). Default 5 min.
	FirstByteTimeout time.Duration
	// ConnectRetries is how many times a failed connect is retried;
	// default 3, negative for none.
	ConnectRetries int
	// RetryBackoff is the first delay between connect attempts, doubled
	// each time; default 500 ms.
	RetryBackoff time.Duration
	// MistralIDs makes generated tool-call ids exactly 9 alphanumerics and
	// rewrites history ids to that shape (Mistral templates reject others).
	// It is also switched on per request for model ids of the Mistral
	// family (mistral, mixtral, devstral, codestral, magistral, ...).
	MistralIDs bool
	// ThinkPrefilled says the model's chat template pre-fills "<think>",
	// so content before the first "</think>" is reasoning (case B05).
	ThinkPrefilled bool
	// NoStreamOptions omits stream_options for servers that reject it.
	NoStreamOptions bool
	// MaxCompletionTokens sends the output cap as max_completion_tokens
	// (required by OpenAI's reasoning models) instead of max_tokens. New
	// sets it for api.openai.com.
	MaxCompletionTokens bool
}

// Provider streams completions from one OpenAI-compatible server. It is
// safe for concurrent use.
type Provider struct {
	o        Options
	endpoint string
	// warned holds schema warnings already reported, so each is shown once.
	warned sync.Map
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider for o, filling defaults. It fails only for a base
// URL that does not parse as http(s).
func New(o Options) (*Provider, error) {
	if o.Name == "" {
		o.Name = "openai"
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.FirstByteTimeout <= 0 {
		o.FirstByteTimeout = DefaultFirstByteTimeout
	}
	if o.ConnectRetries == 0 {
		o.ConnectRetries = DefaultConnectRetries
	}
	if o.RetryBackoff <= 0 {
		o.RetryBackoff = DefaultRetryBackoff
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	base, err := apiBase(o.BaseURL)
	if err != nil {
		return nil, err
	}
	if u, _ := url.Parse(base); u != nil && u.Hostname() == "api.openai.com" {
		o.MaxCompletionTokens = true
	}
	return &Provider{o: o, endpoint: base + "/chat/completions"}, nil
}

// mistralFamily reports model ids served with Mistral chat templates,
// which reject tool-call ids that are not 9 alphanumerics (case B06).
func mistralFamily(model string) bool {
	m := strings.ToLower(model)
	for _, k := range []string{"mistral", "mixtral", "devstral", "codestral", "magistral", "ministral", "pixtral"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// apiBase normalises a base URL: trailing slashes dropped, "/v1" added
// when the URL has no path.
func apiBase(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("openai: base URL %q must look like http://host:port or https://host/v1", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String(), nil
}

// Name returns the profile name.
func (p *Provider) Name() string { return p.o.Name }

// Stream starts a streamed completion; see llm.Provider. Errors before the
// stream opens are *llm.ProviderError: ErrConnect after the connect
// retries, the classified HTTP error (httperr.Classify), ErrStreamStall when
// no headers arrive within FirstByteTimeout, ErrCanceled.
func (p *Provider) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	model := req.Model
	if model == "" {
		model = p.o.Model
	}
	o := p.o
	if mistralFamily(model) {
		o.MistralIDs = true
	}
	// Tool schemas are cleaned and names mapped for the OpenAI dialect
	// (case B31); the decoder maps called names back.
	tools, names, warnings := schema.PrepareTools(schema.OpenAI, req.Tools)
	wreq := req
	wreq.Tools = tools
	body, err := buildRequest(wreq, model, &o, names, true)
	if err != nil {
		return nil, &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: p.o.Name, Model: model, Err: err,
			Hint: "a message or tool schema could not be encoded as JSON"}
	}
	sctx, cancel := context.WithCancel(ctx)
	wd := idle.New(p.o.FirstByteTimeout, cancel)
	resp, err := p.post(sctx, body)
	if err != nil {
		wd.Stop()
		cancel()
		return nil, p.requestError(ctx, wd, model, err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		wd.Stop()
		cancel()
		return nil, httperr.Classify(p.o.Name, model, resp.StatusCode, resp.Header, b)
	}
	ch := make(chan llm.Event, 64)
	emit := func(ev llm.Event) bool {
		select {
		case ch <- ev:
			return true
		default:
		}
		// The consumer is slow, not the server: no idle timeout meanwhile.
		wd.Stop()
		defer wd.Kick(p.o.IdleTimeout)
		select {
		case ch <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
	dec := newDecoder(&o, model, emit)
	dec.names = names
	dec.inputBytes = len(body)
	go func() {
		defer close(ch)
		defer cancel()
		defer resp.Body.Close()
		defer wd.Stop()
		err := errStopped
		if p.warnOnce(warnings, emit) {
			err = p.consume(resp, wd, dec, emit, model)
		}
		if err == nil {
			return
		}
		ev := llm.Event{Type: llm.EventError, Err: p.streamError(ctx, wd, model, err)}
		if ctx.Err() == nil {
			select {
			case ch <- ev:
				return
			case <-ctx.Done():
				ev.Err = &llm.ProviderError{Kind: llm.ErrCanceled, Provider: p.o.Name, Model: model, Err: ctx.Err()}
			}
		}
		// Cancelled: the consumer may have stopped reading; give it a moment.
		select {
		case ch <- ev:
		case <-time.After(time.Second):
		}
	}()
	return ch, nil
}

// warnOnce emits each schema warning the first time this provider meets
// it, so a rename is reported once per session rather than every turn. It
// returns false when the consumer went away.
func (p *Provider) warnOnce(warnings []string, emit func(llm.Event) bool) bool {
	for _, w := range warnings {
		if _, seen := p.warned.LoadOrStore(w, true); !seen && !emit(llm.Event{Type: llm.EventWarning, Text: w}) {
			return false
		}
	}
	return true
}

// consume reads the response body: an event stream, or one JSON body
// from a server that ignored stream:true.
func (p *Provider) consume(resp *http.Response, wd *idle.Watchdog, dec *decoder, emit func(llm.Event) bool, model string) error {
	body := wd.Reader(resp.Body, p.o.IdleTimeout)
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/html" {
		return &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: p.o.Name, Model: model, Status: resp.StatusCode,
			Message: p.endpoint + " answered with an HTML page, not an event stream",
			Hint:    "point the base URL at the server's API (e.g. http://host:port/v1), not its web UI"}
	}
	if mt == "application/json" {
		b, err := io.ReadAll(body)
		if err != nil {
			return err
		}
		c, err := parseResponse(b, Options{Name: p.o.Name, MistralIDs: dec.mistral, ThinkPrefilled: p.o.ThinkPrefilled}, dec.names)
		if err != nil {
			return err
		}
		if !completionEvents(c, emit) {
			return errStopped
		}
		return nil
	}
	return dec.run(sse.NewReader(body))
}

// post sends the request, retrying connect failures only.
func (p *Provider) post(ctx context.Context, body []byte) (*http.Response, error) {
	backoff := p.o.RetryBackoff
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		if p.o.APIKey != "" {
			req.Header.Set("Authorization", "Bearer "+p.o.APIKey)
		}
		for k, v := range p.o.Headers {
			req.Header.Set(k, v)
		}
		resp, err := p.o.HTTPClient.Do(req)
		if err == nil {
			return resp, nil
		}
		if !isConnectError(err) || attempt >= p.o.ConnectRetries || ctx.Err() != nil {
			return nil, err
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil, err
		}
		backoff *= 2
	}
}

// isConnectError reports a failure to establish the connection, the only
// kind that is safe to retry here (nothing reached the server).
func isConnectError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// requestError classifies a failure before any response arrived.
func (p *Provider) requestError(ctx context.Context, wd *idle.Watchdog, model string, err error) error {
	e := &llm.ProviderError{Provider: p.o.Name, Model: model, Err: err}
	switch {
	case ctx.Err() != nil:
		e.Kind, e.Err = llm.ErrCanceled, ctx.Err()
	case wd.Fired():
		e.Kind = llm.ErrStreamStall
		e.Message = fmt.Sprintf("no response from %s within %s", p.endpoint, p.o.FirstByteTimeout)
		e.Hint = "the server accepted the connection but never answered; check that it is not stuck loading the model"
	case isConnectError(err):
		e.Kind = llm.ErrConnect
		e.Message = fmt.Sprintf("could not connect to %s after %d attempts", p.endpoint, max(p.o.ConnectRetries, 0)+1)
		e.Hint = "start the server (llama-server, `ollama serve`, vLLM, LM Studio) or set OPENAI_BASE_URL to where it listens"
	default:
		e.Kind = llm.ErrStreamBroken
		e.Message = "the connection failed before a response arrived"
		e.Hint = "Zero retries the turn; check the server's log if it persists"
	}
	return e
}

// streamError classifies the error that ended an open stream.
func (p *Provider) streamError(ctx context.Context, wd *idle.Watchdog, model string, err error) error {
	if ctx.Err() != nil || errors.Is(err, errStopped) {
		return &llm.ProviderError{Kind: llm.ErrCanceled, Provider: p.o.Name, Model: model, Err: context.Cause(ctx)}
	}
	if wd.Fired() {
		return &llm.ProviderError{Kind: llm.ErrStreamStall, Provider: p.o.Name, Model: model, Err: err,
			Message: fmt.Sprintf("the stream sent nothing for %s", wd.Timeout()),
			Hint:    "the partial reply is discarded and the turn retried; raise ZERO_IDLE_TIMEOUT (seconds) for slow local models"}
	}
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		return pe
	}
	return &llm.ProviderError{Kind: llm.ErrStreamBroken, Provider: p.o.Name, Model: model, Err: err,
		Message: "the connection dropped mid-stream",
		Hint:    "the partial reply is discarded and the turn retried"}
}

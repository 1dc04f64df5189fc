// Package openai is Zero's adapter for OpenAI Chat Completions and every
// server that speaks it (llama.cpp, Ollama, vLLM, LM Studio, OpenRouter,
// ...), over internal/providers/transport.
//
// It exists because the compatible servers differ from OpenAI and from each
// other in ways that break agents: "data:" framing and keep-alive comments
// (case B07), a usage chunk with empty choices, tool-call deltas whose
// arguments start in the first chunk, empty ids, arguments sent as objects
// and nameless entries (B06), reasoning in reasoning_content, reasoning or
// <think> tags (B05). Tool schemas are cleaned and tool names mapped to
// legal wire names (internal/llm/schema, case B31) before each request;
// called names are mapped back, and each rewrite is reported once as an
// EventWarning. Sending, the connect retry, the stall watchdogs and the
// classification of error bodies of every shape (B10) are
// internal/providers/transport's: this package builds the request body and
// decodes the reply.
//
// It translates between the llm vocabulary and the wire format and must not
// know about the agent loop, sessions or the terminal; it imports no other
// provider.
package openai

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// Defaults for Options fields left zero.
const (
	DefaultIdleTimeout      = 60 * time.Second
	DefaultFirstByteTimeout = 5 * time.Minute
	DefaultConnectRetries   = transport.DefaultConnectAttempts - 1
	DefaultRetryBackoff     = transport.DefaultConnectBackoff
)

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
	// BaseURLGiven names the flag or variable BaseURL came from
	// ("--base-url"), "" for a file or a default: a server that does not
	// answer is then not met with "or pass --base-url".
	BaseURLGiven string
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
	// ConnectRetries is how many times a failed connect is retried (by
	// the transport, the only connect retry); default 1, negative for
	// none.
	ConnectRetries int
	// RetryBackoff is the first delay between connect attempts, doubled
	// each time; default 200 ms.
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
	// sets it for api.openai.com only: llama-server reads max_tokens alone
	// (params_from_json_cmpl in ggml-org/llama.cpp tools/server), so the
	// newer name would leave its replies unbounded, and vLLM, Ollama and
	// LM Studio all accept max_tokens.
	MaxCompletionTokens bool
	// StructuredOutput sends a request's ResponseSchema as response_format
	// json_schema. New sets it for api.openai.com only: local servers
	// turn it into a grammar that can keep a model from calling tools.
	StructuredOutput bool
}

// Provider streams completions from one OpenAI-compatible server. It is
// safe for concurrent use.
type Provider struct {
	o        Options
	endpoint string
	tc       *transport.Client
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
	u, _ := url.Parse(base)
	if u != nil && u.Hostname() == "api.openai.com" {
		o.MaxCompletionTokens, o.StructuredOutput = true, true
	}
	tc := &transport.Client{Provider: o.Name, HTTP: o.HTTPClient, Header: http.Header{},
		FirstByteTimeout: o.FirstByteTimeout, IdleTimeout: o.IdleTimeout,
		ConnectAttempts: max(o.ConnectRetries, 0) + 1, ConnectBackoff: o.RetryBackoff, StartHint: StartHint(u, o.BaseURLGiven)}
	if o.APIKey != "" {
		tc.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	for k, v := range o.Headers {
		tc.Header.Set(k, v)
	}
	return &Provider{o: o, endpoint: base + "/chat/completions", tc: tc}, nil
}

// StartHint says how to start the local server usually found on u's port
// (the ports discovery probes), for a connection refused on 127.0.0.1,
// and to pass --base-url, unless given names the flag or variable the URL
// already came from.
func StartHint(u *url.URL, given string) string {
	port := ""
	if u != nil {
		port = u.Port()
	}
	start := "start the server (llama-server, `ollama serve`, LM Studio, vLLM)"
	switch port {
	case "11434":
		start = "start it (`ollama serve`)"
	case "8080":
		start = "start it (`llama-server -m model.gguf --port 8080 --jinja`)"
	case "1234":
		start = "start it (LM Studio: Developer tab → Start server)"
	case "8000":
		start = "start it (`vllm serve MODEL`)"
	}
	if given != "" {
		return start + " at the address " + given + " gives"
	}
	return start + " or pass --base-url"
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
// stream opens are the transport's *llm.ProviderError (ErrConnect after
// its connect retry, the classified HTTP error, ErrStreamStall when
// nothing arrives within FirstByteTimeout, ErrCanceled).
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
	s, err := p.tc.Post(ctx, p.endpoint, model, body)
	if err != nil {
		return nil, err
	}
	return s.Run(func(emit func(llm.Event) bool) error {
		if !p.warnOnce(warnings, emit) {
			return errStopped
		}
		dec := newDecoder(&o, model, emit)
		dec.names = names
		dec.inputBytes = len(body)
		dec.maxTokens = req.MaxTokens
		return p.consume(s, dec, model)
	}), nil
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
func (p *Provider) consume(s *transport.Stream, dec *decoder, model string) error {
	mt, _, _ := mime.ParseMediaType(s.Header().Get("Content-Type"))
	if mt == "text/html" {
		return &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: p.o.Name, Model: model, Status: s.StatusCode(),
			Message: p.endpoint + " answered with an HTML page, not an event stream",
			Hint:    "point the base URL at the server's API (e.g. http://host:port/v1), not its web UI"}
	}
	if mt == "application/json" {
		b, err := io.ReadAll(s.Body())
		if err != nil {
			return err
		}
		c, err := parseResponse(b, Options{Name: p.o.Name, MistralIDs: dec.mistral, ThinkPrefilled: p.o.ThinkPrefilled}, dec.names)
		if err != nil {
			return err
		}
		if !completionEvents(c, dec.emit) {
			return errStopped
		}
		return nil
	}
	return dec.run(s.Events())
}

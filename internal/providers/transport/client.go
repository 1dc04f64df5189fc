package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// MaxErrorBody caps how much of an error response is read (bytes).
const MaxErrorBody = 1 << 20

// Client sends one provider's requests. The zero value works: requests go
// through http.DefaultClient with no watchdogs and the default connect
// retry. Set its fields before the first request and leave them alone
// after; it is safe for concurrent use.
type Client struct {
	// Provider is the profile name errors carry ("openai", "ollama", ...).
	Provider string
	// HTTP sends the requests; nil means http.DefaultClient. It should
	// have no overall timeout (streams are long): the watchdogs bound
	// silences instead.
	HTTP *http.Client
	// Header is set on every request Post sends (after Content-Type and
	// Accept, so it may override them): the key, extra profile headers.
	Header http.Header
	// FirstByteTimeout bounds the wait from sending the request to the
	// first byte of a 2xx body (headers included; local servers may
	// process a long prompt first). 0 means IdleTimeout.
	FirstByteTimeout time.Duration
	// IdleTimeout bounds every silence once the body has begun;
	// keep-alive comments count as traffic. 0 or negative: unbounded.
	IdleTimeout time.Duration
	// ConnectAttempts is how many times a connection is tried in all
	// (connect failures only: nothing reached the server); 0 means
	// DefaultConnectAttempts, 1 or less no retry.
	ConnectAttempts int
	// ConnectBackoff is the wait before the second connect attempt,
	// doubled for each further one; 0 means DefaultConnectBackoff.
	ConnectBackoff time.Duration
	// StartHint says what to do when no server listens on a loopback
	// address, e.g. "start it (`ollama serve`) or pass --base-url"; empty
	// means a generic hint.
	StartHint string
}

// Post sends payload as a JSON POST to url, asking for an event stream, and
// returns the open stream once a 2xx status arrived. model names the model
// in errors. Errors are *llm.ProviderError: ErrConnect after the connect
// attempts, ErrStreamStall when nothing arrived within FirstByteTimeout,
// ErrCanceled, ErrStreamBroken for a connection that failed once made,
// and for any other status the error Classify makes of the response.
func (c *Client) Post(ctx context.Context, url, model string, payload []byte) (*Stream, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, errorSource{c, model}.make(llm.ErrBadRequest, err, err.Error(), "check the provider's base URL")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	for k, vs := range c.Header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := c.send(req, model)
	if err != nil {
		return nil, err
	}
	return &Stream{ctx: ctx, resp: resp, body: resp.Body.(*body), errs: errorSource{c, model}}, nil
}

// Do sends a request built elsewhere (an SDK's: anthropic-sdk-go takes a
// *Client as its option.HTTPClient) with the same connect retry, watchdogs
// and classification as Post. A 2xx response comes back with its body
// read under the watchdogs (a silent body fails its read with an
// llm.ErrStreamStall, a broken one with llm.ErrStreamBroken); any other
// outcome is returned as a *llm.ProviderError, its Model left empty. The
// request body must be replayable (GetBody) for a connect retry.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	return c.send(req, "")
}

// send runs one request: the first-byte watchdog armed for all of it, the
// connect attempts, the status check.
func (c *Client) send(req *http.Request, model string) (*http.Response, error) {
	errs := errorSource{c, model}
	caller := req.Context()
	ctx, cancel := context.WithCancel(caller)
	var w *watchdog
	if d := c.firstByte(); d > 0 {
		w = newWatchdog(d, cancel)
	}
	resp, err := c.connect(ctx, req)
	if err != nil {
		w.Stop()
		cancel()
		return nil, errs.request(caller, w, req, err)
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
		resp.Body.Close()
		w.Stop()
		cancel()
		return nil, Classify(c.Provider, model, resp.StatusCode, resp.Header, b)
	}
	resp.Body = &body{rc: resp.Body, w: w, idle: max(c.IdleTimeout, 0), caller: caller, errs: errs, onClose: cancel}
	return resp, nil
}

// firstByte is the bound on the wait for the first byte.
func (c *Client) firstByte() time.Duration {
	if c.FirstByteTimeout > 0 {
		return c.FirstByteTimeout
	}
	return c.IdleTimeout
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// request classifies a failure before any response arrived.
func (e errorSource) request(caller context.Context, w *watchdog, req *http.Request, err error) *llm.ProviderError {
	switch {
	case caller.Err() != nil:
		return e.make(llm.ErrCanceled, caller.Err(), "", "")
	case w.Fired():
		hint := "the server accepted the connection but never answered; check that it is not stuck loading the model"
		if e.c.FirstByteTimeout > 0 {
			hint += ", or raise ZERO_FIRST_BYTE_TIMEOUT (seconds)"
		}
		return e.make(llm.ErrStreamStall, ErrStall, "no response from "+req.URL.Redacted()+" within "+w.Timeout().String(), hint)
	case isConnectError(err):
		return e.connect(req.URL, err)
	}
	return e.broken(err, "the connection failed before a response arrived", "Zero retries the turn; check the server's log if it persists")
}

// errorSource makes the errors of one request: provider and model named.
type errorSource struct {
	c     *Client
	model string
}

func (e errorSource) make(kind llm.ErrorKind, err error, msg, hint string) *llm.ProviderError {
	return &llm.ProviderError{Kind: kind, Provider: e.c.Provider, Model: e.model, Message: msg, Hint: hint, Err: err}
}

func (e errorSource) broken(err error, msg, hint string) *llm.ProviderError {
	return e.make(llm.ErrStreamBroken, err, msg, hint)
}

package anthropic

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/tidwall/gjson"

	"github.com/zero-agent/zero/internal/llm"
)

// classify turns any error from the SDK into a *llm.ProviderError naming
// this provider and model. Already-typed errors pass through.
func (d *decoder) classify(ctx context.Context, err error) *llm.ProviderError {
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		return pe
	}
	base := llm.ProviderError{Provider: d.provider, Model: d.model, Err: err}
	var apiErr *sdk.Error
	switch {
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err())):
		base.Kind, base.Err = llm.ErrCanceled, ctx.Err()
		return &base
	case errors.As(err, &apiErr):
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		return classifyHTTP(base, apiErr.StatusCode, h, []byte(apiErr.RawJSON()))
	case errors.Is(err, errStall):
		base.Kind = llm.ErrStreamStall
		base.Hint = "the server stopped sending; the request can be retried"
		return &base
	case !d.started && isConnect(err):
		base.Kind = llm.ErrConnect
		base.Hint = "check the network and the provider's baseURL"
		return &base
	}
	base.Kind = llm.ErrStreamBroken
	if !d.started {
		base.Kind = llm.ErrConnect
	}
	return &base
}

// isConnect reports network errors that happen before any response.
func isConnect(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &oe) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// classifyHTTP maps an Anthropic error response (status, headers, body)
// onto an error kind. Body shape, from the Messages API error docs:
// {"type":"error","error":{"type":"overloaded_error","message":"..."}};
// mid-stream `event: error` data has the same shape with status 200.
//
// TODO(httperr): switch to httperr.Classify once it lands; this local
// mapping covers the Anthropic error types only.
func classifyHTTP(base llm.ProviderError, status int, h http.Header, body []byte) *llm.ProviderError {
	e := base
	e.Status = status
	typ := gjson.GetBytes(body, "error.type").String()
	e.Message = gjson.GetBytes(body, "error.message").String()
	if e.Message == "" && len(body) > 0 && !gjson.ValidBytes(body) {
		e.Message = strings.TrimSpace(string(body))
	}
	if ra := h.Get("retry-after"); ra != "" {
		if s, err := strconv.Atoi(ra); err == nil {
			e.RetryAfter = time.Duration(s) * time.Second
		}
	}
	switch {
	case typ == "overloaded_error" || status == 529:
		e.Kind, e.Hint = llm.ErrOverloaded, "Anthropic is overloaded; retrying later usually works"
	case typ == "rate_limit_error" || status == 429:
		e.Kind, e.Hint = llm.ErrRateLimit, "rate limited; wait and retry, or lower request volume"
	case typ == "authentication_error" || typ == "permission_error" || status == 401 || status == 403:
		e.Kind, e.Hint = llm.ErrAuth, "check ANTHROPIC_API_KEY or the profile's apiKeyEnv"
	case isOverflow(e.Message):
		e.Kind, e.Hint = llm.ErrContextOverflow, "the conversation exceeds the model's context window; compact it"
	case typ == "invalid_request_error" || typ == "not_found_error" || typ == "request_too_large" ||
		status == 400 || status == 404 || status == 413 || status == 422:
		e.Kind = llm.ErrBadRequest
	case typ == "api_error" || status >= 500:
		e.Kind, e.Hint = llm.ErrServer, "the provider failed; the request can be retried"
	default:
		e.Kind = llm.ErrUnknown
	}
	return &e
}

func isOverflow(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "prompt is too long") || strings.Contains(m, "exceed context limit") ||
		strings.Contains(m, "context window")
}

// errStall is returned by a response body that stayed silent past the idle
// timeout.
var errStall = errors.New("anthropic: no data within the idle timeout")

// idleMiddleware wraps every response body so that a read which waits
// longer than d fails with errStall and the connection is closed.
func idleMiddleware(d time.Duration) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp == nil || resp.Body == nil {
			return resp, err
		}
		resp.Body = newIdleBody(resp.Body, d)
		return resp, nil
	}
}

// idleBody closes its underlying body when no Read returns within the
// timeout, so a blocked Read fails promptly.
type idleBody struct {
	rc    io.ReadCloser
	timer *time.Timer
	d     time.Duration
	mu    sync.Mutex
	stall bool
}

func newIdleBody(rc io.ReadCloser, d time.Duration) *idleBody {
	b := &idleBody{rc: rc, d: d}
	b.timer = time.AfterFunc(d, func() {
		b.mu.Lock()
		b.stall = true
		b.mu.Unlock()
		rc.Close()
	})
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	stalled := b.stall
	b.mu.Unlock()
	if stalled {
		return n, errStall
	}
	if n > 0 {
		b.timer.Reset(b.d)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.rc.Close()
}

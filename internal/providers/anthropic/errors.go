package anthropic

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/httperr"
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

// classifyHTTP maps an Anthropic error response onto an error kind with
// the shared classifier. Body shape, from the Messages API error docs:
// {"type":"error","error":{"type":"overloaded_error","message":"..."}}; an
// `event: error` inside a 200 stream (case B09) carries the same object
// and is classified as a stream error (its own kind, no HTTP status).
func classifyHTTP(base llm.ProviderError, status int, h http.Header, body []byte) *llm.ProviderError {
	var e *llm.ProviderError
	if status/100 == 2 {
		e = httperr.ClassifyStreamError(base.Provider, base.Model, body)
	} else {
		e = httperr.Classify(base.Provider, base.Model, status, h, body)
	}
	if e.Err == nil {
		e.Err = base.Err
	}
	return e
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

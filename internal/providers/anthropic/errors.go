package anthropic

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/httperr"
	"github.com/zero-agent/zero/internal/providers/idle"
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
	var urlErr *url.Error
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
	case errors.Is(err, idle.ErrStall):
		base.Kind = llm.ErrStreamStall
		base.Hint = "the server stopped sending; the request can be retried"
		return &base
	case errors.As(err, &urlErr):
		// client.Do failed: no response was received.
		base.Kind = llm.ErrConnect
		base.Hint = "check the network and the provider's baseURL"
		return &base
	}
	// The response began and then broke: a read error, an undecodable
	// event.
	base.Kind = llm.ErrStreamBroken
	base.Status = 200
	base.Hint = "the response broke off; the request can be retried"
	return &base
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

package anthropic

import (
	"context"
	"errors"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// classify turns any error from the SDK into a *llm.ProviderError naming
// this provider and model. The transport's errors (connect, stall, HTTP
// status, broken body) arrive already typed and pass through with the
// model filled in; what is left is the SDK's own: an `event: error` inside
// the 200 stream, and an event it could not decode.
func (d *decoder) classify(ctx context.Context, err error) *llm.ProviderError {
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		if pe.Model == "" {
			pe.Model = d.model
		}
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
	}
	// The response began and then broke: an undecodable event.
	base.Kind = llm.ErrStreamBroken
	base.Status = 200
	base.Hint = "the response broke off; the request can be retried"
	return &base
}

// classifyHTTP maps an Anthropic error object onto an error kind with the
// transport's classifier. Body shape, from the Messages API error docs:
// {"type":"error","error":{"type":"overloaded_error","message":"..."}}; an
// `event: error` inside a 200 stream (case B09) carries the same object
// and is classified as a stream error (its own kind, no HTTP status). An
// error status never reaches the SDK (the transport classifies it), but an
// SDK error that names one is classified the same way.
func classifyHTTP(base llm.ProviderError, status int, h http.Header, body []byte) *llm.ProviderError {
	var e *llm.ProviderError
	if status/100 == 2 {
		e = transport.ClassifyStreamError(base.Provider, base.Model, body)
	} else {
		e = transport.Classify(base.Provider, base.Model, status, h, body)
	}
	if e.Err == nil {
		e.Err = base.Err
	}
	return e
}

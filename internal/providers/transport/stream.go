package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/sse"
)

// Stream is the open 2xx response of a Post: its headers and its body,
// read under the watchdogs. Hand it a decoder with Run; Close it only if
// Run is never called.
type Stream struct {
	ctx  context.Context // the caller's
	resp *http.Response
	body *body
	errs errorSource
}

// Header is the response's header (Content-Type tells an event stream
// from a whole JSON reply or an HTML page).
func (s *Stream) Header() http.Header { return s.resp.Header }

// StatusCode is the response's 2xx status.
func (s *Stream) StatusCode() int { return s.resp.StatusCode }

// Body is the response body. Its read errors are typed: a stall is an
// llm.ErrStreamStall, a broken connection an llm.ErrStreamBroken.
func (s *Stream) Body() io.Reader { return s.body }

// Events reads the body as server-sent events.
func (s *Stream) Events() *sse.Reader { return sse.NewReader(s.body) }

// Close releases the response.
func (s *Stream) Close() error { return s.body.Close() }

// Err is the *llm.ProviderError for the error that ended reading the
// stream: ErrCanceled when the caller cancelled, ErrStreamStall when the
// watchdog fired, a *llm.ProviderError as it is (the decoder's or the
// body's, provider and model filled in), else ErrStreamBroken.
func (s *Stream) Err(err error) *llm.ProviderError {
	switch {
	case s.ctx.Err() != nil:
		return s.errs.make(llm.ErrCanceled, context.Cause(s.ctx), "", "")
	case s.body.w.Fired():
		return s.body.stall()
	}
	return s.errs.typed(err)
}

// Run decodes the stream on its own goroutine and returns the channel of
// the events decode emits, as llm.Provider requires: when decode returns
// an error (or the caller cancelled), one EventError carrying Err(err) is
// the last event; the channel is closed after it and the response
// released. emit returns false once the caller's context is done; decode
// should then return. While the consumer is slow to take an event the
// watchdog is paused.
func (s *Stream) Run(decode func(emit func(llm.Event) bool) error) <-chan llm.Event {
	return pump(s.ctx, s.body, s.Close, decode, s.Err)
}

// Run is Stream.Run for a stream an SDK reads (through Client.Do): decode
// emits events until it returns; a non-nil error becomes the final
// EventError through fail, which must give ErrCanceled once ctx is done.
func Run(ctx context.Context, decode func(emit func(llm.Event) bool) error, fail func(error) *llm.ProviderError) <-chan llm.Event {
	return pump(ctx, nil, nil, decode, fail)
}

// pump runs decode on its own goroutine over a fresh channel, then sends
// the final error, releases the stream (done, may be nil) and closes the
// channel.
func pump(ctx context.Context, b *body, done func() error, decode func(emit func(llm.Event) bool) error,
	fail func(error) *llm.ProviderError) <-chan llm.Event {
	ch := make(chan llm.Event, 64)
	go func() {
		defer close(ch)
		if done != nil {
			defer done()
		}
		if err := decode(emitter(ctx, b, ch)); err != nil {
			final(ctx, ch, fail(err))
		}
	}()
	return ch
}

// emitter returns the emit function of a stream: a send that does not
// block while the consumer keeps up; otherwise the watchdog (b, may be
// nil) is paused until the consumer takes the event or ctx is done.
func emitter(ctx context.Context, b *body, ch chan<- llm.Event) func(llm.Event) bool {
	return func(ev llm.Event) bool {
		select {
		case ch <- ev:
			return true
		default:
		}
		if b != nil {
			b.pause()
			defer b.resume()
		}
		select {
		case ch <- ev:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

// final sends the final error event. If the caller has cancelled it may
// have stopped reading: it gets a second to take the event, then the
// goroutine ends anyway.
func final(ctx context.Context, ch chan<- llm.Event, pe *llm.ProviderError) {
	ev := llm.Event{Type: llm.EventError, Err: pe}
	if ctx.Err() == nil {
		select {
		case ch <- ev:
			return
		case <-ctx.Done():
			ev.Err = &llm.ProviderError{Kind: llm.ErrCanceled, Provider: pe.Provider, Model: pe.Model, Err: context.Cause(ctx)}
		}
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case ch <- ev:
	case <-t.C:
	}
}

// typed is err as a *llm.ProviderError naming this provider and model.
func (e errorSource) typed(err error) *llm.ProviderError {
	var pe *llm.ProviderError
	if errors.As(err, &pe) {
		if pe.Provider == "" {
			pe.Provider = e.c.Provider
		}
		if pe.Model == "" {
			pe.Model = e.model
		}
		return pe
	}
	return e.broken(err, "the connection dropped mid-stream", "the partial reply is discarded and the turn retried")
}

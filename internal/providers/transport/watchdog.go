// The watchdogs turn a silent server into llm.ErrStreamStall instead of a
// hung turn: a timer that cancels the request when no response bytes
// arrive in time (first-byte timeout until the body's first data, then the
// idle timeout), and a body wrapper that re-arms it on every read that
// returned data. The subtle parts live here once: a fired watchdog stays
// fired, a read after firing reports a stall rather than a bare "context
// canceled", and a consumer that is slow to take events pauses the timer
// (a reader that stops reading is not a silent server).

package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// ErrStall is the cause (Err) of every llm.ErrStreamStall the transport
// reports: the server sent nothing (no headers, or no body bytes) for the
// armed timeout.
var ErrStall = errors.New("no data within the timeout")

// watchdog calls cancel when it is not kicked within the armed duration.
// Once fired it stays fired and further kicks do nothing. Its methods are
// safe for concurrent use.
type watchdog struct {
	timer   *time.Timer
	fired   atomic.Bool
	timeout atomic.Int64 // armed duration, ns
}

// newWatchdog returns a watchdog armed for d that calls cancel (and
// records that it fired) when d passes without a kick.
func newWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{}
	w.timeout.Store(int64(d))
	w.timer = time.AfterFunc(d, func() {
		w.fired.Store(true)
		cancel()
	})
	return w
}

// Fired reports whether the watchdog ran out and cancelled the request.
func (w *watchdog) Fired() bool { return w != nil && w.fired.Load() }

// Kick re-arms the watchdog for d from now, unless it already fired.
func (w *watchdog) Kick(d time.Duration) {
	if w == nil || w.fired.Load() {
		return
	}
	w.timeout.Store(int64(d))
	w.timer.Reset(d)
}

// Feed re-arms the watchdog for the duration it was last armed with.
func (w *watchdog) Feed() {
	if w != nil {
		w.Kick(w.Timeout())
	}
}

// Timeout returns the duration the watchdog was last armed with (what
// ran out, when it fired).
func (w *watchdog) Timeout() time.Duration { return time.Duration(w.timeout.Load()) }

// Stop disarms the watchdog; Kick or Feed arm it again.
func (w *watchdog) Stop() {
	if w != nil {
		w.timer.Stop()
	}
}

// body is a 2xx response body read under the watchdog w (nil: unwatched).
// Each read that returns data re-arms w for idle (or disarms it when idle
// is 0: only the first byte was bounded). Once w has fired, reads fail
// with a stall error. Any other read error (but EOF, and but the caller's
// own cancellation, which the caller classifies) becomes an
// llm.ErrStreamBroken, so whoever reads the body — this package's Stream
// or an SDK's decoder — gets typed errors.
type body struct {
	rc      io.ReadCloser
	w       *watchdog
	idle    time.Duration
	started atomic.Bool // a read has returned data
	// caller is the request's context before the watchdog's: its
	// cancellation is not a failure of the stream.
	caller  context.Context
	errs    errorSource
	onClose func()
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if b.w.Fired() {
		return n, b.stall()
	}
	if n > 0 {
		b.started.Store(true)
		if b.idle > 0 {
			b.w.Kick(b.idle)
		} else {
			b.w.Stop()
		}
	}
	if err != nil && err != io.EOF && b.caller.Err() == nil {
		var pe *llm.ProviderError
		if !errors.As(err, &pe) {
			err = b.errs.broken(err, "the connection dropped mid-stream", "the partial reply is discarded and the turn retried")
		}
	}
	return n, err
}

// Close disarms the watchdog and releases the request.
func (b *body) Close() error {
	b.w.Stop()
	if b.onClose != nil {
		b.onClose()
	}
	return b.rc.Close()
}

// pause disarms the watchdog while the consumer is slow to take an event.
func (b *body) pause() { b.w.Stop() }

// resume re-arms it: for the first byte when none came yet, else for idle.
func (b *body) resume() {
	switch {
	case !b.started.Load():
		b.w.Feed()
	case b.idle > 0:
		b.w.Kick(b.idle)
	}
}

// stall is the error of a body that went silent for the armed timeout.
func (b *body) stall() *llm.ProviderError {
	knob := "ZERO_IDLE_TIMEOUT"
	if !b.started.Load() && b.errs.c.FirstByteTimeout > 0 {
		knob = "ZERO_FIRST_BYTE_TIMEOUT"
	}
	return b.errs.make(llm.ErrStreamStall, ErrStall, fmt.Sprintf("the stream sent nothing for %s", b.w.Timeout()),
		"the partial reply is discarded and the turn retried; raise "+knob+" (seconds) for slow local models")
}

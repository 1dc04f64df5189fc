// Package idle is the watchdog the provider adapters share to turn a
// silent server into llm.ErrStreamStall instead of a hung turn: a timer
// that cancels the request when no response bytes arrive in time, and a
// body wrapper that re-arms it on every read that returned data.
//
// It exists because each adapter had grown its own near-identical copy;
// the subtle parts (a fired watchdog stays fired, a read after firing
// reports ErrStall rather than a bare "context canceled") now live once.
// It knows nothing of wire formats or llm types; each adapter classifies
// ErrStall / Fired into its own *llm.ProviderError.
package idle

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"time"
)

// ErrStall is returned by a Reader or Body read once the watchdog has
// fired: the server sent nothing (no headers, or no body bytes) for the
// armed timeout.
var ErrStall = errors.New("no data within the idle timeout")

// Watchdog calls cancel when it is not kicked within the armed duration.
// Once fired it stays fired and further kicks do nothing. Its methods are
// safe for concurrent use.
type Watchdog struct {
	timer   *time.Timer
	fired   atomic.Bool
	timeout atomic.Int64 // armed duration, ns
}

// New returns a watchdog armed for d that calls cancel (and records that
// it fired) when d passes without a Kick.
func New(d time.Duration, cancel context.CancelFunc) *Watchdog {
	w := &Watchdog{}
	w.timeout.Store(int64(d))
	w.timer = time.AfterFunc(d, func() {
		w.fired.Store(true)
		cancel()
	})
	return w
}

// Fired reports whether the watchdog ran out and cancelled the request.
func (w *Watchdog) Fired() bool { return w.fired.Load() }

// Kick re-arms the watchdog for d from now, unless it already fired.
func (w *Watchdog) Kick(d time.Duration) {
	if w.fired.Load() {
		return
	}
	w.timeout.Store(int64(d))
	w.timer.Reset(d)
}

// Feed re-arms the watchdog for the duration it was last armed with.
func (w *Watchdog) Feed() { w.Kick(w.Timeout()) }

// Timeout returns the duration the watchdog was last armed with (what
// ran out, when it fired).
func (w *Watchdog) Timeout() time.Duration { return time.Duration(w.timeout.Load()) }

// Stop disarms the watchdog; Kick or Feed arm it again.
func (w *Watchdog) Stop() { w.timer.Stop() }

// Reader wraps r so that every read returning data re-arms w for d (0
// means the last armed duration). Once w has fired, reads fail with
// ErrStall (the bytes read, if any, are still returned).
func (w *Watchdog) Reader(r io.Reader, d time.Duration) io.Reader {
	return &reader{r: r, w: w, d: d}
}

// Body is Reader for a response body: Close also stops w and calls
// onClose (nil for none) before closing rc.
func (w *Watchdog) Body(rc io.ReadCloser, d time.Duration, onClose func()) io.ReadCloser {
	return &body{reader: reader{r: rc, w: w, d: d}, rc: rc, onClose: onClose}
}

type reader struct {
	r io.Reader
	w *Watchdog
	d time.Duration
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if r.w.Fired() {
		return n, ErrStall
	}
	if n > 0 {
		if r.d > 0 {
			r.w.Kick(r.d)
		} else {
			r.w.Feed()
		}
	}
	return n, err
}

type body struct {
	reader
	rc      io.ReadCloser
	onClose func()
}

func (b *body) Close() error {
	b.w.Stop()
	if b.onClose != nil {
		b.onClose()
	}
	return b.rc.Close()
}

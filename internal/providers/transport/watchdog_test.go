package transport

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// silent is a body that sends nothing until its context is cancelled, like
// a server that accepted the request and went quiet.
type silent struct{ ctx context.Context }

func (s silent) Read([]byte) (int, error) {
	<-s.ctx.Done()
	return 0, s.ctx.Err()
}

func (s silent) Close() error { return nil }

// watched returns a body over rc under a watchdog armed for first, re-armed
// for idle on data, cancelling ctx when it fires.
func watched(rc io.ReadCloser, first, idle time.Duration, cancel context.CancelFunc, onClose func()) (*body, *watchdog) {
	w := newWatchdog(first, cancel)
	c := &Client{Provider: "p", FirstByteTimeout: first, IdleTimeout: idle}
	return &body{rc: rc, w: w, idle: idle, caller: context.Background(), errs: errorSource{c, "m"}, onClose: onClose}, w
}

func TestSilentBodyStallsWithATypedError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		b, w := watched(silent{ctx}, time.Minute, time.Second, cancel, nil)
		start := time.Now()
		_, err := b.Read(make([]byte, 8))
		var pe *llm.ProviderError
		if !errors.As(err, &pe) || pe.Kind != llm.ErrStreamStall || !errors.Is(err, ErrStall) || pe.Provider != "p" || pe.Model != "m" {
			t.Fatalf("read error %v, want a stream_stall naming p and m", err)
		}
		if got := time.Since(start); got != time.Minute {
			t.Errorf("stalled after %v, want the first-byte timeout (1m)", got)
		}
		if !strings.Contains(pe.Hint, "ZERO_FIRST_BYTE_TIMEOUT") {
			t.Errorf("hint %q does not name the knob that ran out", pe.Hint)
		}
		if !w.Fired() || ctx.Err() == nil {
			t.Fatalf("fired=%v ctx=%v: the watchdog must cancel the request", w.Fired(), ctx.Err())
		}
		// A fired watchdog stays fired.
		w.Kick(time.Hour)
		if !w.Fired() || w.Timeout() != time.Minute {
			t.Fatalf("after Kick: fired=%v timeout=%v", w.Fired(), w.Timeout())
		}
	})
}

func TestBodyPassesDataReArmsAndCloses(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	closed := false
	b, w := watched(io.NopCloser(strings.NewReader("data: {}\n\n")), time.Hour, 2*time.Hour, cancel, func() { closed = true })
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "data: {}\n\n" {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
	if w.Timeout() != 2*time.Hour {
		t.Fatalf("a read with data must re-arm for the idle timeout; armed %v", w.Timeout())
	}
	if err := b.Close(); err != nil || !closed {
		t.Fatalf("Close = %v, onClose called %v", err, closed)
	}
	if w.Fired() || ctx.Err() != nil {
		t.Fatal("a watchdog that was fed must not fire")
	}
}

// failing is a body whose reads fail with err.
type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
func (f failing) Close() error             { return nil }

func TestBodyReadErrorsAreTyped(t *testing.T) {
	b, w := watched(failing{io.ErrUnexpectedEOF}, time.Hour, time.Hour, func() {}, nil)
	defer w.Stop()
	_, err := b.Read(make([]byte, 8))
	if llm.KindOf(err) != llm.ErrStreamBroken || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a broken read gave %v, want stream_broken wrapping the cause", err)
	}
	if _, err := (&body{rc: failing{io.EOF}, caller: context.Background()}).Read(nil); err != io.EOF {
		t.Errorf("EOF became %v", err)
	}
	// The caller's own cancellation is the caller's to classify.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&body{rc: failing{context.Canceled}, caller: ctx}).Read(nil); err != context.Canceled {
		t.Errorf("the caller's cancellation became %v", err)
	}
}

// TestPauseKeepsASlowConsumerFromStalling: while paused the watchdog does
// not run; resume re-arms for the first byte before any data, for the idle
// timeout after.
func TestPauseKeepsASlowConsumerFromStalling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, w := watched(io.NopCloser(strings.NewReader("x")), time.Minute, time.Second, func() {}, nil)
		b.pause()
		time.Sleep(time.Hour)
		if w.Fired() {
			t.Fatal("a paused watchdog fired")
		}
		b.resume()
		if w.Timeout() != time.Minute {
			t.Errorf("resumed before any data for %v, want the first-byte 1m", w.Timeout())
		}
		if _, err := b.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
		b.pause()
		b.resume()
		if w.Timeout() != time.Second {
			t.Errorf("resumed after data for %v, want the idle 1s", w.Timeout())
		}
		w.Stop()
	})
}

func TestFeedKeepsLastDuration(t *testing.T) {
	w := newWatchdog(time.Hour, func() {})
	defer w.Stop()
	for _, d := range []time.Duration{time.Minute, 3 * time.Hour} {
		w.Kick(d)
		w.Feed()
		if w.Timeout() != d {
			t.Fatalf("Timeout after Kick(%v)+Feed = %v", d, w.Timeout())
		}
	}
}

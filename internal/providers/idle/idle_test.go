package idle

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// silent is a body that sends nothing until its context is cancelled, like
// a server that accepted the request and went quiet.
type silent struct{ ctx context.Context }

func (s silent) Read([]byte) (int, error) {
	<-s.ctx.Done()
	return 0, s.ctx.Err()
}

func (s silent) Close() error { return nil }

func TestSilentBodyStalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(w *Watchdog, rc io.ReadCloser) io.Reader
	}{
		{"reader", func(w *Watchdog, rc io.ReadCloser) io.Reader { return w.Reader(rc, 0) }},
		{"body", func(w *Watchdog, rc io.ReadCloser) io.Reader { return w.Body(rc, time.Millisecond, nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w := New(time.Millisecond, cancel)
			_, err := tc.wrap(w, silent{ctx}).Read(make([]byte, 8))
			if !errors.Is(err, ErrStall) {
				t.Fatalf("read error %v, want ErrStall", err)
			}
			if !w.Fired() || ctx.Err() == nil {
				t.Fatalf("fired=%v ctx=%v: the watchdog must cancel the request", w.Fired(), ctx.Err())
			}
			// A fired watchdog stays fired.
			w.Kick(time.Hour)
			if !w.Fired() || w.Timeout() != time.Millisecond {
				t.Fatalf("after Kick: fired=%v timeout=%v", w.Fired(), w.Timeout())
			}
		})
	}
}

func TestBodyPassesDataAndCloses(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := New(time.Hour, cancel)
	closed := false
	b := w.Body(io.NopCloser(strings.NewReader("data: {}\n\n")), 2*time.Hour, func() { closed = true })
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "data: {}\n\n" {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
	if w.Timeout() != 2*time.Hour {
		t.Fatalf("a read with data must re-arm for the body's duration; armed %v", w.Timeout())
	}
	if err := b.Close(); err != nil || !closed {
		t.Fatalf("Close = %v, onClose called %v", err, closed)
	}
	if w.Fired() || ctx.Err() != nil {
		t.Fatal("a watchdog that was fed must not fire")
	}
}

func TestFeedKeepsLastDuration(t *testing.T) {
	w := New(time.Hour, func() {})
	defer w.Stop()
	for _, d := range []time.Duration{time.Minute, 3 * time.Hour} {
		w.Kick(d)
		w.Feed()
		if w.Timeout() != d {
			t.Fatalf("Timeout after Kick(%v)+Feed = %v", d, w.Timeout())
		}
	}
}

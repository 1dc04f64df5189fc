package gemini

import (
	"context"
	"io"
	"sync"
	"time"
)

// watchdog cancels a request when it is not fed within d.
type watchdog struct {
	d     time.Duration
	mu    sync.Mutex
	timer *time.Timer
	fired bool
}

func newWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{d: d}
	w.timer = time.AfterFunc(d, func() {
		w.mu.Lock()
		w.fired = true
		w.mu.Unlock()
		cancel()
	})
	return w
}

func (w *watchdog) hasFired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

func (w *watchdog) feed() {
	if !w.hasFired() {
		w.timer.Reset(w.d)
	}
}

func (w *watchdog) stop() { w.timer.Stop() }

// idleBody feeds the watchdog on every read that returns data.
type idleBody struct {
	rc io.ReadCloser
	w  *watchdog
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.feed()
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.stop()
	return b.rc.Close()
}

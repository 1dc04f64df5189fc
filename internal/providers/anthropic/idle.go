package anthropic

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// errStall is returned when the server sent nothing (no headers, or no
// body bytes) for the idle timeout.
var errStall = errors.New("no data within the idle timeout")

// watchdog cancels a request when it is not fed within d.
type watchdog struct {
	d      time.Duration
	cancel context.CancelFunc
	mu     sync.Mutex
	timer  *time.Timer
	fired  bool
}

func newWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{d: d, cancel: cancel}
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

// idleMiddleware bounds the wait for response headers and every silence
// in the body by d: the request is cancelled and the read fails with
// errStall.
func idleMiddleware(d time.Duration) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		ctx, cancel := context.WithCancel(req.Context())
		w := newWatchdog(d, cancel)
		resp, err := next(req.WithContext(ctx))
		if err != nil {
			w.stop()
			cancel()
			if w.hasFired() {
				return nil, errStall
			}
			return nil, err
		}
		w.feed()
		resp.Body = &idleBody{rc: resp.Body, w: w, cancel: cancel}
		return resp, nil
	}
}

// idleBody feeds the watchdog on every read that returns data.
type idleBody struct {
	rc     io.ReadCloser
	w      *watchdog
	cancel context.CancelFunc
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if b.w.hasFired() {
		return n, errStall
	}
	if n > 0 {
		b.w.feed()
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.stop()
	b.cancel()
	return b.rc.Close()
}

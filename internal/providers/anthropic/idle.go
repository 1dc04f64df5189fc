package anthropic

import (
	"context"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/zero-agent/zero/internal/providers/idle"
)

// idleMiddleware bounds the wait for response headers and every silence
// in the body by d (internal/providers/idle): the request is cancelled and
// the read fails with idle.ErrStall.
func idleMiddleware(d time.Duration) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		ctx, cancel := context.WithCancel(req.Context())
		w := idle.New(d, cancel)
		resp, err := next(req.WithContext(ctx))
		if err != nil {
			w.Stop()
			cancel()
			if w.Fired() {
				return nil, idle.ErrStall
			}
			return nil, err
		}
		w.Feed()
		resp.Body = w.Body(resp.Body, d, cancel)
		return resp, nil
	}
}

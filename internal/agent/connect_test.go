package agent

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/openai"
)

// TestRefusedConnectionEndsTheRunOnceWithoutARetryNote: with no server on
// 127.0.0.1 the run makes the transport's two connect attempts and no
// more (the loop does not retry a connect error), waits well under 2 s
// with the default backoffs, emits no "retrying" warning that its failure
// would contradict, and ends with one error event saying what to do.
func TestRefusedConnectionEndsTheRunOnceWithoutARetryNote(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	synctest.Test(t, func(t *testing.T) {
		var dials atomic.Int32
		d := &net.Dialer{}
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			dials.Add(1)
			return d.DialContext(ctx, network, a)
		}}}
		defer hc.CloseIdleConnections()
		p, err := openai.New(openai.Options{Name: "local", BaseURL: "http://" + addr, HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		start := time.Now()
		res := New(Options{Provider: p, Model: "m", Sink: rec}).Run(context.Background(), "hi")
		waited := time.Since(start)
		if res.StopReason != event.StopProviderError || llm.KindOf(res.Err) != llm.ErrConnect {
			t.Fatalf("stop %s err %v, want provider_error/connect", res.StopReason, res.Err)
		}
		if n := dials.Load(); n != 2 {
			t.Errorf("%d connect attempts, want 2 (the transport's, none from the loop)", n)
		}
		if waited >= 2*time.Second {
			t.Errorf("the run waited %v before failing, want well under 2 s", waited)
		}
		var errs []string
		for _, e := range rec.evs {
			switch e.Type {
			case event.Warning:
				t.Errorf("warning %q: nothing is retried, so nothing may say so", e.Text)
			case event.Error:
				errs = append(errs, e.Text)
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0], "no server is listening on "+addr) || !strings.Contains(errs[0], "--base-url") {
			t.Errorf("error events %q, want one naming %s and --base-url", errs, addr)
		}
		if got := rec.types(); got[0] != event.RunStart || got[len(got)-1] != event.RunEnd {
			t.Errorf("events %v", got)
		}
	})
}

package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// The hint of a transient failure says Zero retries; once the retries are
// spent, the error the user reads says how many were made instead.
func TestSpentRetriesSayHowManyWereMade(t *testing.T) {
	srv := llmtest.NewServer(t)
	fail := llmtest.Reply(llmtest.Error(503, `{"error":{"message":"busy"}}`))
	srv.Script(fail, fail, fail)
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", RetryBase: time.Millisecond, Retries: 2})
	res := a.Run(context.Background(), "hi")
	if res.Err == nil {
		t.Fatal("the run succeeded")
	}
	msg := res.Err.Error()
	if !strings.Contains(msg, "Zero retried 2 times") || strings.Contains(msg, "Zero retries") {
		t.Fatalf("final error: %s", msg)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want the first and 2 retries", n)
	}
}

// TestRetryAfterIsCapped: a Retry-After over maxRetryWait stops the run
// with a provider error naming the wait; a shorter one is waited exactly,
// without jitter on top.
func TestRetryAfterIsCapped(t *testing.T) {
	limited := func(header, value string) llmtest.Turn {
		return llmtest.Reply(llmtest.Error(429, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`).WithHeader(header, value))
	}
	tests := []struct {
		name     string
		header   string
		value    string
		stop     event.StopReason
		requests int
		errHas   string
		waited   string // the wait the warning names
	}{
		{"an hour", "Retry-After", "3600", event.StopProviderError, 1, "asked to wait 1h0m0s", ""},
		{"61 seconds", "Retry-After", "61", event.StopProviderError, 1, "asked to wait 1m1s", ""},
		{"30 ms, exactly", "retry-after-ms", "30", event.StopCompleted, 2, "", "retrying in 30ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(limited(tc.header, tc.value), llmtest.Reply(llmtest.Text("hello")))
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "hi")
			if res.StopReason != tc.stop || len(srv.Requests()) != tc.requests {
				t.Fatalf("stop %s after %d requests (err %v), want %s after %d", res.StopReason, len(srv.Requests()), res.Err, tc.stop, tc.requests)
			}
			if tc.errHas != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), tc.errHas) || llm.KindOf(res.Err) != llm.ErrRateLimit) {
				t.Fatalf("err %v (kind %s), want %q", res.Err, llm.KindOf(res.Err), tc.errHas)
			}
			if tc.waited != "" && !strings.Contains(rec.texts(event.Warning), tc.waited) {
				t.Fatalf("warnings %q, want %q", rec.texts(event.Warning), tc.waited)
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		name     string
		base     time.Duration
		attempt  int
		asked    time.Duration
		min, max time.Duration
	}{
		{"own backoff jittered", time.Second, 1, 0, 2 * time.Second, 2500 * time.Millisecond},
		{"server longer: exact", time.Second, 0, 7 * time.Second, 7 * time.Second, 7 * time.Second},
		{"own longer than server", 4 * time.Second, 0, time.Second, 4 * time.Second, 5 * time.Second},
		{"own backoff capped", time.Second, 10, 0, maxRetryWait, maxRetryWait},
		{"huge attempt capped", time.Second, 80, 0, maxRetryWait, maxRetryWait},
	}
	for _, tc := range tests {
		for range 50 {
			if got := retryDelay(tc.base, tc.attempt, tc.asked); got < tc.min || got > tc.max {
				t.Fatalf("%s: %s not in [%s, %s]", tc.name, got, tc.min, tc.max)
			}
		}
	}
}

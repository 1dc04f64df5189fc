package agent

import (
	"context"
	"strings"
	"testing"
	"time"

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

package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

func TestOnStopSendsTheModelBackUntilItLetsGo(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("done")), llmtest.Reply(llmtest.Text("ran the tests too")))
	var seen []bool
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(), RetryBase: time.Millisecond,
		OnStop: func(_ context.Context, active bool) string {
			seen = append(seen, active)
			if active {
				return ""
			}
			return "run the tests first"
		}})
	res := a.Run(context.Background(), "fix it")
	if res.StopReason != event.StopCompleted || res.Final != "ran the tests too" {
		t.Fatalf("Run = %+v", res)
	}
	if len(seen) != 2 || seen[0] || !seen[1] {
		t.Errorf("OnStop saw active %v, want [false true]", seen)
	}
	reqs := srv.Requests()
	if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, "run the tests first") {
		t.Errorf("the Stop answer did not reach the model")
	}
}

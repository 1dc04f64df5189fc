package agent

import (
	"context"
	"encoding/json"
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
		OnStop: func(_ context.Context, active bool, _ string) string {
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

func TestHaltedEndsTheRunAfterTheTools(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a"}`)), llmtest.Reply(llmtest.Text("never sent")))
	halt := ""
	read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(context.Context, json.RawMessage) (tools.Result, error) {
		halt = "a PostToolUse hook stopped the run: budget spent"
		return tools.Result{Content: "x"}, nil
	}}
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(read), RetryBase: time.Millisecond,
		Halted: func() string { why := halt; halt = ""; return why }})
	res := a.Run(context.Background(), "read a")
	if res.StopReason != event.StopError || res.Err == nil || !strings.Contains(res.Err.Error(), "budget spent") || len(srv.Requests()) != 1 {
		t.Fatalf("Run = %+v after %d requests", res, len(srv.Requests()))
	}
}

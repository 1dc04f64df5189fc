package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// TestCutOffReplyIsNotAnAnswer: a reply cut off by the output-token limit
// (finish_reason "length") is not a final answer. Without tool calls it is
// answered with a nudge, at most twice per run; a third one stops the run;
// the final answer is the cut parts and the continuation together. A cut
// tool call with invalid arguments gets an error naming the limit.
func TestCutOffReplyIsNotAnAnswer(t *testing.T) {
	cut := func(s string) llmtest.Turn { return llmtest.Reply(llmtest.Text(s), llmtest.Finish("length")) }
	done := llmtest.Reply(llmtest.Text("all done"))
	tests := []struct {
		name     string
		script   []llmtest.Turn
		stop     event.StopReason
		final    string
		requests int
		nudges   int // cut nudges in the last request
	}{
		{"one cut, then an answer", []llmtest.Turn{cut("The plan is "), done}, event.StopCompleted, "The plan is all done", 2, 1},
		{"two cuts, then an answer", []llmtest.Turn{cut("The plan is "), cut("first, "), done}, event.StopCompleted, "The plan is first, all done", 3, 2},
		{"cut, a tool call, then an answer", []llmtest.Turn{cut("The plan is "), llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`)), done}, event.StopCompleted, "all done", 3, 1},
		{"three cuts: stop", []llmtest.Turn{cut("The plan is"), cut("first"), cut("then"), done}, event.StopError, "", 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "plan it")
			if res.StopReason != tc.stop || res.Final != tc.final {
				t.Fatalf("stop %s final %q err %v, want %s %q", res.StopReason, res.Final, res.Err, tc.stop, tc.final)
			}
			if tc.stop == event.StopError && (res.Err == nil || !strings.Contains(res.Err.Error(), "keep hitting the output limit")) {
				t.Fatalf("err %v", res.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			nudges := 0
			for _, m := range wireMessages(t, reqs[len(reqs)-1]) {
				if c, _ := m["content"].(string); m["role"] == "user" && c == cutNudge {
					nudges++
				}
			}
			if nudges != tc.nudges {
				t.Fatalf("last request carries %d cut nudges, want %d", nudges, tc.nudges)
			}
			if w := rec.texts(event.Warning); !strings.Contains(w, "output token limit") {
				t.Fatalf("no warning: %q", w)
			}
		})
	}
}

// TestCutOffToolCallSaysWhy: a tool call cut off mid-arguments by the
// output limit is not repaired or run; its error result says the limit cut
// it off.
func TestCutOffToolCallSaysWhy(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"a.go","content":"package a\n\nfunc`).WithID("w1"), llmtest.Finish("length")),
		llmtest.Reply(llmtest.Text("I will write it in parts.")))
	ran := 0
	write := &fakeTool{name: "write_file", side: tools.SideWrite, run: func(context.Context, json.RawMessage) (tools.Result, error) {
		ran++
		return tools.Result{Content: "written"}, nil
	}}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(write), Gate: allow, RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "write a.go")
	if res.StopReason != event.StopCompleted || ran != 0 {
		t.Fatalf("stop %s ran %d err %v", res.StopReason, ran, res.Err)
	}
	var got string
	for _, m := range wireMessages(t, srv.Requests()[1]) {
		if m["role"] == "tool" {
			got, _ = m["content"].(string)
		}
	}
	if !strings.Contains(got, "cut off by the output token limit") || !strings.Contains(got, "write the file in parts") {
		t.Fatalf("result %q", got)
	}
}

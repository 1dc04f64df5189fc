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

// objectGate allows a call only when its arguments parse as a JSON object,
// as the sandbox engine does before it matches a command.
func objectGate(seen *[]string) Gate {
	return GateFunc(func(_ context.Context, c llm.ToolCall, _ tools.Tool) Decision {
		*seen = append(*seen, c.Arguments)
		var v map[string]any
		if json.Unmarshal([]byte(c.Arguments), &v) != nil {
			return Decision{Reason: "the arguments are not a JSON object"}
		}
		return Decision{Allow: true}
	})
}

// TestRepairedArgumentsReachGateAndTool: native arguments repaired by
// textcalls.RepairArguments reach the gate and the tool repaired; the
// history keeps what the model sent.
func TestRepairedArgumentsReachGateAndTool(t *testing.T) {
	tests := []struct {
		name, raw string
	}{
		{"trailing comma", `{"command": "ls",}`},
		{"single quotes", `{'command': 'ls'}`},
		{"unquoted key", `{command: "ls"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.ToolCall("bash", tc.raw).WithID("c1")), llmtest.Reply(llmtest.Text("listed")))
			var got []string
			bash := &fakeTool{name: "bash", side: tools.SideShell, run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
				got = append(got, string(args))
				return tools.Result{Content: "a.go"}, nil
			}}
			var gated []string
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(bash), Gate: objectGate(&gated), RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "list")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("run %+v", res)
			}
			var v map[string]any
			if len(gated) != 1 || json.Unmarshal([]byte(gated[0]), &v) != nil || v["command"] != "ls" {
				t.Fatalf("gate saw %q", gated)
			}
			if len(got) != 1 || json.Unmarshal([]byte(got[0]), &v) != nil || v["command"] != "ls" {
				t.Fatalf("tool got %q", got)
			}
			msgs := wireMessages(t, srv.Requests()[1])
			for _, m := range msgs {
				if m["role"] == "tool" && strings.Contains(m["content"].(string), "permission denied") {
					t.Fatalf("denied: %v", m)
				}
			}
			hist := a.History()
			if calls := hist[1].ToolCalls(); len(calls) != 1 || calls[0].Arguments != tc.raw {
				t.Fatalf("history call %+v, want raw %q", calls, tc.raw)
			}
		})
	}
}

// TestNativeCallArgumentsRepaired: a structured call with sloppy JSON
// arguments is repaired like a text call; the repair is a warning; the log
// keeps the raw arguments.
func TestNativeCallArgumentsRepaired(t *testing.T) {
	tests := []struct {
		raw, want string
		runs      bool
	}{
		{`{"path":"main.go",}`, `{"path":"main.go"}`, true},
		{`{'path': 'main.go'}`, `{"path":"main.go"}`, true},
		{`"{\"path\":\"main.go\"}"`, `{"path":"main.go"}`, true},
		{`{"path":"main.go`, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			var got []string
			tool := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
				got = append(got, string(args))
				return tools.Result{Content: "package main"}, nil
			}}
			p := &scripted{turns: [][]llm.Event{turn(call(0, "c1", "read_file", tc.raw)), {text("ok"), finish()}}}
			rec := &recorder{}
			New(Options{Provider: p, Model: "m", Sink: rec, Tools: tools.NewRegistry(tool)}).Run(context.Background(), "go")
			if tc.runs != (len(got) == 1) || tc.runs && got[0] != tc.want {
				t.Fatalf("tool ran with %q, want %q (runs %v)", got, tc.want, tc.runs)
			}
			if warned := strings.Contains(rec.texts(event.Warning), "repaired the invalid JSON arguments of tool call c1"); warned != tc.runs {
				t.Fatalf("repair warning %v: %s", warned, rec.texts(event.Warning))
			}
			logged := false
			for _, e := range rec.evs {
				if e.Type == event.Message && e.Message != nil {
					for _, c := range e.Message.ToolCalls() {
						logged = logged || c.Arguments == tc.raw
					}
				}
			}
			if !logged {
				t.Fatal("raw arguments not in the log")
			}
		})
	}
}

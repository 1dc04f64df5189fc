package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// countUser counts user messages with text starting like prefix in the
// last request.
func countUser(p *scripted, prefix string) int {
	n := 0
	for _, m := range p.reqs[len(p.reqs)-1].Messages {
		if m.Role == llm.RoleUser && strings.HasPrefix(m.Text(), prefix) {
			n++
		}
	}
	return n
}

func TestStuckDetection(t *testing.T) {
	callTurn := func(i int, path string) []llm.Event {
		return []llm.Event{call(0, fmt.Sprint("c", i), "read_file", fmt.Sprintf(`{"path": %q}`, path)), finish()}
	}
	script := func(paths ...string) [][]llm.Event {
		var turns [][]llm.Event
		for i, p := range paths {
			turns = append(turns, callTurn(i, p))
		}
		return append(turns, []llm.Event{text("final"), finish()})
	}
	cases := []struct {
		name     string
		turns    [][]llm.Event
		changing bool // the tool's result differs on every call
		want     event.StopReason
		nudges   int
	}{
		{"same call same result", script("x", "x", "x", "x"), false, event.StopStuck, 1},
		{"A B A B cycle", script("a", "b", "a", "b", "a", "b", "a", "b"), false, event.StopStuck, 1},
		{"five different files is progress", script("1", "2", "3", "4", "5"), false, event.StopCompleted, 0},
		{"same call, new result each time", script("x", "x", "x", "x"), true, event.StopCompleted, 0},
		{"one repeat then recovery", script("x", "x", "y", "z"), false, event.StopCompleted, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
				n++
				if tc.changing {
					return tools.Result{Content: fmt.Sprintf("version %d", n)}, nil
				}
				return tools.Result{Content: "content of " + string(args)}, nil
			}}
			p := &scripted{turns: tc.turns}
			res := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(read)}).Run(context.Background(), "go")
			if res.StopReason != tc.want {
				t.Fatalf("stop %s, want %s (%v)", res.StopReason, tc.want, res.Err)
			}
			if got := countUser(p, "You are repeating"); got != tc.nudges {
				t.Fatalf("%d nudges, want %d", got, tc.nudges)
			}
			if tc.want == event.StopStuck && (res.Err == nil || !strings.Contains(res.Err.Error(), "after a nudge")) {
				t.Fatalf("stuck without a clear error: %v", res.Err)
			}
		})
	}
}

func TestCompletionCheck(t *testing.T) {
	ok := 0
	shell := &fakeTool{name: "bash", side: tools.SideShell, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: "ok  \tpkg\t0.1s", ExitCode: &ok}, nil
	}}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	cases := []struct {
		name   string
		first  []llm.Event // turns before the final answer
		answer string
		check  bool
		nudge  string // expected nudge; "" for none
		warned bool
	}{
		{"work remains", nil, "I fixed the parser.\nNext, I'll update the docs.", true, remainsNudge, true},
		{"todo left", nil, "Changed a.go.\nTODO: handle the empty case.", true, remainsNudge, true},
		{"unverified tests", nil, "Fixed it; all tests pass.", true, unverifiedNudge, true},
		{"verified tests", []llm.Event{call(0, "b1", "bash", `{"command":"go test ./..."}`), finish()}, "Fixed it; all tests pass.", true, "", false},
		{"honest answer", nil, "Renamed the function and updated its two callers.", true, "", false},
		{"check off warns only", nil, "I will now run the tests.", false, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var turns [][]llm.Event
			if tc.first != nil {
				turns = append(turns, tc.first)
			}
			turns = append(turns, []llm.Event{text(tc.answer), finish()}, []llm.Event{text("Done and verified."), finish()})
			p := &scripted{turns: turns}
			rec := &recorder{}
			a := New(Options{Provider: p, Model: "m", Sink: rec, Gate: allow, Tools: tools.NewRegistry(shell), CompletionCheck: tc.check})
			res := a.Run(context.Background(), "fix it")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("got %+v", res)
			}
			last := p.reqs[len(p.reqs)-1].Messages
			nudged := last[len(last)-1].Role == llm.RoleUser && last[len(last)-1].Text() == tc.nudge
			switch {
			case tc.nudge != "" && (!nudged || res.Final != "Done and verified."):
				t.Fatalf("want nudge %q; final %q, last message %+v", tc.nudge, res.Final, last[len(last)-1])
			case tc.nudge == "" && res.Final != tc.answer:
				t.Fatalf("unexpected nudge: final %q", res.Final)
			}
			if got := strings.Contains(rec.texts(event.Warning), "final answer"); got != tc.warned {
				t.Fatalf("warning shown %v, want %v: %q", got, tc.warned, rec.texts(event.Warning))
			}
		})
	}
}

// TestDuplicateCallsInOneReplyCountOnce: two identical calls in one reply
// are one duplicate request for stuck detection, not a loop: the run is not
// nudged after the first reply, and not stopped as stuck after two.
func TestDuplicateCallsInOneReplyCountOnce(t *testing.T) {
	readA := func() llmtest.Step { return llmtest.ToolCall("read_file", `{"path":"a.go"}`) }
	readB := llmtest.ToolCall("read_file", `{"path":"b.go"}`)
	done := llmtest.Reply(llmtest.Text("Both files are empty."))
	tests := []struct {
		name   string
		script []llmtest.Turn
		nudges int
	}{
		{"duplicate, then progress", []llmtest.Turn{llmtest.Reply(readA(), readA()), llmtest.Reply(readB), done}, 0},
		{"duplicate twice: one nudge, no stop", []llmtest.Turn{llmtest.Reply(readA(), readA()), llmtest.Reply(readA(), readA()), done}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", RetryBase: time.Millisecond,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
			res := a.Run(context.Background(), "read a.go and b.go")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("stop %s (err %v), want completed", res.StopReason, res.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			nudges := strings.Count(string(reqs[2].Body), "You are repeating the same tool call")
			if nudges != tc.nudges {
				t.Fatalf("%d stuck nudges sent, want %d", nudges, tc.nudges)
			}
		})
	}
}

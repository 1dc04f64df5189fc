package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// TestStopErrorKinds: the error event that ends a run carries a meaningful
// kind: a prompt that does not fit even after compaction is
// context_overflow, a provider error keeps its kind, and the loop's own
// stops (two empty replies, max_turns) carry none rather than "unknown". An
// empty reply is recorded, so the nudge after it is not merged into the
// prompt.
func TestStopErrorKinds(t *testing.T) {
	huge := strings.Repeat("x", 40000)
	loop := llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`))
	tests := []struct {
		name    string
		window  int // the agent's ContextWindow; 0 unknown
		server  int // the fake server's window in tokens
		prompt  string
		script  []llmtest.Turn
		maxTurn int
		stop    event.StopReason
		kind    llm.ErrorKind
	}{
		{"too big for the known window", 500, 1 << 20, huge, nil, 0, event.StopError, llm.ErrContextOverflow},
		{"server overflow, compaction cannot help", 0, 1000, huge, nil, 0, event.StopError, llm.ErrContextOverflow},
		{"two empty replies", 0, 1 << 20, "go", []llmtest.Turn{llmtest.Reply(), llmtest.Reply()}, 0, event.StopError, ""},
		{"max turns", 0, 1 << 20, "go", []llmtest.Turn{loop, loop, loop}, 2, event.StopMaxTurns, ""},
		{"provider auth error", 0, 1 << 20, "go", []llmtest.Turn{llmtest.Reply(llmtest.Error(401, `{"error":{"message":"bad key","type":"invalid_request_error"}}`))}, 0, event.StopProviderError, llm.ErrAuth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSmallServer(t, tc.server)
			s.main.Script(tc.script...)
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, ContextWindow: tc.window, MaxTurns: tc.maxTurn,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond, Retries: -1})
			res := a.Run(context.Background(), tc.prompt)
			if res.StopReason != tc.stop {
				t.Fatalf("stop %s (err %v), want %s", res.StopReason, res.Err, tc.stop)
			}
			var errs []event.Event
			for _, e := range rec.evs {
				if e.Type == event.Error {
					errs = append(errs, e)
				}
			}
			if len(errs) != 1 || errs[0].ErrorKind != tc.kind {
				t.Fatalf("error events %+v, want one of kind %q", errs, tc.kind)
			}
			if w := rec.texts(event.Warning); strings.Contains(w, "merged two consecutive user messages") {
				t.Fatalf("repair warned: %s", w)
			}
		})
	}
}

// TestResumeAfterProviderErrorAlternates: after a failed turn the resumed
// history ends with a user message; the next prompt must not make two user
// messages in a row.
func TestResumeAfterProviderErrorAlternates(t *testing.T) {
	hist := []llm.Message{
		llm.TextMessage(llm.RoleUser, "first task"),
		llm.TextMessage(llm.RoleAssistant, "done"),
		llm.TextMessage(llm.RoleUser, "second task"), // its request failed
	}
	p := &scripted{turns: [][]llm.Event{{text("ok"), finish()}}}
	rec := &recorder{}
	res := New(Options{Provider: p, Model: "m", History: hist, Sink: rec}).Run(context.Background(), "try again")
	if res.StopReason != event.StopCompleted {
		t.Fatalf("%+v", res)
	}
	msgs := p.reqs[0].Messages
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role == msgs[i-1].Role {
			t.Fatalf("messages %d and %d are both %s", i-1, i, msgs[i].Role)
		}
	}
	if last := msgs[len(msgs)-1]; last.Text() != "second task\n\ntry again" {
		t.Fatalf("merged prompt %q", last.Text())
	}
	if !strings.Contains(rec.texts(event.Warning), "merged two consecutive user messages") {
		t.Fatal("merge not reported")
	}
}

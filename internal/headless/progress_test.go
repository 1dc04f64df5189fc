package headless

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestProgressNotesASilentModel(t *testing.T) {
	var out lockedBuffer
	p := newProgressEvery(&out, 40*time.Millisecond)
	p.Emit(event.Event{Type: event.RunStart})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "no answer from the model") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "no answer from the model") {
		t.Fatalf("no waiting note: %q", out.String())
	}
	p.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopCompleted})
	p.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopCompleted}) // a second end must not panic
}

// TestProgressShowsNudgedReplies: a reply the loop answered with a nudge
// is shown on stderr, followed by the loop's warning and the nudge; the
// final answer (stdout's) never is; warnings during a turn that goes on
// are shown without the pending text.
func TestProgressShowsNudgedReplies(t *testing.T) {
	user := func(s string) event.Event {
		m := llm.TextMessage(llm.RoleUser, s)
		return event.Event{Type: event.Message, Message: &m}
	}
	assistant := func(s string) event.Event {
		m := llm.TextMessage(llm.RoleAssistant, s)
		return event.Event{Type: event.Message, Message: &m}
	}
	text := func(s string) event.Event { return event.Event{Type: event.Text, Text: s} }
	warn := func(s string) event.Event { return event.Event{Type: event.Warning, Text: s} }
	start := event.Event{Type: event.RunStart, Prompt: "fix it"}
	end := event.Event{Type: event.RunEnd, StopReason: event.StopCompleted}
	results := llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "c1", Content: "ok"}}}}
	for _, tc := range []struct {
		name   string
		events []event.Event
		want   []string
	}{
		{
			name: "unverified claim",
			events: []event.Event{start, user("fix it"), text("All tests "), text("pass."), assistant("All tests pass."),
				warn("the final answer claims tests pass; nudging once"), user("Run the tests."),
				text("Done, verified."), assistant("Done, verified."), end},
			want: []string{"All tests pass.", "! the final answer claims tests pass; nudging once", "↻ Zero to the model: Run the tests.", "— completed"},
		},
		{
			name: "cut off by the output limit",
			events: []event.Event{start, user("fix it"), text("The first half"),
				warn("the reply was cut off; asking the model to continue (1 of 2)"), assistant("The first half"), user("Continue where you stopped."),
				text("the second half."), assistant("the second half."), end},
			want: []string{"The first half", "! the reply was cut off; asking the model to continue (1 of 2)", "↻ Zero to the model: Continue where you stopped.", "— completed"},
		},
		{
			name: "empty reply",
			events: []event.Event{start, user("fix it"), warn("empty reply from the model; nudging once"), assistant("(empty reply)"), user("Your last reply was empty."),
				text("Answer."), assistant("Answer."), end},
			want: []string{"! empty reply from the model; nudging once", "↻ Zero to the model: Your last reply was empty.", "— completed"},
		},
		{
			name: "retry inside a turn",
			events: []event.Event{start, user("fix it"), text("Partial "), warn("timeout; retrying in 1s (attempt 1 of 3)"),
				text("answer."), assistant("Partial answer."), end},
			want: []string{"! timeout; retrying in 1s (attempt 1 of 3)", "— completed"},
		},
		{
			name: "tool results are not nudges",
			events: []event.Event{start, user("fix it"), text("Looking."), {Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "c1", Name: "list_dir", Arguments: `{}`}},
				{Type: event.Message, Message: &results}, text("Final."), assistant("Final."), end},
			want: []string{"Looking.", "⚙ list_dir({})", "— completed"},
		},
		{
			name: "warning about the final answer",
			events: []event.Event{start, user("fix it"), text("Final."), assistant("Final."), warn("the final answer says work remains"),
				{Type: event.Final, Text: "Final."}, end},
			want: []string{"! the final answer says work remains", "— completed"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &progress{w: &out, done: make(chan struct{})}
			for _, e := range tc.events {
				if e.Type == event.RunEnd {
					e.Totals = &event.Totals{Turns: 2}
				}
				p.Emit(e)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if strings.HasPrefix(l, "— ") {
					l = strings.Fields(l)[0] + " " + strings.Fields(l)[1]
				}
				got = append(got, l)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("stderr:\n%s\nwant lines:\n%s", out.String(), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestProgressReleasesAHeldWarningAfterWarnHold: a warning behind a
// pending reply is not held for ever (a retry's backoff can last a minute).
func TestProgressReleasesAHeldWarningAfterWarnHold(t *testing.T) {
	var out bytes.Buffer
	p := &progress{w: &out, done: make(chan struct{})}
	p.Emit(event.Event{Type: event.Text, Text: "Partial"})
	p.Emit(event.Event{Type: event.Warning, Text: "rate limited; retrying in 30s"})
	p.releaseStale(p.heldAt.Add(warnHold / 2))
	if out.Len() != 0 {
		t.Fatalf("released before warnHold: %q", out.String())
	}
	p.releaseStale(p.heldAt.Add(warnHold))
	if out.String() != "! rate limited; retrying in 30s\n" {
		t.Fatalf("after warnHold: %q", out.String())
	}
}

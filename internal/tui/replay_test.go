package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// A turn that read a file, ran the tests and answered at length, as the
// loop emits it live and as the session log gives it back on resume.
var (
	replayPrompt = "why do the tests fail"
	replayCalls  = []llm.ToolCall{
		{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "c2", Name: "bash", Arguments: `{"command":"go test ./..."}`},
	}
	replayExit     = 1
	replayOutcomes = []event.ToolOutcome{
		{CallID: "c1", Name: "read_file", Content: "1\tpackage a\n2\tfunc F() int { return 2 }\n", ElapsedMs: 3},
		{CallID: "c2", Name: "bash", Content: "--- FAIL: TestF\nFAIL\n[exit code 1]\n", ExitCode: &replayExit, ElapsedMs: 1200, IsError: true},
	}
	replayReply = "F returns 2 where the test wants 1, so TestF fails on every run; change the constant in a.go and the whole package passes again.\n\n- a.go: `return 1`"
)

// replayLive plays the turn in the app and returns the scrollback from
// its prompt on.
func replayLive(t *testing.T, width int) []string {
	f := newFake()
	f.script[replayPrompt] = func(_ context.Context, _ Turn, sink event.Sink) event.StopReason {
		sink.Emit(event.Event{Type: event.Text, Text: "Let me look.\n"})
		for i := range replayCalls {
			sink.Emit(event.Event{Type: event.ToolCall, ToolCall: &replayCalls[i]})
			sink.Emit(event.Event{Type: event.ToolResult, Result: &replayOutcomes[i]})
		}
		sink.Emit(event.Event{Type: event.Text, Text: replayReply})
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{Width: width, Height: 40})
	d.typeText(replayPrompt)
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	lines := d.plainScrollback()
	return lines[slices.Index(lines, "› "+replayPrompt):]
}

// replayResumed resumes the same turn at start and returns the
// scrollback from the resumed heading on.
func replayResumed(t *testing.T, width int) []string {
	r := Resumed{ID: "s7", Outcomes: map[string]event.ToolOutcome{}}
	r.History = []llm.Message{llm.TextMessage(llm.RoleUser, replayPrompt)}
	for i, c := range replayCalls {
		step := llm.Message{Role: llm.RoleAssistant}
		if i == 0 {
			step = llm.TextMessage(llm.RoleAssistant, "Let me look.\n")
		}
		step.Parts = append(step.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &replayCalls[i]})
		o := replayOutcomes[i]
		r.History = append(r.History, step, llm.ToolResultMessage(llm.ToolResult{CallID: o.CallID, Name: o.Name, Content: o.Content, IsError: o.IsError}))
		r.Outcomes[c.ID] = o
	}
	r.History = append(r.History, llm.TextMessage(llm.RoleAssistant, replayReply))
	d := newDriver(t, newFake(), Options{Width: width, Height: 40, Resumed: &r})
	d.settle()
	lines := d.plainScrollback()
	return lines[slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "resumed session s7") }):]
}

// TestResumedTurnShowsToolCardsAndReplyAsLive: a resumed session shows
// each tool call card and its result headline once, in order, and its
// replies wrapped as the live app wrapped them, line for line.
func TestResumedTurnShowsToolCardsAndReplyAsLive(t *testing.T) {
	for _, width := range []int{60, 100} {
		live, resumed := replayLive(t, width), replayResumed(t, width)
		shown := resumed[1:] // after the heading
		for len(shown) > 0 && shown[len(shown)-1] == "" {
			shown = shown[:len(shown)-1]
		}
		for len(live) > 0 && live[len(live)-1] == "" {
			live = live[:len(live)-1]
		}
		if !slices.Equal(shown, live) {
			t.Fatalf("width %d: resumed\n%s\nlive\n%s", width, strings.Join(shown, "\n"), strings.Join(live, "\n"))
		}
		want := []string{"› " + replayPrompt, "Let me look.", "⚙ read_file(a.go)", "↳ 2 lines", "⚙ bash(go test ./...)", "↳ exit 1 · 1.2s", "F returns 2"}
		at := 0
		for _, w := range want {
			i := slices.IndexFunc(shown[at:], func(l string) bool { return strings.HasPrefix(l, w) })
			if i < 0 {
				t.Fatalf("width %d: %q missing or out of order:\n%s", width, w, strings.Join(shown, "\n"))
			}
			at += i + 1
			if n := countPrefix(shown, w); n != 1 {
				t.Errorf("width %d: %q shown %d times", width, w, n)
			}
		}
		if i := slices.IndexFunc(shown, func(l string) bool { return strings.HasPrefix(l, "F returns 2") }); shown[i+1] == "" || strings.HasPrefix(shown[i+1], " ") {
			t.Errorf("width %d: the reply's wrapped line is not at column 0 under its first: %q", width, shown[i:i+2])
		}
	}
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

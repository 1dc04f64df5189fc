package agent

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

var promptDate = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// The default prompt's bytes are measured (first-request size, prompt
// caching): this is the exact text every default run sends.
func TestDefaultSystemPromptBytes(t *testing.T) {
	want := `You are Zero, a coding agent working in the user's repository through tools.
- Explore before editing: grep or glob to find code, then read_file the relevant line ranges.
- Edit with edit_file (exact unique old_string, include enough context); write_file only for new files.
- After changing code, run the project's tests or build with bash and fix what fails.
- Keep going until the task is done; do not ask for confirmation of routine steps.
- Never claim tests pass unless you ran them and they passed.
- Final answer: short, plain text: what you changed and how you verified it.
Workspace: /w
OS: ` + runtime.GOOS + "/" + runtime.GOARCH + `
Date: 2026-01-02

Use tabs.
`
	if got := SystemPrompt("/w", promptDate, "  Use tabs.\n"); got != want {
		t.Errorf("default system prompt changed:\n%s\nwant:\n%s", got, want)
	}
}

// Plan mode's prompt tells the model it is planning: read-only, no edits,
// a plan as the answer; the workspace lines and guidelines are the same.
func TestPlanSystemPromptSaysReadOnlyNoEdits(t *testing.T) {
	plan := PlanSystemPrompt("/w", promptDate, "Use tabs.")
	for _, s := range []string{"You are in plan mode", "Read-only tools only", "make no edits", "Final answer: a numbered plan"} {
		if !strings.Contains(plan, s) {
			t.Errorf("plan prompt lacks %q:\n%s", s, plan)
		}
	}
	if strings.Contains(plan, "Edit with edit_file") || strings.Contains(plan, "what you changed") {
		t.Errorf("plan prompt still gives editing instructions:\n%s", plan)
	}
	def := SystemPrompt("/w", promptDate, "Use tabs.")
	tail := def[strings.Index(def, "Workspace: "):]
	if !strings.HasSuffix(plan, tail) {
		t.Errorf("plan prompt does not end with the default's workspace lines and guidelines %q:\n%s", tail, plan)
	}
	if len(plan) > len(def)+256 {
		t.Errorf("plan prompt is %d bytes, default %d: keep it about as small", len(plan), len(def))
	}
}

// SetSystem changes the system prompt of the requests after it and nothing
// else: the history sent is the previous request's plus the new messages.
func TestSetSystemChangesLaterRequestsOnly(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{{text("looked"), finish()}, {text("1. do it"), finish()}, {text("done"), finish()}}}
	def, plan := SystemPrompt("/w", promptDate, ""), PlanSystemPrompt("/w", promptDate, "")
	a := New(Options{Provider: p, Model: "m", System: def})
	run := func(prompt string) {
		t.Helper()
		if res := a.Run(context.Background(), prompt); res.StopReason != event.StopCompleted {
			t.Fatalf("%s: %+v", prompt, res)
		}
	}
	run("look")
	a.SetSystem(plan)
	run("plan it")
	a.SetSystem(def)
	run("do it")
	for i, want := range []string{def, plan, def} {
		if p.reqs[i].System != want {
			t.Errorf("request %d system prompt:\n%s\nwant:\n%s", i, p.reqs[i].System, want)
		}
	}
	for i := 1; i < len(p.reqs); i++ {
		prev, cur := p.reqs[i-1].Messages, p.reqs[i].Messages
		if len(cur) <= len(prev) || !slices.EqualFunc(prev, cur[:len(prev)], func(x, y llm.Message) bool { return x.Role == y.Role && x.Text() == y.Text() }) {
			t.Errorf("request %d does not extend request %d's messages", i, i-1)
		}
	}
	if r := a.ContextReport(); r.SystemBytes != len(def) {
		t.Errorf("/context counts a %d-byte system prompt, want %d", r.SystemBytes, len(def))
	}
}

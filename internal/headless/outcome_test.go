package headless

import (
	"context"
	"fmt"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func TestEverySubtypeHasOneExitCodeAndErrorFlag(t *testing.T) {
	cases := []struct {
		stop         event.StopReason
		cause        error
		schemaFailed bool
		want         Subtype
		exit         int
		isError      bool
	}{
		{event.StopCompleted, nil, false, Success, 0, false},
		{event.StopCompleted, nil, true, SchemaFailed, 8, true},
		{event.StopMaxTurns, nil, false, MaxTurns, 4, true},
		{event.StopProviderError, nil, false, ProviderError, 3, true},
		{event.StopInterrupted, context.Canceled, false, Interrupted, 130, true},
		{event.StopInterrupted, fmt.Errorf("%w ($2 > $1)", errBudget), false, Budget, 6, true},
		{event.StopCompleted, errBudget, false, Budget, 6, true},
		{event.StopInterrupted, fmt.Errorf("%w in 3 turns", errAllDenied), false, PermissionDenied, 7, true},
		{event.StopStuck, nil, false, Failed, 4, true},
		{event.StopError, nil, false, Failed, 4, true},
	}
	for _, c := range cases {
		got := classify(c.stop, c.cause, c.schemaFailed)
		if got != c.want || got.ExitCode() != c.exit || got.IsError() != c.isError {
			t.Errorf("classify(%s, %v, %v) = %s (exit %d, isError %v), want %s (exit %d, isError %v)",
				c.stop, c.cause, c.schemaFailed, got, got.ExitCode(), got.IsError(), c.want, c.exit, c.isError)
		}
	}
	for s := range outcomes {
		if s != Success && !s.IsError() {
			t.Errorf("%s is not an error", s)
		}
	}
}

func TestWatchStopsAfterThreeTurnsWithEveryCallDenied(t *testing.T) {
	var cause error
	w := &watch{cancel: func(err error) { cause = err }}
	turn := func(n int, denied ...bool) {
		for range denied {
			w.Emit(event.Event{Type: event.ToolCall, Turn: n})
		}
		for i, d := range denied {
			r := &event.ToolOutcome{CallID: fmt.Sprintf("c%d-%d", n, i), Name: "bash"}
			if d {
				r.Denied = "needs approval"
			}
			w.Emit(event.Event{Type: event.ToolResult, Turn: n, Result: r})
		}
	}
	turn(1, true, true)
	turn(2, true, false) // one call ran: the streak restarts
	turn(3, true)
	turn(4, true)
	if cause != nil {
		t.Fatalf("stopped after two all-denied turns: %v", cause)
	}
	turn(5, true, true)
	if cause == nil || classify(event.StopInterrupted, cause, false) != PermissionDenied {
		t.Fatalf("cause %v", cause)
	}
	_, denials, _ := w.snapshot()
	if len(denials) != 7 || denials[0].CallID != "c1-0" || denials[0].Reason != "needs approval" {
		t.Fatalf("denials %+v", denials)
	}
}

func TestWatchStopsWhenTheCostPassesTheBudget(t *testing.T) {
	var cause error
	w := &watch{budget: 0.01, cancel: func(err error) { cause = err }}
	w.Emit(event.Event{Type: event.Usage, CostUSD: 0.006})
	if cause != nil {
		t.Fatal("stopped under the budget")
	}
	w.Emit(event.Event{Type: event.Usage, CostUSD: 0.006})
	// the reply that usage paid for finishes; its next step is stopped
	w.Emit(event.Event{Type: event.Text, Text: "done"})
	w.Emit(event.Event{Type: event.Message, Message: &llm.Message{Role: llm.RoleAssistant}})
	if _, _, stopped := w.snapshot(); cause != nil || classify(event.StopCompleted, stopped, false) != Budget {
		t.Fatalf("the passing reply was cut (cause %v) or not classed as over budget (%v)", cause, stopped)
	}
	w.Emit(event.Event{Type: event.ToolCall})
	if classify(event.StopInterrupted, cause, false) != Budget {
		t.Fatalf("cause %v", cause)
	}
}

func TestSchemaCheckAcceptsFencedJSONAndRejectsTheWrongShape(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Check("```json\n{\"n\": 3}\n```"); err != nil || got != `{"n": 3}` {
		t.Fatalf("fenced: %q %v", got, err)
	}
	for _, bad := range []string{`{"n":"three"}`, `{}`, `the answer is 3`} {
		if _, err := s.Check(bad); err == nil {
			t.Errorf("%q validated", bad)
		}
	}
	if _, err := ParseSchema([]byte(`{"type":`)); err == nil {
		t.Error("a broken schema compiled")
	}
}

func FuzzSchemaCheck(f *testing.F) {
	s, err := ParseSchema([]byte(`{"type":"object","required":["n"]}`))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"```json\n{\"n\":1}\n```", "```", "``````", "{\"n\":1}", "```{\"n\":1}```", " \n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		clean, err := s.Check(answer)
		if err == nil {
			if _, err := s.Check(clean); err != nil {
				t.Fatalf("a validated answer %q does not validate again: %v", clean, err)
			}
		}
	})
}

package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
)

func TestUpdatePlanValidatesSteps(t *testing.T) {
	long := strings.Repeat("x", planMaxStepRunes+1)
	many := `[` + strings.TrimSuffix(strings.Repeat(`{"step":"s","status":"pending"},`, planMaxSteps+1), ",") + `]`
	cases := []struct {
		name, args string
		want       []event.PlanStep
		err        string
	}{
		{name: "three statuses", args: `{"plan":[{"step":"read","status":"completed"},{"step":"fix","status":"in_progress"},{"step":"test","status":"pending"}]}`,
			want: []event.PlanStep{{Step: "read", Status: event.StepCompleted}, {Step: "fix", Status: event.StepInProgress}, {Step: "test", Status: event.StepPending}}},
		{name: "done is completed", args: `{"plan":[{"step":"read","status":"done"},{"step":"fix","status":"In Progress"}]}`,
			want: []event.PlanStep{{Step: "read", Status: event.StepCompleted}, {Step: "fix", Status: event.StepInProgress}}},
		{name: "step text folded to one line", args: `{"plan":[{"step":"  fix\n the   bug ","status":"pending"}]}`,
			want: []event.PlanStep{{Step: "fix the bug", Status: event.StepPending}}},
		{name: "two in progress", args: `{"plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"in_progress"}]}`, err: "2 steps are in_progress"},
		{name: "unknown status", args: `{"plan":[{"step":"a","status":"blocked"}]}`, err: `step 1: unknown status "blocked"`},
		{name: "empty step", args: `{"plan":[{"step":"a","status":"pending"},{"step":" ","status":"pending"}]}`, err: "step 2 has no text"},
		{name: "no steps", args: `{"plan":[]}`, err: "at least one step"},
		{name: "no arguments", args: ``, err: "at least one step"},
		{name: "plan not a list", args: `{"plan":"do it"}`, err: "invalid arguments"},
		{name: "step too long", args: `{"plan":[{"step":"` + long + `","status":"pending"}]}`, err: "step 1 is longer"},
		{name: "too many steps", args: `{"plan":` + many + `}`, err: "at most 30"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := UpdatePlan{}.Run(context.Background(), json.RawMessage(tc.args))
			if err != nil {
				t.Fatal(err)
			}
			if tc.err != "" {
				if !res.IsError || res.Plan != nil || !strings.Contains(res.Content, tc.err) || !strings.Contains(res.Content, `"plan": [{"step"`) {
					t.Fatalf("want error %q with the expected shape, got %+v", tc.err, res)
				}
				return
			}
			if res.IsError || res.Plan == nil {
				t.Fatalf("unexpected failure: %+v", res)
			}
			if got, _ := json.Marshal(res.Plan.Steps); string(got) != mustJSON(t, tc.want) {
				t.Fatalf("steps %s, want %s", got, mustJSON(t, tc.want))
			}
		})
	}
}

func TestUpdatePlanReportsProgress(t *testing.T) {
	res, _ := UpdatePlan{}.Run(context.Background(), json.RawMessage(`{"explanation":"small fix","plan":[{"step":"a","status":"completed"},{"step":"b","status":"pending"}]}`))
	if res.Content != "Plan updated: 1 of 2 steps completed." || res.Plan.Explanation != "small fix" {
		t.Fatalf("%+v", res)
	}
	if got := res.Plan.Text(); got != "small fix\n[x] a\n[ ] b\n" {
		t.Fatalf("text %q", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func FuzzParsePlan(f *testing.F) {
	f.Add(`{"plan":[{"step":"a","status":"done"}]}`)
	f.Add(`{"explanation":"x","plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"in-progress"}]}`)
	f.Add(`{"plan":null}`)
	f.Fuzz(func(t *testing.T, args string) {
		p, err := ParsePlan(json.RawMessage(args))
		if err != nil {
			return
		}
		n := 0
		for _, s := range p.Steps {
			if s.Step == "" || s.Status.Mark() == "" {
				t.Fatalf("bad step %+v", s)
			}
			if s.Status == event.StepInProgress {
				n++
			}
		}
		if len(p.Steps) == 0 || len(p.Steps) > planMaxSteps || n > 1 {
			t.Fatalf("invalid plan accepted: %+v", p)
		}
	})
}

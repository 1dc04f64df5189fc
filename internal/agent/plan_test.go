package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

const twoStepPlan = `{"plan":[{"step":"fix the bug","status":"completed"},{"step":"run the tests","status":"pending"}]}`

func planEvents(rec *recorder) []*event.TaskPlan {
	var out []*event.TaskPlan
	for _, e := range rec.evs {
		if e.Type == event.Plan {
			out = append(out, e.Plan)
		}
	}
	return out
}

func TestUnfinishedPlanNudgesOnce(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{call(0, "c1", "update_plan", twoStepPlan), finish()},
		{text("Fixed."), finish()},
		{text("Fixed; tests not run."), finish()},
	}}
	rec := &recorder{}
	a := New(Options{Provider: p, Model: "m", Sink: rec, CompletionCheck: true, Tools: tools.NewRegistry(tools.UpdatePlan{})})
	res := a.Run(context.Background(), "fix it")
	if res.StopReason != event.StopCompleted || res.Final != "Fixed; tests not run." {
		t.Fatalf("got %+v", res)
	}
	if len(p.reqs) != 3 {
		t.Fatalf("%d requests, want 3 (one nudge)", len(p.reqs))
	}
	msgs := p.reqs[2].Messages
	nudge := msgs[len(msgs)-1].Text()
	if !strings.Contains(nudge, "unfinished steps") || !strings.Contains(nudge, "[ ] run the tests") || strings.Contains(nudge, "fix the bug") {
		t.Fatalf("nudge %q", nudge)
	}
	plans := planEvents(rec)
	if len(plans) != 1 || len(plans[0].Steps) != 2 || a.Plan() != plans[0] {
		t.Fatalf("plan events %+v, agent plan %+v", plans, a.Plan())
	}
}

func TestFinishedPlanOrPlanModeNeedsNoNudge(t *testing.T) {
	done := `{"plan":[{"step":"fix the bug","status":"done"}]}`
	for _, tc := range []struct {
		name, plan string
		planning   bool
	}{{"all steps completed", done, false}, {"plan mode", twoStepPlan, true}} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{turns: [][]llm.Event{{call(0, "c1", "update_plan", tc.plan), finish()}, {text("Done."), finish()}}}
			a := New(Options{Provider: p, Model: "m", CompletionCheck: true, Planning: tc.planning, Tools: tools.NewRegistry(tools.UpdatePlan{})})
			if res := a.Run(context.Background(), "go"); res.Final != "Done." || len(p.reqs) != 2 {
				t.Fatalf("got %+v after %d requests", res, len(p.reqs))
			}
		})
	}
}

func TestInvalidPlanKeepsTheLastOne(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{call(0, "c1", "update_plan", `{"plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"in_progress"}]}`), finish()},
		{text("ok"), finish()},
	}}
	rec := &recorder{}
	restored := &event.TaskPlan{Steps: []event.PlanStep{{Step: "old", Status: event.StepCompleted}}}
	a := New(Options{Provider: p, Model: "m", Sink: rec, Plan: restored, Tools: tools.NewRegistry(tools.UpdatePlan{})})
	a.Run(context.Background(), "go")
	if len(planEvents(rec)) != 0 || a.Plan() != restored {
		t.Fatalf("a refused plan replaced the restored one: %+v", a.Plan())
	}
	res := p.reqs[1].Messages[2].ToolResults()[0]
	if !res.IsError || !strings.Contains(res.Content, "at most one may be") {
		t.Fatalf("result %+v", res)
	}
}

func TestCompactionSummaryCarriesThePlan(t *testing.T) {
	s := newSmallServer(t, 1<<20)
	s.sum.Script(llmtest.Reply(llmtest.Text("The user asked for a survey.")))
	hist := oldTurns(10, 3000)
	for i := 0; i < 20; i++ {
		hist = append(hist, llm.TextMessage(llm.RoleUser, strings.Repeat("more detail please ", 20)), llm.TextMessage(llm.RoleAssistant, strings.Repeat("here is more detail ", 20)))
	}
	plan := &event.TaskPlan{Steps: []event.PlanStep{{Step: "survey the files", Status: event.StepInProgress}, {Step: "write the report", Status: event.StepPending}}}
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", History: hist, Plan: plan,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	if _, err := a.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := a.History()[0].Text()
	if !strings.HasPrefix(first, contextmgr.SummaryPrefix) || !strings.Contains(first, "[>] survey the files\n[ ] write the report") {
		t.Fatalf("summary %q", first)
	}
}

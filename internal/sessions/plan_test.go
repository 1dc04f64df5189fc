package sessions

import (
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func TestRestoreGivesTheLastPlanAcrossCompaction(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	sendPrompt(t, s, "fix it")
	first := &event.TaskPlan{Steps: []event.PlanStep{{Step: "fix", Status: event.StepInProgress}}}
	last := &event.TaskPlan{Explanation: "tests left", Steps: []event.PlanStep{{Step: "fix", Status: event.StepCompleted}, {Step: "test", Status: event.StepPending}}}
	summary := llm.TextMessage(llm.RoleUser, "summary")
	for _, ev := range []event.Event{{Type: event.Plan, Plan: first}, {Type: event.Plan, Plan: last}, {Type: event.Compaction, Text: "summary", Message: &summary}} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	again, err := st.Load(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	msgs, plan, _, err := again.Restore()
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || plan == nil || plan.Text() != last.Text() {
		t.Fatalf("history %d messages, plan %+v", len(msgs), plan)
	}
}

func TestRestoreWithoutPlanGivesNone(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	sendPrompt(t, s, "hello")
	if _, plan, _, err := s.Restore(); err != nil || plan != nil {
		t.Fatalf("plan %+v, err %v", plan, err)
	}
}

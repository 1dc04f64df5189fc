package agent

import (
	"strings"

	"github.com/zero-agent/zero/internal/event"
)

// The plan (update_plan, internal/tools/plan.go) is session state the
// agent keeps: the latest one is emitted as an event.Plan (the app's
// panel, stream-json, the session log, from which a resume restores it),
// re-stated in a compaction summary so the model keeps it, and read by
// the completion check.

// Plan returns the session's latest plan, or nil.
func (a *Agent) Plan() *event.TaskPlan { return a.plan }

// setPlan keeps p as the latest plan and emits it.
func (r *run) setPlan(p *event.TaskPlan) {
	r.a.plan = p
	r.emit(event.Event{Type: event.Plan, Plan: p})
}

// planNote is what a compaction summary carries of the plan, so the
// model still has it when the update_plan calls were summarised away.
func (a *Agent) planNote() string {
	if a.plan == nil || len(a.plan.Steps) == 0 {
		return ""
	}
	return "\n\nYour current plan (update_plan):\n" + strings.TrimRight(a.plan.Text(), "\n")
}

// unfinishedPlanNudge is the completion check's nudge for a final answer
// given while the plan has steps not completed; "" when none.
func (a *Agent) unfinishedPlanNudge() string {
	if a.opts.Planning {
		return "" // plan mode: the plan is the answer
	}
	left := a.plan.Unfinished()
	if len(left) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Your plan still has unfinished steps:\n")
	for _, s := range left {
		b.WriteString(s.Status.Mark() + " " + s.Step + "\n")
	}
	b.WriteString("Continue with them, or call update_plan to mark them completed (or remove the ones no longer needed), then give your final answer.")
	return b.String()
}

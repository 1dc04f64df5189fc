package event

import (
	"fmt"
	"strings"
)

// TaskPlan is the model's plan of the task (the update_plan tool, in the
// shape of Codex's: https://github.com/openai/codex/blob/main/codex-rs/core/src/plan_tool.rs):
// an optional explanation and ordered steps, at most one in progress.
type TaskPlan struct {
	Explanation string     `json:"explanation,omitempty"`
	Steps       []PlanStep `json:"steps"`
}

// PlanStep is one step of a TaskPlan.
type PlanStep struct {
	Step   string     `json:"step"`
	Status StepStatus `json:"status"`
}

// StepStatus is where a plan step stands.
type StepStatus string

// Step statuses.
const (
	StepPending    StepStatus = "pending"
	StepInProgress StepStatus = "in_progress"
	StepCompleted  StepStatus = "completed"
)

// ParseStepStatus is the one parser of a step status: the three names,
// case and surrounding space ignored, "done" (the word models reach for)
// as completed and "in-progress"/"in progress" as in_progress.
func ParseStepStatus(s string) (StepStatus, error) {
	switch strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_") {
	case "pending":
		return StepPending, nil
	case "in_progress":
		return StepInProgress, nil
	case "completed", "done":
		return StepCompleted, nil
	}
	return "", fmt.Errorf("unknown status %q (pending, in_progress or completed)", s)
}

// Unfinished returns the steps not completed, in order.
func (p *TaskPlan) Unfinished() []PlanStep {
	if p == nil {
		return nil
	}
	var out []PlanStep
	for _, s := range p.Steps {
		if s.Status != StepCompleted {
			out = append(out, s)
		}
	}
	return out
}

// Text renders the plan as lines "[x] step", "[>] step", "[ ] step",
// after the explanation when there is one.
func (p *TaskPlan) Text() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	if p.Explanation != "" {
		b.WriteString(p.Explanation)
		b.WriteByte('\n')
	}
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "%s %s\n", s.Status.Mark(), s.Step)
	}
	return b.String()
}

// Mark is the status as a checkbox: "[x]", "[>]" or "[ ]".
func (s StepStatus) Mark() string {
	switch s {
	case StepCompleted:
		return "[x]"
	case StepInProgress:
		return "[>]"
	}
	return "[ ]"
}

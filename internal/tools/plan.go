package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/event"
)

// UpdatePlanName is the plan tool's name (Codex's).
const UpdatePlanName = "update_plan"

// Limits of one plan: a plan is shown on screen and carried through
// compaction, so it stays small.
const (
	planMaxSteps     = 30
	planMaxStepRunes = 300
	planMaxExplain   = 1000
)

// UpdatePlan is the update_plan tool: the model states its plan as steps
// with a status; the agent keeps the latest plan (Result.Plan), the app
// shows it and the completion check sees unfinished steps. It touches no
// file.
type UpdatePlan struct{}

// Name implements Tool.
func (UpdatePlan) Name() string { return UpdatePlanName }

// Description implements Tool.
func (UpdatePlan) Description() string {
	return "Keep a plan for multi-step work: send every step with its status, at most one in_progress."
}

// Schema implements Tool.
func (UpdatePlan) Schema() json.RawMessage {
	return schema(`"explanation":{"type":"string"},"plan":{"type":"array","items":{"type":"object","properties":{"step":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["step","status"]}}`, "plan")
}

// SideEffect implements Tool.
func (UpdatePlan) SideEffect() SideEffect { return SideNone }

// Run implements Tool.
func (UpdatePlan) Run(_ context.Context, args json.RawMessage) (Result, error) {
	p, err := ParsePlan(args)
	if err != nil {
		return errorResult("update_plan: %v; expected {\"explanation\"?: string, \"plan\": [{\"step\": string, \"status\": \"pending\"|\"in_progress\"|\"completed\"}]}", err), nil
	}
	done := len(p.Steps) - len(p.Unfinished())
	return Result{Content: fmt.Sprintf("Plan updated: %d of %d steps completed.", done, len(p.Steps)), Plan: p}, nil
}

// ParsePlan validates update_plan arguments: at least one step, each
// with text and a status event.ParseStepStatus accepts, at most one in
// progress, within the size limits.
func ParsePlan(args json.RawMessage) (*event.TaskPlan, error) {
	var a struct {
		Explanation string `json:"explanation"`
		Plan        []struct {
			Step   string `json:"step"`
			Status string `json:"status"`
		} `json:"plan"`
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, fmt.Errorf("invalid arguments (%v)", err)
	}
	if len(a.Plan) == 0 {
		return nil, fmt.Errorf("plan needs at least one step")
	}
	if len(a.Plan) > planMaxSteps {
		return nil, fmt.Errorf("plan has %d steps; at most %d", len(a.Plan), planMaxSteps)
	}
	p := &event.TaskPlan{Explanation: strings.TrimSpace(a.Explanation)}
	if utf8.RuneCountInString(p.Explanation) > planMaxExplain {
		return nil, fmt.Errorf("explanation is longer than %d characters", planMaxExplain)
	}
	inProgress := 0
	for i, s := range a.Plan {
		text := strings.Join(strings.Fields(s.Step), " ")
		if text == "" {
			return nil, fmt.Errorf("step %d has no text", i+1)
		}
		if utf8.RuneCountInString(text) > planMaxStepRunes {
			return nil, fmt.Errorf("step %d is longer than %d characters", i+1, planMaxStepRunes)
		}
		st, err := event.ParseStepStatus(s.Status)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		if st == event.StepInProgress {
			inProgress++
		}
		p.Steps = append(p.Steps, event.PlanStep{Step: text, Status: st})
	}
	if inProgress > 1 {
		return nil, fmt.Errorf("%d steps are in_progress; at most one may be", inProgress)
	}
	return p, nil
}

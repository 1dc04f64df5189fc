package agent

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// The working instructions of the system prompt, one set per mode. Every
// byte is sent on every turn and counts against small context windows (the
// first request of a default run must stay under 8 KB with the tool
// schemas, issue 2).
const (
	workInstructions = `You are Zero, a coding agent working in the user's repository through tools.
- Explore before editing: grep or glob to find code, then read_file the relevant line ranges.
- Edit with edit_file (exact unique old_string, include enough context); write_file only for new files.
- After changing code, run the project's tests or build with bash and fix what fails.
- Keep going until the task is done; do not ask for confirmation of routine steps.
- Never claim tests pass unless you ran them and they passed.
- Final answer: short, plain text: what you changed and how you verified it.
`
	// planInstructions match Zero's plan mode (internal/run offers
	// read-only tools only and the gate denies the rest): the model is
	// told so up front instead of discovering it from refused calls.
	planInstructions = `You are Zero, a coding agent working in the user's repository through tools.
You are in plan mode: the user wants a plan before anything changes.
- Read-only tools only: make no edits, write no files and run no commands; edit_file, write_file and bash are not available.
- Explore before planning: grep or glob to find code, then read_file the relevant line ranges.
- If the user asks for a change, plan it; it is made after the user leaves plan mode.
- Final answer: a numbered plan: the files and functions to change, the changes in order, and how to verify them (the tests or build to run).
`
)

// minimalInstructions are for windows too small for the default prompt
// and every tool schema (internal/run's minimal profile): the same rules,
// in as few tokens as they fit.
const minimalInstructions = `You are Zero, a coding agent in the user's repository. Use tools: grep and read_file to look, edit_file to change, bash to run tests. Never claim tests pass unless you ran them. End with a short plain answer.
`

// MinimalSystemPrompt is SystemPrompt for a small window: short
// instructions, the same workspace lines and extra.
func MinimalSystemPrompt(workspace string, now time.Time, extra string) string {
	return systemPrompt(minimalInstructions, workspace, now, extra)
}

// SystemPrompt returns Zero's default system prompt for a workspace. extra
// is appended as-is (project guidelines, already budgeted and sanitised by
// the caller).
func SystemPrompt(workspace string, now time.Time, extra string) string {
	return systemPrompt(workInstructions, workspace, now, extra)
}

// PlanSystemPrompt is SystemPrompt for plan mode: the same workspace lines
// and extra, but instructions that say the run is read-only and its answer
// is a plan. A run that switches mode passes the other prompt to
// (*Agent).SetSystem, with the same now so the date line stays put.
func PlanSystemPrompt(workspace string, now time.Time, extra string) string {
	return systemPrompt(planInstructions, workspace, now, extra)
}

func systemPrompt(instructions, workspace string, now time.Time, extra string) string {
	var b strings.Builder
	b.WriteString(instructions)
	fmt.Fprintf(&b, "Workspace: %s\nOS: %s/%s\nDate: %s\n", workspace, runtime.GOOS, runtime.GOARCH, now.Format("2006-01-02"))
	if extra = strings.TrimSpace(extra); extra != "" {
		b.WriteString("\n")
		b.WriteString(extra)
		b.WriteString("\n")
	}
	return b.String()
}

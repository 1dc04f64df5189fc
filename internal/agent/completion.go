package agent

import (
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Completion check (issue 6 item 7): a final answer given while the plan
// (update_plan) has unfinished steps, that announces more work, or claims
// tests pass when no test or build command (verify.go)
// exited 0 in this run.
var (
	workRemainsRe = lazyregexp.New(`(?i)\b(i will now|i'll now|i am going to now|next,? i('ll| will)|now i('ll| will)|let me now|remaining steps|still need(s)? to|todo\b)`)
	testsPassRe   = lazyregexp.New(`(?i)\b(all )?(the )?(tests?|test suite|build)( now)? (pass(es|ed)?|succeed(s|ed)?|(is|are) (green|passing))\b`)
)

// completionState is one run's completion-check memory.
type completionState struct {
	// verified is set when a bash call running a test or build command
	// exited 0 in this run.
	verified bool
	checked  bool
}

// Nudges sent by the completion check.
const (
	remainsNudge    = "Your answer says work remains. Continue the task with tool calls until it is done, then give your final answer."
	unverifiedNudge = "Your answer says the tests pass, but no test or build command succeeded in this run. Run the tests with bash and report the real result."
)

// checkCompletion returns the nudge to send for a final answer (once per
// run, when Options.CompletionCheck is on); with the option off it emits
// a warning instead and returns "".
func (r *run) checkCompletion(text string) string {
	if r.completion.checked {
		return ""
	}
	nudge, warn := "", ""
	switch planNudge := r.a.unfinishedPlanNudge(); {
	case planNudge != "":
		nudge, warn = planNudge, "the final answer came while the plan has unfinished steps"
	case workRemainsRe.MatchString(lastLines(text, 6)):
		nudge, warn = remainsNudge, "the final answer says work remains"
	case !r.completion.verified && testsPassRe.MatchString(text):
		nudge, warn = unverifiedNudge, "the final answer claims tests pass, but no test or build command succeeded in this run"
	default:
		return ""
	}
	r.completion.checked = true
	if !r.a.opts.CompletionCheck {
		r.emit(event.Event{Type: event.Warning, Text: warn})
		return ""
	}
	r.emit(event.Event{Type: event.Warning, Text: warn + "; nudging once"})
	return nudge
}

// lastLines returns the last n lines of s: an announcement of more work
// matters at the end of an answer, not in a recap of earlier plans.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

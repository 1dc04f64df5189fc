package headless

import (
	"context"
	"fmt"
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/headless/streamjson"
	"github.com/zero-agent/zero/internal/llm"
)

// maxDeniedTurns is how many model turns in a row may have every tool
// call denied before the run stops (subtype permission_denied): a model
// that keeps asking for a tool it cannot have only burns turns.
const maxDeniedTurns = 3

// watch is an event.Sink in front of the surface's own: it sums every
// run's totals, collects the permission denials, and stops the run (by
// cancelling its context with a cause) when the estimated cost passes
// the budget or maxDeniedTurns turns in a row had all their calls denied.
type watch struct {
	next   event.Sink
	budget float64 // USD; 0: none
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	totals  event.Totals
	cost    float64
	denials []streamjson.Denial
	// the current turn's calls, results and denials; deniedTurns in a row
	turn, calls, results, denied int
	deniedTurns                  int
	stopped                      error
	// overBudget is set by the usage that passed the budget; the run is
	// cancelled at its next step (a tool call, a nudge, another request),
	// so the reply that usage paid for is kept and a final answer stays
	// the run's answer.
	overBudget error
	// runID and lastTurn are the last top-level event's: an error the exec
	// itself reports after the runs belongs to the last one.
	runID    string
	lastTurn int
}

func (w *watch) Emit(e event.Event) {
	w.mu.Lock()
	if w.overBudget != nil && !replyPart(e) {
		w.stop(w.overBudget)
	}
	child := e.ParentToolCallID != "" // a sub-agent's: its cost counts, its totals reach the parent's run_end
	if !child && e.RunID != "" {
		w.runID, w.lastTurn = e.RunID, e.Turn
	}
	switch {
	case e.Type == event.Usage:
		w.cost += e.CostUSD
		if w.budget > 0 && w.cost > w.budget && w.overBudget == nil {
			w.overBudget = fmt.Errorf("%w ($%.4f > $%.4f)", errBudget, w.cost, w.budget)
		}
	case child:
	case e.Type == event.ToolCall:
		if e.Turn != w.turn {
			w.turn, w.calls, w.results, w.denied = e.Turn, 0, 0, 0
		}
		w.calls++
	case e.Type == event.ToolResult:
		if e.Result != nil {
			w.result(e.Result)
		}
	case e.Type == event.RunEnd:
		if e.Totals != nil {
			t := *e.Totals
			w.totals.Turns += t.Turns
			w.totals.ToolCalls += t.ToolCalls
			w.totals.Usage = w.totals.Usage.Add(t.Usage)
			w.totals.CostUSD += t.CostUSD
			w.totals.ElapsedMs += t.ElapsedMs
			if sub := t.Subagents; sub != nil {
				if w.totals.Subagents == nil {
					w.totals.Subagents = &event.Totals{}
				}
				s := w.totals.Subagents
				s.Turns += sub.Turns
				s.ToolCalls += sub.ToolCalls
				s.Usage = s.Usage.Add(sub.Usage)
				s.CostUSD += sub.CostUSD
				s.ElapsedMs += sub.ElapsedMs
			}
		}
	}
	w.mu.Unlock()
	if w.next != nil {
		w.next.Emit(e)
	}
}

// result counts one tool result of the current turn; the turn's last
// result decides whether it was all denied.
func (w *watch) result(r *event.ToolOutcome) {
	w.results++
	if r.Denied != "" {
		w.denied++
		w.denials = append(w.denials, streamjson.Denial{Tool: r.Name, CallID: r.CallID, Reason: r.Denied})
	}
	if w.results != w.calls {
		return
	}
	if w.denied == w.calls {
		w.deniedTurns++
	} else {
		w.deniedTurns = 0
	}
	if w.deniedTurns >= maxDeniedTurns {
		w.stop(fmt.Errorf("%w in %d turns in a row; allow the tool (--auto-approve, a rule, or -i stream-json) or change the prompt", errAllDenied, w.deniedTurns))
	}
}

// replyPart is an event of the reply being streamed (its text, its
// reasoning, the assistant message it makes), which a passed budget lets
// finish.
func replyPart(e event.Event) bool {
	return e.Type == event.Text || e.Type == event.Reasoning ||
		e.Type == event.Message && e.Message != nil && e.Message.Role == llm.RoleAssistant
}

// stop cancels the run once. w.mu is held.
func (w *watch) stop(err error) {
	if w.stopped == nil && w.cancel != nil {
		w.stopped = err
		w.cancel(err)
	}
}

// snapshot returns the summed totals, the denials and the stop cause the
// watch made (nil: none).
// lastRun is the id and turn of the last top-level run the watch saw.
func (w *watch) lastRun() (string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.runID, w.lastTurn
}

func (w *watch) snapshot() (event.Totals, []streamjson.Denial, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	stopped := w.stopped
	if stopped == nil {
		stopped = w.overBudget // the run ended on the reply that passed it
	}
	return w.totals, append([]streamjson.Denial{}, w.denials...), stopped
}

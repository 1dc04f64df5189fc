package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
)

// Stuck detection (issue 6 item 6). A call is identified by its tool name,
// its arguments in canonical JSON (keys sorted, no spacing) and the SHA-256
// of its full result. The run is stuck when
//   - the latest call repeats the one before it with the same result, or
//   - the latest four calls form a cycle A, B, A, B (A != B).
//
// Identical calls within one reply count once (a duplicate request, not
// a loop). Different calls in a row (five files read one after another) are
// progress and never trip it, and there is no step cap besides the high
// MaxTurns backstop. The first finding sends the model one nudge; a second
// one ends the run with event.StopStuck.

// stuckNudge is the user message sent on the first finding.
const stuckNudge = "You are repeating the same tool call%s and getting the same result. Do not call it again: change your approach, or give your final answer with what you found."

// stuckDetector remembers the signatures of this run's calls.
type stuckDetector struct {
	seq    []string
	names  []string
	nudged bool
}

// signature identifies one call with its result.
func signature(name, args, result string) string {
	canon := args
	var v any
	if json.Unmarshal([]byte(args), &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canon = string(b)
		}
	}
	h := sha256.Sum256([]byte(result))
	return name + "\x00" + canon + "\x00" + hex.EncodeToString(h[:8])
}

// add records one finished call by its signature.
func (d *stuckDetector) add(sig, name string) {
	d.seq = append(d.seq, sig)
	d.names = append(d.names, name)
	if len(d.seq) > 8 {
		d.seq, d.names = d.seq[len(d.seq)-8:], d.names[len(d.names)-8:]
	}
}

// finding reports a repetition or a cycle at the end of the sequence, with
// a short description naming the tools.
func (d *stuckDetector) finding() (string, bool) {
	n := len(d.seq)
	if n >= 2 && d.seq[n-1] == d.seq[n-2] {
		return fmt.Sprintf(" (%s)", d.names[n-1]), true
	}
	if n >= 4 && d.seq[n-1] == d.seq[n-3] && d.seq[n-2] == d.seq[n-4] && d.seq[n-1] != d.seq[n-2] {
		return fmt.Sprintf("s (%s and %s in a cycle)", d.names[n-2], d.names[n-1]), true
	}
	return "", false
}

// observe records one turn's outcomes for stuck detection and the
// completion check (a test or build command that exited 0).
func (r *run) observe(outs []outcome) {
	seen := map[string]bool{}
	for _, o := range outs {
		// Identical calls in one reply are one duplicate request, not a
		// loop across turns: they count once.
		if sig := signature(o.Call.Name, o.Call.Arguments, o.Result.Content); !seen[sig] {
			seen[sig] = true
			r.stuck.add(sig, o.Call.Name)
		}
		if o.SideEffect == tools.SideShell && !o.Result.IsError && (o.Result.ExitCode == nil || *o.Result.ExitCode == 0) &&
			isVerifyCommand(bashCommand(o.Call.Arguments)) {
			r.completion.verified = true
		}
	}
}

// checkStuck nudges once on the first finding and stops the run on the
// next one.
func (r *run) checkStuck() (Result, bool) {
	what, found := r.stuck.finding()
	if !found {
		return Result{}, false
	}
	if r.stuck.nudged {
		return Result{StopReason: event.StopStuck, Err: fmt.Errorf("stopped: the model kept repeating the same tool call%s after a nudge", what)}, true
	}
	r.stuck.nudged = true
	r.emit(event.Event{Type: event.Warning, Text: "the model is repeating itself; nudging once"})
	r.nudge(fmt.Sprintf(stuckNudge, what))
	// A fresh start: only a repetition after the nudge counts.
	r.stuck.seq, r.stuck.names = r.stuck.seq[len(r.stuck.seq)-1:], r.stuck.names[len(r.stuck.names)-1:]
	return Result{}, false
}

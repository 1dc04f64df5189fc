package loops

import (
	"fmt"
	"time"
)

// Exhausted says which budget the ledger has used up ("" when none), in
// words that say how to continue. A wake in progress is never cut: the
// budgets are held between wakes.
func Exhausted(b Budget, l Ledger) string {
	if b.MaxWakes > 0 && l.Wakes >= b.MaxWakes {
		return fmt.Sprintf("budget exhausted: %d of %d wakes used (raise [budget] max_wakes in loop.toml to go on)", l.Wakes, b.MaxWakes)
	}
	if b.MaxTokens > 0 && l.Tokens >= b.MaxTokens {
		return fmt.Sprintf("budget exhausted: %d of %d tokens used (raise [budget] max_tokens in loop.toml to go on)", l.Tokens, b.MaxTokens)
	}
	return ""
}

// NextWake says when the wake after one that ended at now is due: wait,
// or stop (a non-empty reason) when the deadline has passed or would pass
// before then.
func NextWake(s Schedule, now time.Time) (wait time.Duration, stop string) {
	if reason := PastDeadline(s, now); reason != "" {
		return 0, reason
	}
	wait = time.Duration(s.Heartbeat)
	if d := s.Deadline.Time; !d.IsZero() && !now.Add(wait).Before(d) {
		return 0, fmt.Sprintf("deadline: the next wake (%s) would be at or past the deadline %s", now.Add(wait).Format(time.RFC3339), d.Format(time.RFC3339))
	}
	return wait, ""
}

// PastDeadline is the stop reason when now is at or past the deadline.
func PastDeadline(s Schedule, now time.Time) string {
	if d := s.Deadline.Time; !d.IsZero() && !now.Before(d) {
		return "deadline " + d.Format(time.RFC3339) + " reached"
	}
	return ""
}

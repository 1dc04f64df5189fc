package loops

import (
	"strings"
	"testing"
	"time"
)

func TestBudgetExhaustedSaysWhichAndHowToGoOn(t *testing.T) {
	tests := []struct {
		b    Budget
		l    Ledger
		want string
	}{
		{Budget{MaxWakes: 3}, Ledger{Wakes: 2}, ""},
		{Budget{MaxWakes: 3}, Ledger{Wakes: 3}, "3 of 3 wakes used (raise [budget] max_wakes"},
		{Budget{MaxTokens: 1000}, Ledger{Wakes: 9, Tokens: 999}, ""},
		{Budget{MaxTokens: 1000}, Ledger{Tokens: 1200}, "1200 of 1000 tokens used (raise [budget] max_tokens"},
		{Budget{}, Ledger{Wakes: 1e6, Tokens: 1e9}, ""},
	}
	for _, tt := range tests {
		got := Exhausted(tt.b, tt.l)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%+v %+v: %q, want %q", tt.b, tt.l, got, tt.want)
		}
	}
}

func TestNextWakeKeepsToHeartbeatAndDeadline(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	hb := Duration(30 * time.Minute)
	tests := []struct {
		name     string
		s        Schedule
		wait     time.Duration
		stopWant string
	}{
		{"no deadline: the heartbeat", Schedule{Heartbeat: hb}, 30 * time.Minute, ""},
		{"deadline far off", Schedule{Heartbeat: hb, Deadline: Deadline{now.Add(2 * time.Hour)}}, 30 * time.Minute, ""},
		{"next wake would land on the deadline", Schedule{Heartbeat: hb, Deadline: Deadline{now.Add(30 * time.Minute)}}, 0, "would be at or past the deadline"},
		{"deadline passed", Schedule{Heartbeat: hb, Deadline: Deadline{now.Add(-time.Minute)}}, 0, "reached"},
	}
	for _, tt := range tests {
		wait, stop := NextWake(tt.s, now)
		if wait != tt.wait || (tt.stopWant == "") != (stop == "") || !strings.Contains(stop, tt.stopWant) {
			t.Errorf("%s: wait %v stop %q", tt.name, wait, stop)
		}
	}
}

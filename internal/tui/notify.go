package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Calling the user back: when Zero starts waiting for the user (a turn
// ended, a permission prompt or a question opened) after working for a
// while without a key from them, it rings the terminal's bell (BEL), which
// terminals and tmux turn into a sound, a flash or a marked window, or
// sends an OSC 9 notification (iTerm2, WezTerm, Windows Terminal, kitty
// and Ghostty show it as a desktop notification; tmux drops it).

// Notification kinds (Options.Notify, ZERO_NOTIFY).
const (
	NotifyBell = "bell"
	NotifyOSC9 = "osc9"
	NotifyOff  = "off"
)

// defaultNotifyAfter is how long a turn runs without a key from the user
// before waiting for them notifies.
const defaultNotifyAfter = 10 * time.Second

// notifyFromEnv reads ZERO_NOTIFY (bell, osc9 or off) and
// ZERO_NOTIFY_AFTER (a duration, e.g. 30s) into opts where they are
// unset. A bad value keeps the default and is returned as a warning.
func notifyFromEnv(opts *Options, getenv func(string) string) (warnings []string) {
	if opts.Notify == "" {
		switch v := strings.ToLower(strings.TrimSpace(getenv("ZERO_NOTIFY"))); v {
		case "", NotifyBell, NotifyOSC9, NotifyOff:
			opts.Notify = v
		default:
			warnings = append(warnings, fmt.Sprintf("ZERO_NOTIFY=%q is not bell, osc9 or off; ringing the bell", v))
		}
	}
	if v := strings.TrimSpace(getenv("ZERO_NOTIFY_AFTER")); opts.NotifyAfter == 0 && v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			warnings = append(warnings, fmt.Sprintf("ZERO_NOTIFY_AFTER=%q is not a positive duration such as 30s; using %v", v, defaultNotifyAfter))
		} else {
			opts.NotifyAfter = d
		}
	}
	return warnings
}

// waiting returns the notification for Zero starting to wait for the user
// (what: "done", "permission", "question"), or nil when the user touched a
// key within NotifyAfter of now or the turn was shorter than that.
func (m *Model) waiting(what string) tea.Cmd {
	after := m.opts.NotifyAfter
	if after <= 0 {
		after = defaultNotifyAfter
	}
	since := m.turn.started
	if m.lastKey.After(since) {
		since = m.lastKey
	}
	if m.opts.Notify == NotifyOff || since.IsZero() || m.opts.Now().Sub(since) < after {
		return nil
	}
	if m.opts.Notify == NotifyOSC9 {
		return tea.Raw("\x1b]9;zero: " + what + "\a")
	}
	return tea.Raw("\a")
}

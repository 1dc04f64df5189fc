package permission

import (
	"fmt"
	"strings"
)

// Mode is the permission mode: set with --permission-mode (or
// --auto-approve) and permissionMode in the user config, cycled with
// Shift+Tab in the app, and set by stream-json and editor clients.
type Mode string

// Modes, in Shift+Tab order.
const (
	// ModeNormal runs reads; writes, shell and network ask.
	ModeNormal Mode = "normal"
	// ModeAutoAccept runs writes inside the workspace and shell commands
	// the guard allows; guard asks still ask and denies still deny.
	ModeAutoAccept Mode = "auto-accept"
	// ModePlan runs read-only tools only, and the model is told it is
	// planning.
	ModePlan Mode = "plan"
)

// Modes lists the modes in Shift+Tab order.
var Modes = []Mode{ModeNormal, ModeAutoAccept, ModePlan}

// ParseMode is the one parser of mode names, for flags, config files, the
// app and stream-json. It accepts the names and the aliases users bring
// from other agents: "ask" and "default" (normal; Claude Code's default),
// "auto", "acceptEdits" (auto-accept; Claude Code's name), "read-only"
// (plan). The empty string is normal.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "normal", "default", "ask", "":
		return ModeNormal, nil
	case "auto-accept", "auto", "autoaccept", "acceptedits", "accept-edits":
		return ModeAutoAccept, nil
	case "plan", "read-only", "readonly":
		return ModePlan, nil
	}
	return "", fmt.Errorf("unknown permission mode %q (want normal, auto-accept or plan; ask is normal)", s)
}

// Next returns the mode after m in the cycle normal → auto-accept → plan.
func (m Mode) Next() Mode {
	switch m {
	case ModeNormal:
		return ModeAutoAccept
	case ModeAutoAccept:
		return ModePlan
	}
	return ModeNormal
}

// ReadOnly reports whether m offers read-only tools only.
func (m Mode) ReadOnly() bool { return m == ModePlan }

// rank orders modes by what they let run without asking: plan runs
// the least, auto-accept the most.
func (m Mode) rank() int {
	switch m {
	case ModePlan:
		return 0
	case ModeAutoAccept:
		return 2
	}
	return 1
}

// Narrower is the mode of a and b that lets less run; "" is no limit.
func Narrower(a, b Mode) Mode {
	switch {
	case a == "":
		return b
	case b == "" || a.rank() <= b.rank():
		return a
	}
	return b
}

// Wider reports whether m lets more run than than does.
func (m Mode) Wider(than Mode) bool { return m.rank() > than.rank() }

package editor

import (
	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// HandleKey applies an editing key (the seed's key table, minus the keys
// the app owns: Enter, Tab, ^C, ^D, ^R, ^Q, ^L, Esc, ↑/↓, Shift+Tab). It
// returns false when k is not an editing key. Printable text in k.Text is
// inserted after sanitising; callers sanitise pastes before Insert.
func (e *Editor) HandleKey(k tea.Key) bool {
	switch k.String() {
	case "ctrl+a", "home":
		e.Home()
	case "ctrl+e", "end":
		e.End()
	case "ctrl+b", "left":
		e.Left()
	case "ctrl+f", "right":
		e.Right()
	case "alt+left", "ctrl+left", "alt+b":
		e.WordLeft()
	case "alt+right", "ctrl+right", "alt+f":
		e.WordRight()
	case "backspace", "ctrl+h":
		e.Backspace()
	case "delete":
		e.DeleteForward()
	case "ctrl+w", "alt+backspace":
		e.KillWordBack()
	case "ctrl+u":
		e.KillToStart()
	case "ctrl+k":
		e.KillToEnd()
	case "ctrl+y":
		e.Yank()
	case "ctrl+j", "shift+enter", "alt+enter":
		e.Insert("\n")
	case "space":
		e.Insert(" ")
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		e.Insert(sanitize.Line(k.Text))
	}
	return true
}

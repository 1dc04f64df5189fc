package tui

import (
	"strings"

	"github.com/zero-agent/zero/internal/loops"
)

// loopsList is /loops: the table zero loop list prints, read-only. The
// app never drives a loop: zero loop run blocks for hours and belongs in
// a terminal of its own (tmux, systemd).
func loopsList() (string, error) {
	root, err := loops.Root()
	if err != nil {
		return "", err
	}
	text, err := loops.Report(root)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(text, "\n") + "\ndrive one with zero loop run NAME in a terminal", nil
}

package tui

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/style"
)

// clip copies code block n of the last reply (1-based), or the whole last
// reply, to the clipboard: OSC 52 always (works over SSH and in tmux with
// set-clipboard), plus the first of pbcopy, wl-copy or xclip found on PATH.
func (m *Model) clip(arg string) tea.Cmd {
	w := m.contentWidth()
	text, what := m.lastReply, "the last reply"
	if arg != "" {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > len(m.lastBlocks) {
			have := strconv.Itoa(len(m.lastBlocks)) + " blocks"
			if len(m.lastBlocks) == 1 {
				have = "1 block"
			}
			m.commit(render.Notice(event.Warning, "no code block "+arg+" in the last reply ("+have+")", w)...)
			return nil
		}
		text, what = m.lastBlocks[n-1].Text, "code block "+arg
	}
	if text == "" {
		m.commit(render.Notice(event.Warning, "nothing to copy yet", w)...)
		return nil
	}
	copyFn := m.opts.Copy
	if copyFn == nil {
		copyFn = systemCopy
	}
	msg := "copied " + what + " (" + render.Bytes(len(text)) + ")"
	if err := copyFn(text); err != nil && !errors.Is(err, errNoClipboardTool) {
		msg += "; " + err.Error()
	}
	m.commit(style.Dim.Render("✓ "+msg), "")
	return tea.SetClipboard(text)
}

var errNoClipboardTool = errors.New("no clipboard tool on PATH")

// systemCopy pipes text to the first clipboard tool found.
func systemCopy(text string) error {
	for _, tool := range [][]string{{"pbcopy"}, {"wl-copy"}, {"xclip", "-selection", "clipboard"}} {
		if _, err := exec.LookPath(tool[0]); err != nil {
			continue
		}
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Stdin = strings.NewReader(text)
		return cmd.Run()
	}
	return errNoClipboardTool
}

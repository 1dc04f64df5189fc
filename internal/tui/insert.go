package tui

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// printed is one of Bubble Tea's prints above the frame, parsed: the
// renderer's frame height and its idea of the cursor's row in it, and the
// printed lines as written (each line + EL + "\r\n").
type printed struct {
	height, row int
	lines       []byte
}

// parseInsert parses a print of bubbletea v2.1's cursedRenderer.insertAbove:
// "\r", CUD down, offset × "\n", CUU offset+h-1, IL offset, then the
// lines; the cursor's row is h-1-down. ok is false for any other shape.
func parseInsert(p []byte) (pr printed, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("\r"))
	if !found {
		return pr, false
	}
	down := 0
	if n, r, isDown := cutCSI(rest, 'B'); isDown {
		down, rest = n, r
	}
	offset := 0
	for len(rest) > 0 && rest[0] == '\n' {
		offset++
		rest = rest[1:]
	}
	moved, rest, isUp := cutCSI(rest, 'A')
	if !isUp || offset == 0 {
		return pr, false
	}
	inserted, lines, isIL := cutCSI(rest, 'L')
	if !isIL || inserted != offset {
		return pr, false
	}
	h := moved - offset + 1
	if h < 1 || down > h { // down == h: before the first frame the renderer's row is -1
		return pr, false
	}
	return printed{height: h, row: max(h-1-down, 0), lines: lines}, true
}

// buildInsert rewrites a print above the frame (parseInsert's lines),
// from the frame's first row where the cursor rests (reflow.go), into:
// the same lines (scrolling as needed), the frame lines with autowrap off
// (a row wider than a narrowed terminal stays one row), ED, and CUU back
// to the frame's first row. Nothing moves below the cursor's row before it
// is written, so rows the terminal deleted there do not matter.
func buildInsert(lines []byte, frame []string) []byte {
	var b bytes.Buffer
	b.WriteByte('\r')
	// Each row starts with a whole-line erase: tmux rewraps a row by the
	// cells ever written to it, and only EL 2 forgets a longer old row.
	b.WriteString(ansi.EraseEntireLine)
	b.Write(bytes.ReplaceAll(bytes.TrimSuffix(lines, []byte("\r\n")), []byte("\r\n"), []byte("\r\n"+ansi.EraseEntireLine)))
	b.WriteString("\r\n")
	if len(frame) > 0 {
		b.WriteString(ansi.ResetModeAutoWrap + ansi.EraseEntireLine)
		b.WriteString(strings.Join(frame, ansi.EraseLineRight+"\r\n"+ansi.EraseEntireLine))
		b.WriteString(ansi.EraseLineRight + ansi.EraseScreenBelow + ansi.SetModeAutoWrap + "\r")
		if len(frame) > 1 {
			b.WriteString(ansi.CursorUp(len(frame) - 1))
		}
	} else {
		b.WriteString(ansi.EraseScreenBelow)
	}
	return b.Bytes()
}

// cutCSI cuts a leading "ESC [ n final" (n defaults to 1) from p.
func cutCSI(p []byte, final byte) (n int, rest []byte, ok bool) {
	if !bytes.HasPrefix(p, []byte("\x1b[")) {
		return 0, p, false
	}
	i := 2
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		n = n*10 + int(p[i]-'0')
		i++
	}
	if i >= len(p) || p[i] != final {
		return 0, p, false
	}
	if i == 2 {
		n = 1
	}
	return n, p[i+1:], true
}

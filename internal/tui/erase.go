package tui

import "bytes"

// tmux (scroll-on-clear, on by default since 3.2) treats "erase below"
// (ED, CSI J) with the cursor on the screen's top-left cell as clearing
// the whole screen and first scrolls the screen's content into the
// scrollback. Bubble Tea erases its frame with CR, CUU to the frame's top,
// ED; when the frame starts on the screen's first row (a narrowing pushed
// rows into the scrollback, or the transcript is short), the old frame,
// streaming tail included, was copied into the scrollback and shown twice
// (issue 4: "resize while streaming re-wraps without duplicating
// scrollback"; QA: a narrowing while idle left the old input box above the
// new one). keepErase rewrites an ED issued at column 0 into an ED from
// column 2 plus "erase the whole line" (EL 2) and CR: the same cells
// cleared, the cursor where it was, and never an ED on the top-left cell.
// (EL 2, not EL 1: tmux rewraps a row by the cells ever written to it, and
// only a whole-line erase forgets them.)

// erasedBelow is the rewrite of ED at column 0.
var erasedBelow = []byte("\x1b[2G\x1b[J\x1b[2K\r")

// keepErase returns p with every ED that runs at column 0 rewritten (see
// above); p itself when there is none. The column is known to be 0 when
// the ED follows CR or LF, possibly with cursor moves up or down (CUU,
// CUD) between them, and always in the renderer's own writes (byRenderer):
// Bubble Tea v2.1 and ultraviolet erase below only right after a move to
// column 0 (TerminalRenderer.clearBelow, clearBottom; cursedRenderer.close),
// and a move that finds the cursor already there writes nothing (QA: a
// resize with the permission prompt open left a copy of it).
func keepErase(p []byte, byRenderer bool) []byte {
	const ed = "\x1b[J"
	if !bytes.Contains(p, []byte(ed)) {
		return p
	}
	var out []byte
	last := 0
	for i := 0; i < len(p); {
		j := bytes.Index(p[i:], []byte(ed))
		if j < 0 {
			break
		}
		at := i + j
		if byRenderer || atColumnZero(p[:at]) {
			out = append(out, p[last:at]...)
			out = append(out, erasedBelow...)
			last = at + len(ed)
		}
		i = at + len(ed)
	}
	if out == nil {
		return p
	}
	return append(out, p[last:]...)
}

// atColumnZero reports whether the bytes before an ED leave the cursor in
// column 0: they end with CR or LF followed only by CUU/CUD sequences.
func atColumnZero(before []byte) bool {
	for {
		n := len(before)
		switch {
		case n == 0:
			return false
		case before[n-1] == '\r' || before[n-1] == '\n':
			return true
		case before[n-1] == 'A' || before[n-1] == 'B':
			k := n - 2
			for k >= 0 && before[k] >= '0' && before[k] <= '9' {
				k--
			}
			if k < 1 || before[k] != '[' || before[k-1] != '\x1b' {
				return false
			}
			before = before[:k-1]
		default:
			return false
		}
	}
}

package tui

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// Narrowing a terminal that reflows its lines (tmux, iTerm2, kitty, VTE,
// Windows Terminal...) rewraps every row of the live region that is wider
// than the new width onto two or more rows. Bubble Tea does not know: on a
// resize it erases its frame by moving the cursor up by the cursor's row
// within the frame and clearing below, so the rows the reflow added above
// the cursor (a status line, a rule, the streaming tail) stayed in the
// scrollback, and a streamed line could show twice (issue 4: "resize while
// streaming re-wraps without duplicating scrollback"). reflowShift counts
// those added rows; the program filter (newProgram) moves the cursor up by
// that many rows before the renderer handles the resize, so its erase
// starts at the real top of the old frame.

// terminalReflows reports whether the terminal described by env (KEY=value
// pairs) rewraps lines when it gets narrower. Almost every terminal in use
// does (tmux, iTerm2, kitty, WezTerm, Ghostty, Alacritty, VTE, Windows
// Terminal, xterm.js); xterm itself (it sets XTERM_VERSION), rxvt and the
// Linux console do not, and there moving the cursor up would erase
// transcript rows instead of stale ones.
func terminalReflows(env []string) bool {
	reflows := true
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "TMUX" && v != "":
			return true // tmux reflows whatever terminal is outside it
		case k == "XTERM_VERSION" && v != "":
			reflows = false
		case k == "TERM" && (v == "linux" || strings.HasPrefix(v, "rxvt")):
			reflows = false
		}
	}
	return reflows
}

// frameShape is the last frame as drawn: each line's width in cells, the
// terminal width it was drawn at and the cursor's row and column in it
// (row -1: no cursor shown; the renderer then leaves it on the last row).
type frameShape struct {
	lines    []string
	widths   []int
	width    int
	row, col int
}

// noteFrame records the frame View returns.
func (m *Model) noteFrame(lines []string, cursor *tea.Cursor) {
	f := frameShape{lines: lines, widths: make([]int, len(lines)), width: m.width, row: -1}
	for i, l := range lines {
		f.widths[i] = cells.Width(l)
	}
	if cursor != nil {
		f.row, f.col = cursor.Y, cursor.X
	}
	m.frame = f
	if m.output != nil {
		m.output.noteView(lines)
	}
}

// reflowShift returns how many rows a terminal that reflows lines adds
// above the cursor when the last frame is rewrapped to width cells: 0 when
// the terminal did not get narrower than the frame was drawn for.
func (m *Model) reflowShift(width int) int {
	f := m.frame
	if width <= 0 || width >= f.width || len(f.widths) == 0 {
		return 0
	}
	row, col := f.row, f.col
	if row < 0 || row >= len(f.widths) {
		row, col = len(f.widths)-1, 0
	}
	extra := col / width // the cursor's own line wraps before it
	for _, w := range f.widths[:row] {
		if w > width {
			extra += (w - 1) / width
		}
	}
	return extra
}

// reflowFilter is the program's message filter: before Bubble Tea's
// renderer sees a resize, it moves the terminal's cursor up by the rows a
// reflow added above it (see reflowShift), and tells the output writer the
// size the renderer now draws for. It runs on Bubble Tea's event
// goroutine, like Update and View.
func reflowFilter(m *Model, out *lockedWriter, reflows bool) func(tea.Model, tea.Msg) tea.Msg {
	out.mu.Lock()
	out.shift, out.reflows = m.reflowShift, reflows
	out.mu.Unlock()
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			out.mu.Lock()
			// Right after printing above the frame, the renderer leaves the
			// cursor on the frame's first row until it draws again: no row
			// of the frame is above it.
			if n := m.reflowShift(ws.Width); reflows && n > 0 && !out.printed {
				out.w.Write([]byte(ansi.CursorUp(n)))
			}
			out.known = [2]int{ws.Width, ws.Height}
			out.mu.Unlock()
		}
		return msg
	}
}

// A resize also races the printing of finished lines. Bubble Tea prints
// above its frame by moving the cursor down to the frame's last row,
// scrolling, and moving back up by the frame's height (insertAbove). When
// the terminal gets shorter, tmux and most terminals delete the rows below
// the cursor, and the program learns of it only later (tmux even resizes
// the pane before it tells the program, so asking the tty does not help):
// the move down stops short, the move back up lands rows too high, the
// printed lines overwrite earlier transcript lines and the next erase wipes
// them (issue 4: lines printed just before a height shrink were lost).
// lockedWriter therefore rewrites every print into a form that never moves
// below the cursor (steadyInsert): up to the frame's first row, the printed
// lines, the frame the renderer last drew written again under them, and
// back up to its first row, where Bubble Tea expects the cursor: the
// renderer's idea of the screen stays true, as with its own line
// insertion. (Which frame it last drew: the last one View returned before
// its last write. View and the renderer's frame hand-over run back to back
// on the event goroutine, so a write between the two is the only way to
// get it wrong, and the next frame repairs what it changes.)

// lockedWriter serialises writes from the renderer and reflowFilter, so a
// cursor move never lands inside a frame, notes whether the last write
// printed lines above the frame, and makes prints safe while a resize is
// under way (see above).
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	printed bool

	// termSize reports the terminal's size now (nil: unknown).
	termSize func() (w, h int, ok bool)
	// known is the size of the last resize the renderer was told of.
	known [2]int
	// shift is Model.reflowShift, for a narrowing the renderer has not
	// been told of yet, when the terminal reflows.
	shift   func(width int) int
	reflows bool
	// viewed is the last frame View returned; drawn is the one that was
	// current when the renderer last wrote a frame.
	viewed, drawn []string
}

// noteView records a frame View returned.
func (l *lockedWriter) noteView(lines []string) {
	l.mu.Lock()
	l.viewed = lines
	l.mu.Unlock()
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !isInsertAbove(p) {
		l.printed = false
		l.drawn = l.viewed
		return l.w.Write(p)
	}
	out := p
	if l.drawn != nil {
		if q, ok := steadyInsert(p, l.pendingShift(), l.drawn); ok {
			out = q
		}
	}
	l.printed = true
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// pendingShift returns the rows a narrowing the renderer has not been told
// of yet added above the cursor, when the tty already reports it. Prints
// run on the event goroutine, so it may read the model through shift.
func (l *lockedWriter) pendingShift() int {
	if l.termSize == nil || !l.reflows || l.printed || l.known[0] <= 0 {
		return 0
	}
	if w, _, ok := l.termSize(); ok && w < l.known[0] {
		return l.shift(w)
	}
	return 0
}

// steadyInsert rewrites one of Bubble Tea's prints above the frame
// ("\r", CUD down, offset × "\n", CUU offset+h-1, IL offset, then each
// line + EL + "\r\n"; h is the frame's height and h-1-down the cursor's
// row in it) into: "\r", CUU to the frame's first row (plus extraUp rows a
// reflow added above the cursor), the same lines (scrolling as needed),
// the frame lines with autowrap off (a row wider than a narrowed terminal
// stays one row), ED, and CUU back to the frame's first row. Nothing moves
// below the cursor's row before it is written, so rows the terminal
// deleted there do not matter. ok is false when p does not have that shape.
func steadyInsert(p []byte, extraUp int, frame []string) (out []byte, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("\r"))
	if !found {
		return nil, false
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
	up, rest, isUp := cutCSI(rest, 'A')
	if !isUp || offset == 0 {
		return nil, false
	}
	inserted, lines, isIL := cutCSI(rest, 'L')
	if !isIL || inserted != offset {
		return nil, false
	}
	h := up - offset + 1
	row := max(h-1-down, 0)
	var b bytes.Buffer
	b.WriteByte('\r')
	if n := row + extraUp; n > 0 {
		b.WriteString(ansi.CursorUp(n))
	}
	b.Write(lines)
	if len(frame) > 0 {
		b.WriteString(ansi.ResetModeAutoWrap)
		b.WriteString(strings.Join(frame, ansi.EraseLineRight+"\r\n"))
		b.WriteString(ansi.EraseLineRight + ansi.EraseScreenBelow + ansi.SetModeAutoWrap + "\r")
		if len(frame) > 1 {
			b.WriteString(ansi.CursorUp(len(frame) - 1))
		}
	} else {
		b.WriteString(ansi.EraseScreenBelow)
	}
	return b.Bytes(), true
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

// isInsertAbove recognises Bubble Tea's print above an inline frame
// (cursedRenderer.insertAbove in bubbletea v2.1): "\r", scrolling and
// line insertion, then each printed line followed by EL and "\r\n". A
// frame the renderer draws ends by placing the cursor instead.
func isInsertAbove(p []byte) bool {
	return bytes.HasPrefix(p, []byte("\r")) && bytes.HasSuffix(p, []byte(ansi.EraseLineRight+"\r\n"))
}

// lockedFile is a lockedWriter over a terminal file; it keeps the file's
// descriptor visible so Bubble Tea still finds the tty (size, raw mode).
type lockedFile struct {
	*lockedWriter
	f *os.File
}

func (l lockedFile) Read(p []byte) (int, error) { return l.f.Read(p) }
func (l lockedFile) Close() error               { return l.f.Close() }
func (l lockedFile) Fd() uintptr                { return l.f.Fd() }

// lockOutput wraps w in a lockedWriter and returns the writer to give
// Bubble Tea: a file stays a file.
func lockOutput(w io.Writer) (io.Writer, *lockedWriter) {
	lw := &lockedWriter{w: w}
	switch t := w.(type) {
	case *os.File:
		lw.termSize = func() (int, int, bool) {
			w, h, err := term.GetSize(t.Fd())
			return w, h, err == nil
		}
		return lockedFile{lockedWriter: lw, f: t}, lw
	case terminalSizer:
		lw.termSize = t.TerminalSize
	}
	return lw, lw
}

// terminalSizer is an output that knows its terminal's size (an emulator
// in tests).
type terminalSizer interface {
	TerminalSize() (w, h int, ok bool)
}

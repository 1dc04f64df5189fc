package tui

import (
	"bytes"
	"io"
	"os"
	"strconv"
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
// streaming re-wraps without duplicating scrollback"). frameShape.shift
// counts those added rows; the program filter (newProgram) moves the
// cursor up by that many rows before the renderer handles the resize, so
// its erase starts at the real top of the old frame.

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
		case k == "TMUX" && v != "", k == "TERM" && strings.HasPrefix(v, "tmux"):
			return true // tmux reflows whatever terminal is outside it
		case k == "XTERM_VERSION" && v != "":
			reflows = false
		case k == "TERM" && (v == "linux" || strings.HasPrefix(v, "rxvt")):
			reflows = false
		}
	}
	return reflows
}

// frameShape is a frame View returned: its lines, each line's width in
// cells, the terminal width it was drawn for and the cursor's row and
// column in it (row -1: no cursor shown; the renderer then leaves it on
// the last row).
type frameShape struct {
	lines    []string
	widths   []int
	width    int
	row, col int
}

// noteFrame tells the output writer the frame View returns (its rows'
// widths in cells and the cursor), for the prints and resizes it lines up.
func (m *Model) noteFrame(lines []string, cursor *tea.Cursor) {
	if m.output == nil {
		return
	}
	f := frameShape{lines: lines, widths: make([]int, len(lines)), width: m.width, row: -1}
	for i, l := range lines {
		f.widths[i] = cells.Width(l)
	}
	if cursor != nil {
		f.row, f.col = cursor.Y, cursor.X
	}
	m.output.noteView(f)
}

// cursor returns the cursor's row and column in the frame: without a
// cursor, the renderer leaves it at the start of the last row.
func (f frameShape) cursor() (row, col int) {
	if f.row < 0 || f.row >= len(f.widths) {
		return max(len(f.widths)-1, 0), 0
	}
	return f.row, f.col
}

// shift returns how many rows a terminal that reflows lines adds above the
// cursor when the frame is rewrapped to width cells: 0 when the terminal
// did not get narrower than the frame was drawn for.
func (f frameShape) shift(width int) int {
	if width <= 0 || width >= f.width || len(f.widths) == 0 {
		return 0
	}
	row, col := f.cursor()
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
// reflow added above it (see frameShape.shift), and tells the output writer the
// size the renderer now draws for. It runs on Bubble Tea's event
// goroutine, like Update and View.
func reflowFilter(out *lockedWriter, reflows bool) func(tea.Model, tea.Msg) tea.Msg {
	out.mu.Lock()
	out.reflows = reflows
	out.mu.Unlock()
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			out.mu.Lock()
			out.resized(ws.Width)
			out.known = [2]int{ws.Width, ws.Height}
			out.mu.Unlock()
		}
		return msg
	}
}

// resized lines the terminal's cursor up for the renderer's erase after a
// resize to width: the renderer moves up by the row it believes the
// cursor is on and erases from there, so the cursor must be that many rows
// below the real top of the frame on screen. The real top is the cursor's
// row in the frame last written (0 right after a print: the cursor is
// left on the frame's first row), plus the rows a reflow added above it;
// frames dropped while the resize was pending (Write) moved the renderer's
// idea of the cursor, not the cursor. Too few rows are made up at once;
// too many are taken off the renderer's move up (never a move down: the
// rows below the cursor may be gone).
func (l *lockedWriter) resized(width int) {
	real := 0
	if !l.printed {
		row, _ := l.drawn.cursor()
		real = row
		if l.reflows {
			real += l.drawn.shift(width)
		}
	}
	switch diff := real - l.believed; {
	case diff > 0:
		l.w.Write([]byte(ansi.CursorUp(diff)))
	case diff < 0:
		l.eraseFix = diff
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
// below the cursor (buildInsert): up to the frame's first row, the printed
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
	known   [2]int
	reflows bool
	// recent are the last few frames View returned, newest last; drawn
	// is the frame on screen as far as known: the one current when the
	// renderer last wrote a frame, or the one a print wrote again.
	recent []frameShape
	drawn  frameShape
	// dropped: a frame write was dropped since the last one written.
	dropped bool
	// believed is the cursor's row in the frame as the renderer believes
	// it: the last frame it wrote, dropped or not, or 0 after a print.
	believed int
	// eraseFix is taken off the move up of the renderer's next erase
	// (resized).
	eraseFix int
}

// noteView records a frame View returned.
func (l *lockedWriter) noteView(f frameShape) {
	l.mu.Lock()
	if len(l.recent) == 4 {
		l.recent = append(l.recent[:0], l.recent[1:]...)
	}
	l.recent = append(l.recent, f)
	l.mu.Unlock()
}

// viewed returns the last frame View returned.
func (l *lockedWriter) viewed() frameShape {
	if len(l.recent) == 0 {
		return frameShape{row: -1}
	}
	return l.recent[len(l.recent)-1]
}

// frameFor returns the frame the renderer last drew, known from a print
// of it: height rows with the cursor on row (any row right after a print,
// when the renderer leaves it on the first). View hands the renderer its
// frame a moment after it returns, and the renderer may draw in between,
// so the last frame View returned is not always the one on screen.
func (l *lockedWriter) frameFor(height, row int) frameShape {
	fits := func(f frameShape) bool {
		r, _ := f.cursor()
		return len(f.lines) == height && (l.printed || r == row)
	}
	if fits(l.drawn) {
		return l.drawn
	}
	for i := len(l.recent) - 1; i >= 0; i-- {
		if fits(l.recent[i]) {
			return l.recent[i]
		}
	}
	return l.drawn
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if pr, ok := parseInsert(p); ok && l.drawn.lines != nil {
		frame := l.frameFor(pr.height, pr.row)
		up := 0 // right after a print the cursor is on the frame's first row
		if !l.printed {
			up = pr.row // where the renderer left the cursor
			if l.dropped {
				up, _ = l.drawn.cursor() // it did not: its last frame was dropped
			}
			up += l.pendingShift(frame)
		}
		l.printed, l.believed, l.dropped = true, 0, false
		l.drawn = frame
		if _, err := l.w.Write(keepErase(buildInsert(pr.lines, up, frame.lines), false)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if pr, ok := parseInsert(p); ok {
		// A print before the first frame (Enter typed while zero starts):
		// the renderer's moves assume a frame and would go up over the
		// opening lines; there is no frame row to keep, so the lines just
		// go where the cursor is.
		l.printed, l.believed = true, 0
		if _, err := l.w.Write(keepErase(buildInsert(pr.lines, 0, nil), false)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	// A frame.
	l.believed, _ = l.viewed().cursor()
	if l.resizePending() && onlyDrawing(p) {
		// Drawn for a size the terminal no longer has, with moves that
		// would land on the wrong rows: the renderer redraws the whole
		// frame once it hears of the resize.
		l.dropped = true
		return len(p), nil
	}
	if l.eraseFix != 0 {
		p = fixErase(p, l.eraseFix)
		l.eraseFix = 0
	}
	l.printed, l.dropped = false, false
	l.drawn = l.viewed()
	if _, err := l.w.Write(keepErase(p, true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// resizePending reports whether the terminal's size differs from the one
// the renderer draws for.
func (l *lockedWriter) resizePending() bool {
	if l.termSize == nil || l.known[0] <= 0 {
		return false
	}
	w, h, ok := l.termSize()
	return ok && (w != l.known[0] || h != l.known[1])
}

// onlyDrawing reports whether a renderer write only draws: no mode set or
// reset other than the cursor's visibility and synchronized output, which
// must not be lost with a dropped frame (bracketed paste, keyboard modes
// at exit).
func onlyDrawing(p []byte) bool {
	for i := 0; ; {
		j := bytes.Index(p[i:], []byte("\x1b[?"))
		if j < 0 {
			return true
		}
		rest := p[i+j+3:]
		if !bytes.HasPrefix(rest, []byte("25h")) && !bytes.HasPrefix(rest, []byte("25l")) &&
			!bytes.HasPrefix(rest, []byte("2026h")) && !bytes.HasPrefix(rest, []byte("2026l")) {
			return false
		}
		i += j + 3
	}
}

// fixErase adds fix (< 0) to the move up right before the first ED of a
// renderer write (its erase of the frame after a resize: "\r", CUU n, ED).
func fixErase(p []byte, fix int) []byte {
	at := bytes.Index(p, []byte("\x1b[J"))
	if at < 0 {
		return p
	}
	k := at - 1
	if k < 0 || p[k] != 'A' {
		return p
	}
	d := k - 1
	for d >= 0 && p[d] >= '0' && p[d] <= '9' {
		d--
	}
	if d < 1 || p[d] != '[' || p[d-1] != '\x1b' {
		return p
	}
	n := 1
	if d+1 < k {
		n, _ = strconv.Atoi(string(p[d+1 : k]))
	}
	var b bytes.Buffer
	b.Write(p[:d-1])
	if up := n + fix; up > 0 {
		b.WriteString(ansi.CursorUp(up))
	}
	b.Write(p[at:])
	return b.Bytes()
}

// pendingShift returns the rows a narrowing the renderer has not been told
// of yet added above the cursor, when the tty already reports it.
func (l *lockedWriter) pendingShift(frame frameShape) int {
	if l.termSize == nil || !l.reflows || l.printed || l.known[0] <= 0 {
		return 0
	}
	if w, _, ok := l.termSize(); ok && w < l.known[0] {
		return frame.shift(w)
	}
	return 0
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
	}
	return lw, lw
}

package tui

import (
	"bytes"
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// The live region is drawn so that a resize never needs to be undone.
//
// Between writes the terminal's cursor rests, hidden, on the first cell of
// the live region (View parks it there and draws the cursor the user sees
// in the text). That cell is the one place a resize cannot move away from
// the region: a terminal that rewraps its lines when it gets narrower
// (tmux, iTerm2, kitty, VTE, Windows Terminal...) moves the cursor with its
// cell, a shorter terminal deletes the rows below the cursor first, a
// taller one pulls rows back from the scrollback above it, and a terminal
// that truncates rows (xterm) leaves the cursor where it was. So every
// write that starts there starts at the region's real top, whatever the
// terminal did to the rows below, and erasing below it removes all of the
// old region and nothing else. (With the cursor in the input box, as
// before, a rewrap added rows above it that the program had to count from
// the frame it believed was on screen; on a busy machine tmux rewrapped
// while an earlier print or frame still waited in the pty, the count was
// off, and rows of the old region stayed in the scrollback.)
//
// Every write then moves down from the region's first row only by line
// feeds (content-relative: at the bottom they scroll, as the rows need)
// and draws the region's rows with autowrap off, so a row drawn for a
// wider terminal than the one that reads it stays one row; its moves back
// up therefore land on the first row again. A frame drawn for the old size
// is at worst wrong below the first row until the renderer, told of the
// resize, erases below it and draws the region again.

// noteFrame tells the output writer the frame View returns, for the prints
// it rewrites.
func (m *Model) noteFrame(lines []string) {
	if m.output != nil {
		m.output.noteView(lines)
	}
}

// A print of finished lines races a resize too. Bubble Tea prints above
// its frame by moving the cursor down to the frame's last row, scrolling,
// and moving back up by the frame's height (insertAbove). When the
// terminal gets shorter, tmux and most terminals delete the rows below the
// cursor, and the program learns of it only later (tmux even resizes the
// pane before it tells the program): the move down stops short, the move
// back up lands rows too high, the printed lines overwrite earlier
// transcript lines and the next erase wipes them (issue 4: lines printed
// just before a height shrink were lost). lockedWriter therefore rewrites
// every print into a form that never moves below the cursor
// (buildInsert): from the frame's first row, the printed lines, the frame
// the renderer last drew written again under them, and back up to its
// first row, where Bubble Tea expects the cursor: the renderer's idea of
// the screen stays true, as with its own line insertion. (Which frame it
// last drew: the last one View returned before its last write. View and
// the renderer's frame hand-over run back to back on the event goroutine,
// so a write between the two is the only way to get it wrong, and the next
// frame repairs what it changes.)

// lockedWriter serialises the renderer's writes, rewrites its prints (see
// above), draws its frames with autowrap off and keeps the terminal's
// cursor hidden while the program runs.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	// recent are the last few frames View returned, newest last; drawn
	// is the frame on screen as far as known: the one current when the
	// renderer last wrote a frame, or the one a print wrote again.
	recent [][]string
	drawn  []string
	// shown: the program has ended and may show the cursor again.
	shown bool
	// pin moves the region to the bottom of the screen at start (pin.go).
	pin pinning
}

// noteView records a frame View returned.
func (l *lockedWriter) noteView(lines []string) {
	l.mu.Lock()
	if len(l.recent) == 4 {
		l.recent = append(l.recent[:0], l.recent[1:]...)
	}
	l.recent = append(l.recent, lines)
	l.mu.Unlock()
}

// frameFor returns the frame the renderer last drew, known from a print
// of it: height rows. View hands the renderer its frame a moment after it
// returns, and the renderer may draw in between, so the last frame View
// returned is not always the one on screen.
func (l *lockedWriter) frameFor(height int) []string {
	if len(l.drawn) == height {
		return l.drawn
	}
	for i := len(l.recent) - 1; i >= 0; i-- {
		if len(l.recent[i]) == height {
			return l.recent[i]
		}
	}
	return l.drawn
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []byte
	pr, isPrint := parseInsert(p)
	if isPrint {
		// Before the first frame (Enter typed while zero starts) there
		// is no frame row to keep: the lines go where the cursor is.
		var frame []string
		if l.drawn != nil {
			frame = l.frameFor(pr.height)
			l.drawn = frame
		}
		out = keepErase(buildInsert(pr.lines, frame), false)
	} else {
		if len(l.recent) > 0 {
			l.drawn = l.recent[len(l.recent)-1]
		}
		out = keepErase(p, true)
		if !l.shown {
			out = bytes.ReplaceAll(out, []byte(ansi.ShowCursor), nil)
		}
		out = append(append([]byte(ansi.ResetModeAutoWrap), out...), ansi.SetModeAutoWrap...)
	}
	if l.holding() {
		l.pin.held = append(l.pin.held, out...)
		return len(p), nil
	}
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	if !isPrint {
		l.askPosition()
	}
	return len(p), nil
}

// showCursor shows the terminal's cursor again once the program ended.
func (l *lockedWriter) showCursor() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holding() { // ended before the cursor report came
		l.pin.done = true
		l.pin.timer.Stop()
		l.w.Write(l.pin.held)
		l.pin.held = nil
	}
	l.shown = true
	l.w.Write([]byte(ansi.ShowCursor))
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
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		lw.pin.size = func() (int, int, error) { return term.GetSize(f.Fd()) }
	}
	if f, ok := w.(*os.File); ok {
		return lockedFile{lockedWriter: lw, f: f}, lw
	}
	return lw, lw
}

package tui

import (
	"time"

	"github.com/charmbracelet/x/ansi"
)

// A terminal that rewraps its lines when it gets narrower keeps every
// line, the empty ones below the text included, and shows the last ones
// (tmux: grid_reflow then screen_resize_cursor,
// https://github.com/tmux/tmux/blob/3.3a/grid.c and screen.c). When zero
// starts high on a screen that is not full (right after clear), the empty
// rows under the live region stay at the bottom through a narrowing, and
// a narrowing that adds more rows to the region than there are rows above
// it moves the region's first row, the resting cell's (reflow.go), into
// the history, where no erase reaches: that row stays there twice
// (TestEndToEndResizeWhileStreaming, fresh pane). With no empty rows
// below the region, a narrowing moves only rows above it.
//
// So the live region starts at the bottom of the screen: after the first
// frame the writer asks the terminal where the cursor is (CPR, ECMA-48
// DSR 6), holds every later write until the answer comes, then inserts
// as many lines at the top of the screen as there are empty rows under the
// region (IL at the first row pushes the rows below down and drops the
// last ones, which are those empty rows) and moves the cursor down with
// the region. What was on the screen above zero stays above it, in order;
// nothing goes into the history. A terminal that does not answer within
// pinWait is left as it is. From then on the region only grows by
// scrolling and prints push it down, so it stays at the bottom until it
// gets shorter; the rows that leaves below are taken by the next prints.

// pinWait is how long the writer holds output for the cursor report: a
// local terminal answers in well under a millisecond.
const pinWait = 150 * time.Millisecond

// pinning is the lockedWriter's state for it.
type pinning struct {
	// size reads the terminal's size; nil when the output is not a
	// terminal (the writer then never asks).
	size func() (w, h int, err error)
	// asked: the report was requested; done: answered, or given up.
	asked, done bool
	// frame, width and height: the frame's rows on screen and the
	// screen's size when the report was requested.
	frame, width, height int
	held                 []byte
	timer                *time.Timer
}

// askPosition requests the cursor report after the first frame, with the
// cursor resting on the region's first row. l.mu is held.
func (l *lockedWriter) askPosition() {
	p := &l.pin
	if p.size == nil || p.asked || p.done || len(l.drawn) == 0 {
		return
	}
	w, h, err := p.size()
	if err != nil || len(l.drawn) >= h {
		p.done = true
		return
	}
	if _, err := l.w.Write([]byte(ansi.RequestCursorPositionReport)); err != nil {
		p.done = true
		return
	}
	p.asked, p.frame, p.width, p.height = true, len(l.drawn), w, h
	p.timer = time.AfterFunc(pinWait, func() { l.pinAt(-1) })
}

// holding reports whether writes wait for the cursor report. l.mu is held.
func (l *lockedWriter) holding() bool { return l.pin.asked && !l.pin.done }

// pinAt takes the cursor report's row (0-based; -1 when none came): it
// moves the region to the bottom of the screen, as above, and writes what
// was held.
func (l *lockedWriter) pinAt(row int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &l.pin
	if !l.holding() {
		return
	}
	p.done = true
	p.timer.Stop()
	var out []byte
	if empty := p.height - row - p.frame; row >= 0 && empty > 0 {
		// a resize since the request may have moved rows: leave them
		if w, h, err := p.size(); err == nil && w == p.width && h == p.height {
			out = append(out, '\r')
			if row > 0 {
				out = append(out, ansi.CursorUp(row)...)
			}
			out = append(out, ansi.InsertLine(empty)...)
			out = append(out, ansi.CursorDown(row+empty)...)
		}
	}
	out = append(out, p.held...)
	p.held = nil
	l.w.Write(out)
}

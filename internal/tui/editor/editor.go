// Package editor is the input box's line editor: a multi-line buffer of
// grapheme clusters with a cursor, Emacs-style editing (word moves, kill and
// yank), history with reverse search, and layout in terminal cells.
//
// The cursor is an index into graphemes, so Left/Right/Backspace step over a
// whole cluster ("e"+U+0301, a ZWJ emoji) and the drawn cursor column is the
// sum of the cell widths before it (case B35). The package is a pure core:
// it never reads a terminal, sanitises or submits; the app decides what
// Enter, ^C, Tab and the arrows mean before handing the rest to HandleKey.
package editor

import (
	"strings"
	"unicode"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// Editor holds the text being typed. The zero value is an empty editor.
type Editor struct {
	buf  []string // grapheme clusters; "\n" separates lines
	pos  int      // cursor: index into buf, 0..len(buf)
	kill string   // last killed text, for Yank
}

// Value returns the text.
func (e *Editor) Value() string { return strings.Join(e.buf, "") }

// SetValue replaces the text and puts the cursor at its end.
func (e *Editor) SetValue(s string) {
	e.buf = cells.Graphemes(s)
	e.pos = len(e.buf)
}

// Reset empties the buffer (the kill ring survives).
func (e *Editor) Reset() { e.buf, e.pos = nil, 0 }

// Empty reports whether there is no text.
func (e *Editor) Empty() bool { return len(e.buf) == 0 }

// Cursor returns the cursor as an index in graphemes.
func (e *Editor) Cursor() int { return e.pos }

// Insert types s at the cursor. s must already be sanitised.
func (e *Editor) Insert(s string) {
	if s == "" {
		return
	}
	g := cells.Graphemes(s)
	// A combining mark typed after a base character joins its cluster.
	if e.pos > 0 && len(g) > 0 {
		if joined := cells.Graphemes(e.buf[e.pos-1] + g[0]); len(joined) == 1 {
			e.buf[e.pos-1] = joined[0]
			g = g[1:]
		}
	}
	e.buf = append(e.buf[:e.pos], append(g, e.buf[e.pos:]...)...)
	e.pos += len(g)
	e.join(e.pos)
}

// join merges buf[i-1] and buf[i] when together they form one grapheme
// (after a deletion or insertion brought them side by side, e.g. two
// regional indicators), so buf always matches the text's segmentation. A
// cursor at the junction moves past the merged cluster.
func (e *Editor) join(i int) {
	if i <= 0 || i >= len(e.buf) {
		return
	}
	if g := cells.Graphemes(e.buf[i-1] + e.buf[i]); len(g) == 1 {
		e.buf[i-1] = g[0]
		e.buf = append(e.buf[:i], e.buf[i+1:]...)
		if e.pos > i {
			e.pos--
		} // a cursor at i now sits just after the merged cluster
	}
}

// Left moves back one grapheme; Right forward one.
func (e *Editor) Left() {
	if e.pos > 0 {
		e.pos--
	}
}

// Right moves forward one grapheme.
func (e *Editor) Right() {
	if e.pos < len(e.buf) {
		e.pos++
	}
}

// Home moves to the start of the current line; End to its end.
func (e *Editor) Home() { e.pos = e.lineStart(e.pos) }

// End moves to the end of the current line.
func (e *Editor) End() { e.pos = e.lineEnd(e.pos) }

// WordLeft moves to the start of the previous word.
func (e *Editor) WordLeft() { e.pos = e.wordStart(e.pos) }

// WordRight moves past the end of the next word.
func (e *Editor) WordRight() {
	i := e.pos
	for i < len(e.buf) && !isWord(e.buf[i]) {
		i++
	}
	for i < len(e.buf) && isWord(e.buf[i]) {
		i++
	}
	e.pos = i
}

// Backspace deletes the grapheme before the cursor.
func (e *Editor) Backspace() {
	if e.pos > 0 {
		e.delete(e.pos-1, e.pos)
	}
}

// DeleteForward deletes the grapheme under the cursor.
func (e *Editor) DeleteForward() {
	if e.pos < len(e.buf) {
		e.delete(e.pos, e.pos+1)
	}
}

// KillWordBack kills back to the previous whitespace (shell ^W: a path or
// flag goes whole).
func (e *Editor) KillWordBack() {
	i := e.pos
	for i > 0 && isSpace(e.buf[i-1]) {
		i--
	}
	for i > 0 && !isSpace(e.buf[i-1]) {
		i--
	}
	e.killRange(i, e.pos)
}

func isSpace(g string) bool { return g == " " || g == "\t" || g == "\n" }

// KillToStart kills from the start of the line to the cursor.
func (e *Editor) KillToStart() { e.killRange(e.lineStart(e.pos), e.pos) }

// KillToEnd kills from the cursor to the end of the line; at the end of a
// line it kills the newline, joining the next line.
func (e *Editor) KillToEnd() {
	end := e.lineEnd(e.pos)
	if end == e.pos && end < len(e.buf) {
		end++
	}
	e.killRange(e.pos, end)
}

// Yank inserts the last killed text.
func (e *Editor) Yank() { e.Insert(e.kill) }

// Up moves the cursor to the previous line, keeping its cell column when it
// can. It returns false on the first line (the caller then recalls history).
func (e *Editor) Up() bool {
	start := e.lineStart(e.pos)
	if start == 0 {
		return false
	}
	col := e.width(start, e.pos)
	prev := e.lineStart(start - 1)
	e.pos = e.atColumn(prev, start-1, col)
	return true
}

// Down moves to the next line; false on the last line.
func (e *Editor) Down() bool {
	end := e.lineEnd(e.pos)
	if end == len(e.buf) {
		return false
	}
	col := e.width(e.lineStart(e.pos), e.pos)
	e.pos = e.atColumn(end+1, e.lineEnd(end+1), col)
	return true
}

func (e *Editor) delete(from, to int) {
	e.buf = append(e.buf[:from], e.buf[to:]...)
	e.pos = from
	e.join(from)
}

func (e *Editor) killRange(from, to int) {
	if from >= to {
		return
	}
	e.kill = strings.Join(e.buf[from:to], "")
	e.delete(from, to)
}

func (e *Editor) lineStart(i int) int {
	for i > 0 && e.buf[i-1] != "\n" {
		i--
	}
	return i
}

func (e *Editor) lineEnd(i int) int {
	for i < len(e.buf) && e.buf[i] != "\n" {
		i++
	}
	return i
}

func (e *Editor) wordStart(i int) int {
	for i > 0 && !isWord(e.buf[i-1]) {
		i--
	}
	for i > 0 && isWord(e.buf[i-1]) {
		i--
	}
	return i
}

// width returns the cells of buf[from:to].
func (e *Editor) width(from, to int) int {
	w := 0
	for _, g := range e.buf[from:to] {
		w += cells.GraphemeWidth(g)
	}
	return w
}

// atColumn returns the index in [from,to] whose column is the largest not
// past col, so the cursor never lands inside a wide grapheme.
func (e *Editor) atColumn(from, to, col int) int {
	w := 0
	for i := from; i < to; i++ {
		gw := cells.GraphemeWidth(e.buf[i])
		if w+gw > col {
			return i
		}
		w += gw
	}
	return to
}

func isWord(g string) bool {
	for _, r := range g {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
	}
	return false
}

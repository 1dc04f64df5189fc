package editor

import (
	"strings"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// tabWidth is the tab stop the input box draws tabs to (as the
// transcript's sanitize.ExpandTabs).
const tabWidth = 4

// Layout is the editor drawn into a box of a given width: soft-wrapped
// rows and the cursor's cell position among them.
type Layout struct {
	Rows []string
	// Row and Col locate the cursor: a row index into Rows and a column in
	// cells (0-based). Col is never inside a wide grapheme.
	Row, Col int
}

// drawn is one grapheme of buf as Layout draws it: its index, text (a tab
// becomes spaces) and width in cells. A newline is drawn empty.
type drawn struct {
	i, w int
	s    string
}

// Layout wraps the text to rows of at most width cells. A row breaks after
// its last space or tab, so a word that does not fit moves whole to the
// next row (a space past the edge hangs there undrawn, and the cursor on
// it sits at the edge); a word longer than the row breaks at the edge, and a grapheme
// that does not fit on a row moves whole to the next row (case B35). When
// the cursor sits exactly at the right edge of a full row it moves to
// column 0 of the next row, as a terminal would draw it. A tab is drawn as
// spaces to the next multiple of tabWidth (the text keeps the tab): a raw
// tab would jump the terminal's cursor past where Layout thinks it is.
func (e *Editor) Layout(width int) Layout {
	if width < 2 {
		width = 2
	}
	var rows [][]drawn
	var row []drawn
	w := 0
	newRow := func(tail []drawn) {
		rows = append(rows, row)
		row, w = tail, 0
		for _, d := range tail {
			w += d.w
		}
	}
	for i, g := range e.buf {
		switch {
		case g == "\n":
			row = append(row, drawn{i: i})
			newRow(nil)
			continue
		case g == "\t":
			n := tabWidth - w%tabWidth
			if w+n > width {
				newRow(nil)
				n = min(tabWidth, width)
			}
			row = append(row, drawn{i, n, strings.Repeat(" ", n)})
		default:
			gw := cells.GraphemeWidth(g)
			if w+gw > width && isSpace(g) {
				row = append(row, drawn{i: i}) // hangs past the edge, undrawn
				continue
			}
			if w+gw > width {
				newRow(e.wordTail(&row, g, width-gw))
			}
			row = append(row, drawn{i, gw, g})
		}
		w += row[len(row)-1].w
	}
	end := len(e.buf)
	if e.pos == end && w >= width {
		newRow(nil) // the cursor after a full row starts the next one
	}
	rows = append(rows, row)
	return place(rows, e.pos, end)
}

// wordTail cuts from *row the word that g continues and returns it, for
// the next row: the graphemes after the row's last space or tab. It cuts
// nothing when g is a space (the row ends at a word's end), when the row
// has no space (a word longer than the row breaks at the edge) or when the
// word would not leave room cells for g on the next row.
func (e *Editor) wordTail(row *[]drawn, g string, room int) []drawn {
	if isSpace(g) {
		return nil
	}
	r := *row
	w := 0
	for k := len(r) - 1; k >= 0; k-- {
		if isSpace(e.buf[r[k].i]) {
			if w > room {
				return nil
			}
			tail := append([]drawn(nil), r[k+1:]...)
			*row = r[:k+1]
			return tail
		}
		w += r[k].w
	}
	return nil
}

// place turns drawn rows into a Layout with the cursor at index pos (end:
// past the last grapheme, at the end of the last row).
func place(rows [][]drawn, pos, end int) Layout {
	l := Layout{Rows: make([]string, len(rows))}
	found := false
	for r, row := range rows {
		var b strings.Builder
		col := 0
		for _, d := range row {
			if d.i == pos && !found {
				l.Row, l.Col, found = r, col, true
			}
			b.WriteString(d.s)
			col += d.w
		}
		l.Rows[r] = b.String()
		if pos == end && r == len(rows)-1 {
			l.Row, l.Col = r, col
		}
	}
	return l
}

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

// Layout wraps the text to rows of at most width cells. A grapheme that
// does not fit on a row moves whole to the next row (case B35). When the
// cursor sits exactly at the right edge of a full row it moves to column 0
// of the next row, as a terminal would draw it. A tab is drawn as spaces
// to the next multiple of tabWidth (the text keeps the tab): a raw tab
// would jump the terminal's cursor past where Layout thinks it is.
func (e *Editor) Layout(width int) Layout {
	if width < 2 {
		width = 2
	}
	var l Layout
	var row strings.Builder
	w := 0
	place := func() { l.Row, l.Col = len(l.Rows), w }
	newRow := func() {
		l.Rows = append(l.Rows, row.String())
		row.Reset()
		w = 0
	}
	for i, g := range e.buf {
		if g == "\n" {
			if i == e.pos {
				place()
			}
			newRow()
			continue
		}
		if g == "\t" {
			n := tabWidth - w%tabWidth
			if w+n > width {
				newRow()
				n = min(tabWidth, width)
			}
			if i == e.pos {
				place()
			}
			row.WriteString(strings.Repeat(" ", n))
			w += n
			continue
		}
		gw := cells.GraphemeWidth(g)
		if w+gw > width {
			newRow()
		}
		if i == e.pos {
			place()
		}
		row.WriteString(g)
		w += gw
	}
	if e.pos == len(e.buf) {
		if w >= width {
			newRow()
		}
		place()
	}
	l.Rows = append(l.Rows, row.String())
	return l
}

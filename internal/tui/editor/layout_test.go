package editor

import (
	"reflect"
	"testing"
)

// A tab is drawn as spaces to the next tab stop, and the cursor after it
// sits where the terminal shows it; the text keeps the tab.
func TestLayoutDrawsTabsAsSpaces(t *testing.T) {
	var e Editor
	e.Insert("a\tbc\td")
	l := e.Layout(20)
	if len(l.Rows) != 1 || l.Rows[0] != "a   bc  d" || l.Col != 9 {
		t.Fatalf("layout %q, cursor col %d", l.Rows, l.Col)
	}
	if e.Value() != "a\tbc\td" {
		t.Fatalf("value %q", e.Value())
	}
}

// A long line wraps at word boundaries: a word that does not fit moves
// whole to the next row, the space stays at the end of the row before (past the edge, undrawn), and
// the cursor follows its grapheme. A word longer than the row still breaks
// at the edge.
func TestLayoutWrapsAtWordBoundaries(t *testing.T) {
	checkLayouts(t, []layoutCase{
		{"explain a path please", 0, 12, []string{"explain a ", "path please"}, 1, 11},
		{"explain a path please", 6, 12, []string{"explain a ", "path please"}, 1, 5},
		{"explain a path please", 9, 12, []string{"explain a ", "path please"}, 1, 2},
		{"explain this path", 5, 12, []string{"explain this", "path"}, 0, 12},
		{"see abcdefghijklmnop", 0, 8, []string{"see ", "abcdefgh", "ijklmnop", ""}, 3, 0},
		{"one two", 0, 3, []string{"one", "two", ""}, 2, 0},
		{"one ", 0, 3, []string{"one", ""}, 1, 0},
		{"a\tword wraps", 0, 7, []string{"a   ", "word ", "wraps"}, 2, 5},
		{"ok 你好世界", 0, 6, []string{"ok ", "你好世", "界"}, 2, 2},
	})
}

// layoutCase is a text, the cursor (graphemes back from the end) and the
// width its Layout is asked at, and the rows and cursor it must give.
type layoutCase struct {
	text     string
	cursor   int
	width    int
	rows     []string
	row, col int
}

func checkLayouts(t *testing.T, tests []layoutCase) {
	t.Helper()
	for _, tt := range tests {
		var e Editor
		e.SetValue(tt.text)
		for i := 0; i < tt.cursor; i++ {
			e.Left()
		}
		l := e.Layout(tt.width)
		if !reflect.DeepEqual(l.Rows, tt.rows) || l.Row != tt.row || l.Col != tt.col {
			t.Errorf("Layout(%q,%d) = %q (%d,%d), want %q (%d,%d)", tt.text, tt.width, l.Rows, l.Row, l.Col, tt.rows, tt.row, tt.col)
		}
	}
}

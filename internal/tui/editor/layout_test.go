package editor

import "testing"

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

package editor

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// keys turns a compact script into key presses: "text" types text, other
// entries are key names as tea.Key.String spells them.
func press(t *testing.T, e *Editor, script ...string) {
	t.Helper()
	for _, s := range script {
		k, ok := named[s]
		if !ok {
			for _, g := range cells.Graphemes(s) {
				k := tea.Key{Code: []rune(g)[0], Text: g}
				if !e.HandleKey(k) {
					t.Fatalf("typing %q not handled", g)
				}
			}
			continue
		}
		if !e.HandleKey(k) {
			t.Fatalf("key %q not handled", s)
		}
	}
}

var named = map[string]tea.Key{
	"^A": {Code: 'a', Mod: tea.ModCtrl}, "^E": {Code: 'e', Mod: tea.ModCtrl},
	"^B": {Code: 'b', Mod: tea.ModCtrl}, "^F": {Code: 'f', Mod: tea.ModCtrl},
	"^W": {Code: 'w', Mod: tea.ModCtrl}, "^U": {Code: 'u', Mod: tea.ModCtrl},
	"^K": {Code: 'k', Mod: tea.ModCtrl}, "^Y": {Code: 'y', Mod: tea.ModCtrl},
	"^J": {Code: 'j', Mod: tea.ModCtrl}, "S-Enter": {Code: tea.KeyEnter, Mod: tea.ModShift},
	"M-Enter": {Code: tea.KeyEnter, Mod: tea.ModAlt},
	"Home":    {Code: tea.KeyHome}, "End": {Code: tea.KeyEnd},
	"Left": {Code: tea.KeyLeft}, "Right": {Code: tea.KeyRight},
	"M-Left": {Code: tea.KeyLeft, Mod: tea.ModAlt}, "M-Right": {Code: tea.KeyRight, Mod: tea.ModAlt},
	"C-Left": {Code: tea.KeyLeft, Mod: tea.ModCtrl}, "C-Right": {Code: tea.KeyRight, Mod: tea.ModCtrl},
	"M-b": {Code: 'b', Mod: tea.ModAlt}, "M-f": {Code: 'f', Mod: tea.ModAlt},
	"BS": {Code: tea.KeyBackspace}, "Del": {Code: tea.KeyDelete},
}

func TestKeyTable(t *testing.T) {
	tests := []struct {
		name   string
		script []string
		want   string
		cursor int
	}{
		{"type", []string{"hello"}, "hello", 5},
		{"home insert", []string{"world", "^A", "hello "}, "hello world", 6},
		{"home key", []string{"bc", "Home", "a"}, "abc", 1},
		{"end", []string{"ac", "^A", "^E", "d"}, "acd", 3},
		{"end key", []string{"ac", "^A", "End", "d"}, "acd", 3},
		{"back forward", []string{"ac", "^B", "b", "^F", "d"}, "abcd", 4},
		{"arrows", []string{"ac", "Left", "b", "Right", "d"}, "abcd", 4},
		{"word left alt", []string{"foo bar", "M-Left", "x"}, "foo xbar", 5},
		{"word left ctrl", []string{"foo bar", "C-Left", "C-Left", "x"}, "xfoo bar", 1},
		{"word left M-b", []string{"foo bar", "M-b", "x"}, "foo xbar", 5},
		{"word right", []string{"foo bar", "^A", "M-Right", "x"}, "foox bar", 4},
		{"word right C/M-f", []string{"foo bar", "^A", "C-Right", "M-f", "x"}, "foo barx", 8},
		{"kill word", []string{"git commit -m", "^W"}, "git commit ", 11},
		{"kill word twice", []string{"git commit -m", "^W", "^W"}, "git ", 4},
		{"kill word trailing space", []string{"a path/to/x ", "^W"}, "a ", 2},
		{"kill to start", []string{"abc def", "Left", "Left", "^U"}, "ef", 0},
		{"kill to end", []string{"abc def", "^A", "M-f", "^K"}, "abc", 3},
		{"yank", []string{"abc def", "^W", "^A", "^Y"}, "defabc ", 3},
		{"newline ^J", []string{"a", "^J", "b"}, "a\nb", 3},
		{"newline shift+enter", []string{"a", "S-Enter", "b"}, "a\nb", 3},
		{"newline alt+enter", []string{"a", "M-Enter", "b"}, "a\nb", 3},
		{"backspace", []string{"abc", "BS"}, "ab", 2},
		{"delete", []string{"abc", "^A", "Del"}, "bc", 0},
		{"home on second line", []string{"ab", "^J", "cd", "^A", "x"}, "ab\nxcd", 4},
		{"kill to end joins lines", []string{"ab", "^J", "cd", "^A", "Left", "^K"}, "abcd", 2},
		// B35: Backspace on e + U+0301 deletes both code points.
		{"backspace grapheme", []string{"ete\u0301", "BS"}, "et", 2},
		{"combining typed after base joins", []string{"e", "\u0301", "Left", "x"}, "xe\u0301", 1},
		{"left over family emoji", []string{"a👨\u200d👩\u200d👧", "Left", "x"}, "ax👨\u200d👩\u200d👧", 2},
		{"wide chars", []string{"你好", "Left", "x"}, "你x好", 2},
		{"deleting between flag halves joins them", []string{"🇯x🇵", "Left", "BS", "Home", "Right", "y"}, "🇯🇵y", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e Editor
			press(t, &e, tt.script...)
			if e.Value() != tt.want || e.Cursor() != tt.cursor {
				t.Errorf("got %q cursor %d, want %q cursor %d", e.Value(), e.Cursor(), tt.want, tt.cursor)
			}
		})
	}
}

func TestUnhandledKeys(t *testing.T) {
	var e Editor
	for _, k := range []tea.Key{{Code: tea.KeyEnter}, {Code: tea.KeyTab}, {Code: 'c', Mod: tea.ModCtrl}, {Code: tea.KeyUp}, {Code: tea.KeyEscape}} {
		if e.HandleKey(k) {
			t.Errorf("%s handled by editor; the app owns it", k)
		}
	}
}

func TestTypedControlsAreInert(t *testing.T) {
	var e Editor
	e.HandleKey(tea.Key{Code: 'x', Text: "a\x1b[2Jb"})
	if e.Value() != "ab" {
		t.Errorf("got %q", e.Value())
	}
}

func TestUpDown(t *testing.T) {
	var e Editor
	e.SetValue("abcdef\nxy\n你好世界")
	// cursor at end of line 3 (col 8). Up to "xy" → clamps to end (col 2).
	if !e.Up() || e.Cursor() != 9 {
		t.Fatalf("up: cursor %d", e.Cursor())
	}
	if !e.Up() || e.Cursor() != 2 {
		t.Fatalf("up2: cursor %d", e.Cursor())
	}
	if e.Up() {
		t.Fatal("up on first line should fail")
	}
	// col 2 on line 3: 你 is 2 cells, so index just after it.
	e.Down()
	if !e.Down() || e.Cursor() != 11 {
		t.Fatalf("down: cursor %d", e.Cursor())
	}
	if e.Down() {
		t.Fatal("down on last line should fail")
	}
}

// TestLayoutCountsCellsOfWideCharacters: the cursor and wrap of the input
// box go by cell width, not rune index (case B35;
// https://github.com/can1357/oh-my-pi/issues/2866).
func TestLayoutCountsCellsOfWideCharacters(t *testing.T) {
	checkLayouts(t, []layoutCase{
		{"你好世界，你好世界", 0, 10, []string{"你好世界，", "你好世界"}, 1, 8},
		{"你好世界，你好世界", 4, 10, []string{"你好世界，", "你好世界"}, 1, 0},
		{"ok 🎉 done", 5, 20, []string{"ok 🎉 done"}, 0, 5},
		{"été", 1, 20, []string{"été"}, 0, 2},
		{"abcd", 0, 4, []string{"abcd", ""}, 1, 0},
		{"ab\ncd", 3, 10, []string{"ab", "cd"}, 0, 2},
		{"a你", 0, 2, []string{"a", "你", ""}, 2, 0},
	})
}

func TestHistory(t *testing.T) {
	var h History
	for _, s := range []string{"one", "two", "two", " ", "three"} {
		h.Add(s)
	}
	if h.Len() != 3 {
		t.Fatalf("len %d", h.Len())
	}
	steps := []struct {
		up   bool
		want string
		ok   bool
	}{{true, "three", true}, {true, "two", true}, {true, "one", true}, {true, "", false}, {false, "two", true}, {false, "three", true}, {false, "draft", true}, {false, "", false}}
	for i, s := range steps {
		var got string
		var ok bool
		if s.up {
			got, ok = h.Prev("draft")
		} else {
			got, ok = h.Next()
		}
		if got != s.want || ok != s.ok {
			t.Fatalf("step %d: got %q %v want %q %v", i, got, ok, s.want, s.ok)
		}
	}
	if i := h.Search("t", h.Len()); i != 2 {
		t.Errorf("search t = %d", i)
	}
	if i := h.Search("t", 2); i != 1 {
		t.Errorf("search older t = %d", i)
	}
	if i := h.Search("zzz", h.Len()); i != -1 {
		t.Errorf("search miss = %d", i)
	}
}

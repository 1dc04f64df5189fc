package cells

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWidthsAndGraphemesOfCJKAndEmojiSamples checks widths and grapheme
// counts against case B35 (testdata;
// https://github.com/can1357/oh-my-pi/issues/2866).
func TestWidthsAndGraphemesOfCJKAndEmojiSamples(t *testing.T) {
	var doc struct {
		Samples []struct {
			Text      string `json:"text"`
			Cells     int    `json:"cells"`
			Graphemes int    `json:"graphemes"`
		} `json:"samples"`
	}
	readJSON(t, "samples.json", &doc)
	if len(doc.Samples) == 0 {
		t.Fatal("no samples")
	}
	for _, s := range doc.Samples {
		if got := Width(s.Text); got != s.Cells {
			t.Errorf("Width(%q) = %d, want %d", s.Text, got, s.Cells)
		}
		if got := len(Graphemes(s.Text)); got != s.Graphemes {
			t.Errorf("len(Graphemes(%q)) = %d, want %d", s.Text, got, s.Graphemes)
		}
		sum := 0
		for _, g := range Graphemes(s.Text) {
			sum += GraphemeWidth(g)
		}
		if sum != s.Cells {
			t.Errorf("sum of grapheme widths of %q = %d, want %d", s.Text, sum, s.Cells)
		}
	}
}

// TestWrapNeverSplitsAWideCharacter (case B35) checks that wrapping never
// splits a wide character.
func TestWrapNeverSplitsAWideCharacter(t *testing.T) {
	var c struct {
		Width         int      `json:"width"`
		Text          string   `json:"text"`
		ExpectedLines []string `json:"expected_lines"`
	}
	readJSON(t, "wrap_case.json", &c)
	for name, wrap := range map[string]func(string, int) []string{"Wrap": Wrap, "Hardwrap": Hardwrap} {
		got := wrap(c.Text, c.Width)
		if !reflect.DeepEqual(got, c.ExpectedLines) {
			t.Errorf("%s(%q, %d) = %q, want %q", name, c.Text, c.Width, got, c.ExpectedLines)
		}
		for _, l := range got {
			if Width(l) > c.Width {
				t.Errorf("%s: line %q is %d cells, over %d", name, l, Width(l), c.Width)
			}
		}
	}
}

func TestWrapWords(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  []string
	}{
		{"hello world foo", 11, []string{"hello world", "foo"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"a\nb", 10, []string{"a", "b"}},
		{"ok 🎉 done", 4, []string{"ok", "🎉", "done"}},
		{" 000000000000", 12, []string{" 00000000000", "0"}},
		// a row broken before a hyphenated word ends without the space
		{"0000000 0000-0000000", 12, []string{"0000000", "0000-0000000"}},
		{"end  \nnext", 10, []string{"end  ", "next"}},
	}
	for _, tt := range tests {
		if got := Wrap(tt.in, tt.width); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Wrap(%q,%d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

func TestTruncatePad(t *testing.T) {
	if got := Truncate("你好世界", 5, "…"); Width(got) > 5 || got != "你好…" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Pad("你", 4); got != "你  " {
		t.Errorf("Pad = %q", got)
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "B35", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

package contextmgr

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var markerRe = regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted(?:; full output in (\S+), read it with read_file offset/limit)? \.\.\.\]\n?`)

// splitCut returns head, omitted count, spill path and tail of a capped
// text, failing unless it has exactly one marker.
func splitCut(t *testing.T, kept string) (head string, omitted int, path, tail string) {
	t.Helper()
	locs := markerRe.FindAllStringSubmatchIndex(kept, -1)
	if len(locs) != 1 {
		t.Fatalf("want one marker in %q", kept)
	}
	l := locs[0]
	omitted, _ = strconv.Atoi(kept[l[2]:l[3]])
	if l[4] >= 0 {
		path = kept[l[4]:l[5]]
	}
	return kept[:l[0]], omitted, path, kept[l[1]:]
}

func TestCap(t *testing.T) {
	lines := func(n int, s string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s line %d\n", s, i)
		}
		return b.String()
	}
	tests := []struct {
		name    string
		content string
		max     int
	}{
		{"lines", lines(2000, "output"), 4096},
		{"one long line", strings.Repeat("x", 50000), 4096},
		{"multibyte", strings.Repeat("héllo wörld 日本語 🙂 ", 3000), 1000},
		{"small max", strings.Repeat("é", 10000), 300},
		{"default max", lines(3000, "y"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path, err := Spill(dir, "call_Ab3", tt.content)
			if err != nil {
				t.Fatal(err)
			}
			kept, cut := Cap(tt.content, tt.max, path)
			max := tt.max
			if max <= 0 {
				max = DefaultMaxToolOutput
			}
			if !cut || len(kept) > max {
				t.Fatalf("cut=%v len=%d, want a cut within %d", cut, len(kept), max)
			}
			if !utf8.ValidString(kept) {
				t.Fatal("kept text is not valid UTF-8")
			}
			head, omitted, named, tail := splitCut(t, kept)
			head = strings.TrimSuffix(head, "\n")
			if !strings.HasPrefix(tt.content, head) || !strings.HasSuffix(tt.content, tail) {
				t.Fatal("head/tail are not the content's own prefix/suffix")
			}
			if len(head) == 0 || len(tail) == 0 {
				t.Errorf("head %d tail %d bytes: both should survive", len(head), len(tail))
			}
			// Saving: the marker counts exactly what was dropped.
			if omitted < len(tt.content)-len(head)-len(tail)-1 || omitted > len(tt.content)-len(head)-len(tail) {
				t.Errorf("omitted %d, content %d head %d tail %d", omitted, len(tt.content), len(head), len(tail))
			}
			// Reachable: the named file holds the full content.
			if named != path {
				t.Fatalf("marker names %q, spilled to %q", named, path)
			}
			full, err := os.ReadFile(named)
			if err != nil || string(full) != tt.content {
				t.Fatalf("spill file does not hold the full content: %v", err)
			}
		})
	}
}

func TestCapFits(t *testing.T) {
	for _, s := range []string{"", "short", strings.Repeat("a", 4096)} {
		if kept, cut := Cap(s, 4096, "/x"); cut || kept != s {
			t.Errorf("Cap changed content that fits (%d bytes)", len(s))
		}
	}
	// A max smaller than the marker leaves the marker alone.
	if kept, cut := Cap(strings.Repeat("a", 100), 10, "/p"); !cut || !markerRe.MatchString(kept) {
		t.Errorf("tiny max: %q", kept)
	}
}

func TestSpillPaths(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for _, id := range []string{"call_1", "../../etc/passwd", "a.b", "ab", "", strings.Repeat("z", 100)} {
		p, err := Spill(dir, id, "content "+id)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(p) != filepath.Join(dir, "tool-output") {
			t.Errorf("id %q spilled outside the session dir: %s", id, p)
		}
		if seen[p] {
			t.Errorf("id %q reuses path %s", id, p)
		}
		seen[p] = true
		if b, _ := os.ReadFile(p); string(b) != "content "+id {
			t.Errorf("id %q: file holds %q", id, b)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", st.Mode())
		}
	}
}

func FuzzCap(f *testing.F) {
	f.Add("héllo\nwörld\n", 20)
	f.Add(strings.Repeat("日本\n", 100), 64)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max%10000 + 1
		if max < 0 {
			max = -max
		}
		kept, cut := Cap(s, max, "/session/tool-output/c.txt")
		if !cut {
			if kept != s {
				t.Fatal("uncut content changed")
			}
			return
		}
		if m := len(Marker(len(s), "/session/tool-output/c.txt")) + 2; max > m && len(kept) > max {
			t.Fatalf("len %d > max %d", len(kept), max)
		}
		if utf8.ValidString(s) && !utf8.ValidString(kept) {
			t.Fatal("cut inside a rune")
		}
	})
}

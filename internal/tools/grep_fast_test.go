package tools

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// litIndexRef is the plain reference for litFinder: bytes.Index on the
// buffer, ASCII-lowered first when fold.
func litIndexRef(hay, lit []byte, fold bool, from int) int {
	if fold {
		low := make([]byte, len(hay))
		for i, c := range hay {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			low[i] = c
		}
		hay = low
	}
	if from > len(hay) {
		return -1
	}
	if i := bytes.Index(hay[from:], lit); i >= 0 {
		return from + i
	}
	return -1
}

// allIndexes lists every start offset litFinder reports scanning forward
// from 0, the way match uses it (next search starts after the hit).
func allIndexes(hay, lit []byte, fold bool, ref bool) []int {
	f := newLitFinder(lit, fold)
	var at []int
	for from := 0; from <= len(hay); {
		var i int
		if ref {
			i = litIndexRef(hay, lit, fold, from)
		} else {
			i = f.index(hay, from)
		}
		if i < 0 {
			break
		}
		at = append(at, i)
		from = i + 1
	}
	return at
}

func TestLitFinder(t *testing.T) {
	tests := []struct {
		hay, lit string
		fold     bool
		want     []int
	}{
		{"ErrNotExist x ErrNotExist", "ErrNotExist", false, []int{0, 14}},
		{"errnotexist", "ErrNotExist", false, nil},
		{") Close() Close(", ") Close(", false, []int{0, 8}},
		{"x) Close(", ") Close(", false, []int{1}},
		{"aaaa", "aa", false, []int{0, 1, 2}},
		{"", "a", false, nil},
		{"a", "ab", false, nil},
		{"Deadline EXCEEDED; deadline exceeded", "deadline exceeded", true, []int{0, 19}},
		{"DEADLINE EXCEEDE", "deadline exceeded", true, nil},
		{"xX", "x", true, []int{0, 1}},
		{"Xx", "x", true, []int{0, 1}},
		{"XXXXxxxx", "xx", true, []int{0, 1, 2, 3, 4, 5, 6}},
		{"1.GO 2.go", ".go", true, []int{1, 6}},
		{"[\x00]", "\x00", false, []int{1}},
	}
	for _, tt := range tests {
		got := allIndexes([]byte(tt.hay), []byte(tt.lit), tt.fold, false)
		want := allIndexes([]byte(tt.hay), []byte(tt.lit), tt.fold, true)
		if !equalInts(got, tt.want) || !equalInts(want, tt.want) {
			t.Errorf("%q in %q (fold %v): got %v, reference %v, want %v", tt.lit, tt.hay, tt.fold, got, want, tt.want)
		}
	}
}

// FuzzLitFinder checks litFinder against bytes.Index on a lowered copy.
func FuzzLitFinder(f *testing.F) {
	f.Add([]byte("Deadline EXCEEDED; deadline exceeded"), "deadline exceeded", true)
	f.Add([]byte("func (f *File) Close() error"), ") Close(", false)
	f.Add([]byte("XXXXxxxx"), "xx", true)
	f.Fuzz(func(t *testing.T, hay []byte, lit string, fold bool) {
		if lit == "" {
			return
		}
		if fold {
			if !isASCII(lit) {
				return
			}
			lit = strings.ToLower(lit)
		}
		got := allIndexes(hay, []byte(lit), fold, false)
		want := allIndexes(hay, []byte(lit), fold, true)
		if !equalInts(got, want) {
			t.Fatalf("%q in %q (fold %v): got %v, want %v", lit, hay, fold, got, want)
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGrepSecretShortcut checks that grep's secret check gives isSecret's
// answer for files under roots that can and cannot hold home secrets.
func TestGrepSecretShortcut(t *testing.T) {
	h := home()
	if h == "" {
		t.Fatal("no home directory; isSecret's location rules cannot be exercised")
	}
	tests := []struct {
		start string
		files []string
	}{
		{"/srv/repo", []string{"/srv/repo/.env", "/srv/repo/.env.example", "/srv/repo/a/id_rsa", "/srv/repo/.ssh/config", "/srv/repo/main.go", "/srv/repo/.NETRC"}},
		{h, []string{h + "/.ssh/id_ed25519.pub", h + "/.aws/credentials", h + "/.netrc", h + "/.docker/config.json", h + "/proj/main.go", h + "/proj/.env.local"}},
		{filepath.Dir(h), []string{h + "/.ssh/known_hosts", h + "/.kube/config", filepath.Dir(h) + "/other/.npmrc"}},
		{h + "/.ssh", []string{h + "/.ssh/config"}},
		{h + "/proj", []string{h + "/proj/.ssh/x", h + "/proj/x.go"}},
	}
	for _, tt := range tests {
		s := &grepSearch{homeSecrets: mayHoldHomeSecrets(tt.start)}
		for _, f := range tt.files {
			if got, want := s.secret(f), isSecret(f); got != want {
				t.Errorf("start %s: secret(%s) = %v, isSecret = %v", tt.start, f, got, want)
			}
		}
	}
	if mayHoldHomeSecrets(h + "-not-home") {
		t.Errorf("a root beside home is said to hold home secrets")
	}
	if !mayHoldHomeSecrets(h) || !mayHoldHomeSecrets("/") {
		t.Errorf("home and / must be said to hold home secrets")
	}
}

func TestRequiredLiteralSet(t *testing.T) {
	tests := []struct {
		expr string
		want string // literals joined by "|", "i:" marking folded ones; "" for none
	}{
		{"ErrNotExist|deadline", "ErrNotExist|deadline"},
		{"(?i)errnotexist|Deadline", "i:errnotexist|i:deadline"},
		{`(foo|bar)\d+`, "foo|bar"},
		{`x(foo|bar)+yz`, "foo|bar"},
		{`a(?:foo|bar){2,3}`, "foo|bar"},
		{`(foo|bar)?baz`, "baz"},
		{`foo|\d+`, ""},
		{`foo|ba*r`, "foo|b"},
		{`a|b|c|d|e|f|g|h|i|j`, ""}, // parsed as a class: no literal
		{`(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota)x`, "x"},
		{`(?i)é|x`, ""},
		{"(?m)^foo|bar$", "foo|bar"},
	}
	for _, tt := range tests {
		var parts []string
		for _, l := range requiredLiteralSet(tt.expr) {
			p := string(l.lit)
			if l.fold {
				p = "i:" + p
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, "|"); got != tt.want {
			t.Errorf("requiredLiteralSet(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// FuzzGrepMatchSet compares match with a literal-set prefilter (patterns
// requiredLiteral has no single literal for) against a plain line-by-line
// regexp reference.
func FuzzGrepMatchSet(f *testing.F) {
	patterns := []string{"foo|bar", "(?i)foo|Bar", `(ab|cd)\d+`, "^x|y$", `(?i)(er|DE)+z`, `a(b|c){2}`}
	for i, seed := range []string{"foo\nbar\n", "FOO BaR\nx\n", "ab1\ncd\n", "x\nay\n", "erDEz\n", "abc\nacb\n"} {
		f.Add([]byte(seed), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		pat := patterns[int(which)%len(patterns)]
		if _, bin := sniffBinary(data); bin {
			return
		}
		expr := "(?m)" + pat
		re := regexp.MustCompile(expr)
		s := &grepSearch{re: re, cap: 1 << 30, previewCap: 50, cutoff: -1}
		s.lits = requiredLiteralSet(expr)
		if s.lits == nil {
			t.Fatalf("no literal set for %q", pat)
		}
		got, hits := s.match(&scratch{data: data}, true)
		lines := strings.Split(string(data), "\n")
		if strings.HasSuffix(string(data), "\n") || len(data) == 0 {
			lines = lines[:len(lines)-1]
		}
		var want []int
		for i, l := range lines {
			if re.MatchString(l) {
				want = append(want, i+1)
			}
		}
		if got != len(want) || len(hits) != len(want) {
			t.Fatalf("%q on %q: %d matches %v, want lines %v", pat, data, got, hits, want)
		}
		for i, h := range hits {
			if h.line != want[i] {
				t.Fatalf("%q on %q: hit %d at line %d, want %d", pat, data, i, h.line, want[i])
			}
		}
	})
}

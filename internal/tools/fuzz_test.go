package tools

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzGrepMatch compares grep's per-file matcher (literal prefilter, case
// folding, line mapping) with a plain line-by-line regexp reference.
func FuzzGrepMatch(f *testing.F) {
	patterns := []string{"foo", "(?i)foo", `f\w+o`, "^a", "b$", "x|y", "(?i)Ab C", `(\d+)\.go`, "é", "(?i)é"}
	for i, seed := range []string{"foo\nbar\n", "FOO fOo\nab\n", "a\r\nb\n", "f_o foo\n\n", "Ab c\nAB C", "1.go\n22.go\n", "é\nÉ\n"} {
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
		s.lit, s.fold, s.exact = requiredLiteral(expr)
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
			if !utf8.ValidString(h.preview) {
				t.Fatalf("preview not UTF-8: %q", h.preview)
			}
		}
	})
}

// FuzzParseIgnore checks that any .gitignore text parses into valid rules
// and that matching never panics.
func FuzzParseIgnore(f *testing.F) {
	for _, s := range []string{"*.log\n/build/\n!keep.log\n", "a/**/b\n\\#x\n", "[\n", "**\n!**/\n", " \n\t\n"} {
		f.Add([]byte(s), "src/a/b.log")
	}
	f.Fuzz(func(t *testing.T, data []byte, rel string) {
		rules := parseIgnore(data)
		for _, r := range rules {
			if r.pattern == "" || strings.HasSuffix(r.pattern, "/") {
				t.Fatalf("bad rule %+v from %q", r, data)
			}
		}
		ig := &ignorer{root: "/r", rules: map[string][]ignoreRule{"/r": rules}}
		ig.ignored("/r/"+strings.TrimLeft(rel, "/"), false)
		ig.ignored("/r/"+strings.TrimLeft(rel, "/"), true)
	})
}

// FuzzSniffBinary: printable UTF-8 text is never binary, and the verdict
// on a sample cut anywhere inside a rune never turns text into binary.
func FuzzSniffBinary(f *testing.F) {
	f.Add([]byte("caf\xe9 cr\xe8me\n"))
	f.Add(append(bytes.Repeat([]byte("a"), 999), "ç\nx\n"...))
	f.Add([]byte("PK\x03\x04mimetypeapplication/vnd.oasis.opendocument.spreadsheet\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		kind, bin := sniffBinary(data)
		if bin && kind == "" {
			t.Fatal("binary without a kind")
		}
		text := strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r == utf8.RuneError {
				return -1
			}
			return r
		}, strings.ToValidUTF8(string(data), ""))
		if strings.HasPrefix(text, "%PDF-") {
			return
		}
		padded := strings.Repeat("a", sniffLen-1) + text
		if _, bin := sniffBinary([]byte(text)); bin {
			t.Fatalf("printable text %q called binary", text)
		}
		if _, bin := sniffBinary([]byte(padded)); bin {
			t.Fatalf("text cut at the window called binary: %q", text)
		}
	})
}

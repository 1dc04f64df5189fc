package edit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		old, new  string
		all       bool
		want      string // expected content when no error
		wantLines []int
		indented  bool
		errHas    string
	}{
		{name: "plain", in: "a\nb\nc\n", old: "b", new: "B", want: "a\nB\nc\n", wantLines: []int{2}},
		{name: "crlf kept", in: "alpha\r\nbeta\r\ngamma", old: "alpha\nbeta", new: "ALPHA\nBETA", want: "ALPHA\r\nBETA\r\ngamma", wantLines: []int{1}},
		{name: "crlf old on crlf file", in: "x\r\ny\r\n", old: "x\r\ny", new: "X\r\nY", want: "X\r\nY\r\n", wantLines: []int{1}},
		{name: "crlf old on lf file", in: "x\ny\n", old: "x\r\ny", new: "X\r\nY", want: "X\nY\n", wantLines: []int{1}},
		{name: "mixed endings per line", in: "one\r\ntwo\nthree\r\n", old: "two\nthree", new: "TWO\nTHREE", want: "one\r\nTWO\nTHREE\r\n", wantLines: []int{2}},
		{name: "added lines take last span ending", in: "a\r\nb\r\n", old: "a\nb\r\n", new: "a\nx\ny\nb\n", want: "a\r\nx\r\ny\r\nb\r\n", wantLines: []int{1}},
		{name: "new lines in crlf file without newline in span", in: "k = 1\r\nz\r\n", old: "k = 1", new: "k = 1\nj = 2", want: "k = 1\r\nj = 2\r\nz\r\n", wantLines: []int{1}},
		{name: "bom kept", in: "\uFEFFfirst\nsecond\n", old: "first", new: "FIRST", want: "\uFEFFFIRST\nsecond\n", wantLines: []int{1}},
		{name: "bom in old ignored", in: "\uFEFFfirst\n", old: "\uFEFFfirst", new: "1st", want: "\uFEFF1st\n", wantLines: []int{1}},
		{name: "no final newline kept", in: "a\nb", old: "b", new: "c", want: "a\nc", wantLines: []int{2}},
		{name: "delete", in: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n", wantLines: []int{2}},
		{name: "replace all", in: "x y x y x", old: "x", new: "z", all: true, want: "z y z y z", wantLines: []int{1, 1, 1}},
		{name: "replace all crlf", in: "a\r\ngamma\r\na\r\ngamma", old: "a\ngamma", new: "a\nG", all: true, want: "a\r\nG\r\na\r\nG", wantLines: []int{1, 3}},
		{name: "replace all overlapping is left to right", in: "aaa", old: "aa", new: "b", all: true, want: "ba", wantLines: []int{1}},
		{name: "ambiguous", in: "f\n\treturn nil\n}\ng\n\treturn nil\n", old: "\treturn nil", new: "x", errHas: "old_string matches 2 places (lines 2, 5); add surrounding lines or set replace_all"},
		{name: "overlap counts twice", in: "a\n\n\nb\n", old: "\n\n", new: "\n", errHas: "matches 2 places (lines 1, 2)"},
		{name: "same line twice", in: "xx\n", old: "x", new: "y", errHas: "matches 2 places (line 1)"},
		{name: "not found", in: "abc\n", old: "abd", new: "x", errHas: "old_string not found"},
		{name: "empty old", in: "abc", old: "", new: "x", errHas: "old_string is empty"},
		{name: "no change", in: "abc", old: "b", new: "b", errHas: "identical"},
		{name: "spaces to tabs", in: "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n", old: "    if x {\n        return\n    }", new: "    if x {\n        y()\n        return\n    }", want: "func f() {\n\tif x {\n\t\ty()\n\t\treturn\n\t}\n}\n", wantLines: []int{2}, indented: true},
		{name: "tabs to two spaces", in: "def f():\n  if x:\n    return 1\n", old: "\tif x:\n\t\treturn 1\n", new: "\tif x:\n\t\treturn 2\n", want: "def f():\n  if x:\n    return 2\n", wantLines: []int{2}, indented: true},
		{name: "shifted depth", in: "a {\n\t\tb {\n\t\t\tc\n\t\t}\n", old: "b {\n  c\n}", new: "b {\n  c\n  d\n}", want: "a {\n\t\tb {\n\t\t\tc\n\t\t\td\n\t\t}\n", wantLines: []int{2}, indented: true},
		{name: "indent fallback keeps crlf", in: "x\r\n\tif y {\r\n\t\tz\r\n\t}\r\n", old: "  if y {\n    z\n  }", new: "  if y {\n    w\n  }", want: "x\r\n\tif y {\r\n\t\tw\r\n\t}\r\n", wantLines: []int{2}, indented: true},
		{name: "indent fallback ambiguous", in: "\tif ok {\n\t\treturn\n\t}\n\tif ok {\n\t\treturn\n\t}\n", old: "  if ok {\n    return\n  }", new: "x", errHas: "matches 2 places when indentation is ignored (lines 1, 4)"},
		{name: "indent fallback ambiguous even with replace_all", in: "\tif ok {\n\t\treturn\n\t}\n\tif ok {\n\t\treturn\n\t}\n", old: "  if ok {\n    return\n  }", new: "x", all: true, errHas: "when indentation is ignored"},
		{name: "inconsistent indentation is no match", in: "\tif ok {\n\t\treturn\n\t}\n", old: "if ok {\nreturn\n}", new: "x", errHas: "its first line appears at line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			got, err := Apply(in, tt.old, tt.new, tt.all)
			if string(in) != tt.in {
				t.Fatal("input modified in place")
			}
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v, want containing %q (content %q)", err, tt.errHas, got.Content)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Content) != tt.want {
				t.Fatalf("content = %q, want %q", got.Content, tt.want)
			}
			if !equalInts(got.Lines, tt.wantLines) || got.Indented != tt.indented {
				t.Fatalf("lines = %v indented = %v, want %v %v", got.Lines, got.Indented, tt.wantLines, tt.indented)
			}
		})
	}
}

func TestErrorTypes(t *testing.T) {
	_, err := Apply([]byte("aXa"), "a", "b", false)
	var ae *AmbiguousError
	if !errors.As(err, &ae) || ae.Count != 2 {
		t.Fatalf("err = %v, want *AmbiguousError count 2", err)
	}
	_, err = Apply([]byte("abc"), "z", "b", false)
	var ne *NotFoundError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want *NotFoundError", err)
	}
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

// FuzzApply checks the invariants of any successful edit: bytes before and
// after the replaced region are untouched, a BOM is kept, and a unique
// exact match reverses cleanly on LF-only input.
func FuzzApply(f *testing.F) {
	seeds := []struct{ in, old, new string }{
		{"alpha\r\nbeta\r\ngamma", "alpha\nbeta", "ALPHA\nBETA"},
		{"one\r\ntwo\nthree\r\n", "two\nthree", "TWO\nTHREE"},
		{"alpha\r\nbeta\r\ngamma", "a\ngamma", "a\nGAMMA"},
		{"package main\n\nfunc main() {\n\tok := true\n\tif ok {\n\t\treturn\n\t}\n}\n", "    if ok {\n        return\n    }", "    if ok {\n        log.Println(\"done\")\n        return\n    }"},
		{"func a() error {\n\treturn nil\n}\n\nfunc b() error {\n\treturn nil\n}\n", "\treturn nil", "\treturn errors.New(\"x\")"},
		{"a\n\n\nb\n", "\n\n", "\n"},
		{"\uFEFFx\r\n", "x", "y"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.in), s.old, s.new, false)
		f.Add([]byte(s.in), s.old, s.new, true)
	}
	f.Fuzz(func(t *testing.T, in []byte, old, new string, all bool) {
		orig := bytes.Clone(in)
		out, err := Apply(in, old, new, all)
		if !bytes.Equal(in, orig) {
			t.Fatal("input modified")
		}
		if err != nil {
			return
		}
		if bytes.HasPrefix(orig, bom) && !bytes.HasPrefix(out.Content, bom) {
			t.Fatal("BOM lost")
		}
		if len(out.Lines) == 0 {
			t.Fatal("success without a replaced span")
		}
		if all || out.Indented {
			return
		}
		// One exact replacement: the common prefix and suffix of input and
		// output must cover everything but the replaced region.
		p := commonPrefix(orig, out.Content)
		s := commonSuffix(orig[p:], out.Content[p:])
		oldLen := len(orig) - p - s
		if oldLen > len(old)+strings.Count(old, "\n")+3 {
			t.Fatalf("changed %d bytes for an old_string of %d: %q -> %q", oldLen, len(old), orig, out.Content)
		}
	})
}

func commonPrefix(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

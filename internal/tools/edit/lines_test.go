package edit

import (
	"errors"
	"strings"
	"testing"
)

func TestReplaceLinesMatchesWholeLines(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		from     int
		old, new []string
		keep     []int
		atEnd    bool
		want     string
		line     int
		indented bool
		errHas   string
	}{
		{name: "a suffix of a longer line is no match", in: "xfoo()\nfoo()\n", old: []string{"foo()"}, new: []string{"bar()"}, want: "xfoo()\nbar()\n", line: 2},
		{name: "search starts at from", in: "a\nb\na\nb\n", from: 2, old: []string{"a"}, new: []string{"A"}, want: "a\nb\nA\nb\n", line: 3},
		{name: "same lines twice", in: "a\nb\na\nb\n", old: []string{"a", "b"}, new: []string{"c"}, errHas: "old_string matches 2 places (lines 1, 3)"},
		{name: "at end", in: "a\nb\na\nb\n", old: []string{"a", "b"}, new: []string{"c"}, atEnd: true, want: "a\nb\nc\n", line: 3},
		{name: "at end without final newline", in: "a\nb", old: []string{"b"}, new: []string{"c", "d"}, atEnd: true, want: "a\nc\nd", line: 2},
		{name: "insert before a line", in: "a\r\nc\r\n", from: 1, new: []string{"b"}, want: "a\r\nb\r\nc\r\n", line: 2},
		{name: "append to an empty file", in: "", new: []string{"x"}, atEnd: true, want: "x\n", line: 1},
		{name: "delete the last line without final newline", in: "a\nb", old: []string{"b"}, want: "a", line: 2},
		{name: "indentation ignored, context kept as the file has it", in: "if x {\n\tone   \n\ttwo\n}\n", old: []string{"  one", "  two"}, new: []string{"  one", "  2"}, keep: []int{0, -1},
			want: "if x {\n\tone   \n\t2\n}\n", line: 2, indented: true},
		{name: "not found names the near line", in: "a\nb\nc\n", old: []string{"b", "x"}, new: []string{"y"}, errHas: "the first of them appears at line 2"},
		{name: "not at the end", in: "a\nb\n", old: []string{"a"}, new: []string{"y"}, atEnd: true, errHas: "lines not found at the end of the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReplaceLines([]byte(tt.in), tt.from, tt.old, tt.new, tt.keep, tt.atEnd)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v, want containing %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Content) != tt.want || got.Lines[0] != tt.line || got.Indented != tt.indented {
				t.Fatalf("got %q line %d indented %v, want %q line %d indented %v", got.Content, got.Lines[0], got.Indented, tt.want, tt.line, tt.indented)
			}
		})
	}
}

func TestReplaceLinesErrorTypes(t *testing.T) {
	_, err := ReplaceLines([]byte("a\n"), 0, []string{"zz"}, nil, nil, false)
	var nf *LinesNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %T %v", err, err)
	}
	if i, ok := FindLine([]byte("\ufeff  def f():\nx\n"), 0, "def f():"); !ok || i != 0 {
		t.Errorf("FindLine = %d %v, want 0 with blanks ignored", i, ok)
	}
}

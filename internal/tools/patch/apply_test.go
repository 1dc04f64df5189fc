package patch

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// memFS is a Source over a map.
type memFS map[string]string

func (m memFS) ReadFile(p string) ([]byte, error) {
	s, ok := m[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(s), nil
}

func wrap(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }

// after applies patch to files and returns every file's final content
// ("<deleted>" for a removed one).
func after(t *testing.T, files memFS, patch string) (map[string]string, error) {
	t.Helper()
	ops, err := Parse(patch)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	pl, err := Apply(ops, files)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range pl.Files {
		if f.Exists {
			out[f.Path] = string(f.After)
		} else {
			out[f.Path] = "<deleted>"
		}
	}
	return out, nil
}

func TestApplyKeepsFileConventions(t *testing.T) {
	for _, tc := range []struct {
		name, file, patch, want string
	}{
		{"two hunks in order", "a\nb\nc\nd\ne\nf\ng\n", "*** Update File: f\n@@\n a\n-b\n+B\n c\n@@\n e\n-f\n+F\n", "a\nB\nc\nd\ne\nF\ng\n"},
		{"CRLF kept, added lines take CRLF", "one\r\ntwo\r\nthree\r\n", "*** Update File: f\n@@\n one\n-two\n+2\n+2.5\n three\n", "one\r\n2\r\n2.5\r\nthree\r\n"},
		{"BOM kept on line 1", "\ufefffirst\nsecond\n", "*** Update File: f\n@@\n-first\n+FIRST\n second\n", "\ufeffFIRST\nsecond\n"},
		{"no final newline kept", "a\nb", "*** Update File: f\n@@\n a\n-b\n+c\n", "a\nc"},
		{"no final newline kept when appending", "a\nb", "*** Update File: f\n@@\n+c\n", "a\nb\nc"},
		{"no final newline kept when the last line goes", "a\nb", "*** Update File: f\n@@\n a\n-b\n", "a"},
		{"tabs kept exactly", "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n", "*** Update File: f\n@@ func f() {\n \tif x {\n-\t\treturn\n+\t\treturn nil\n \t}\n", "func f() {\n\tif x {\n\t\treturn nil\n\t}\n}\n"},
		{"spaces in the patch, tabs in the file", "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n", "*** Update File: f\n@@\n     if x {\n-        return\n+        y()\n+        return\n     }\n", "func f() {\n\tif x {\n\t\ty()\n\t\treturn\n\t}\n}\n"},
		{"trailing blanks in the file ignored", "x = 1   \ny = 2\n", "*** Update File: f\n@@\n x = 1\n-y = 2\n+y = 3\n", "x = 1   \ny = 3\n"},
		{"@@ landmark picks the second of two same blocks", "def a():\n    return 1\ndef b():\n    return 1\n", "*** Update File: f\n@@ def b():\n-    return 1\n+    return 2\n", "def a():\n    return 1\ndef b():\n    return 2\n"},
		{"two @@ landmarks narrow in turn", "class A:\n  def f():\n    pass\nclass B:\n  def f():\n    pass\n", "*** Update File: f\n@@ class B:\n@@   def f():\n-    pass\n+    return 1\n", "class A:\n  def f():\n    pass\nclass B:\n  def f():\n    return 1\n"},
		{"pure insertion after a landmark", "def f():\n    return\n", "*** Update File: f\n@@ def f():\n+    log()\n", "def f():\n    log()\n    return\n"},
		{"End of File anchors to the last lines", "x\ny\nx\ny\n", "*** Update File: f\n@@\n x\n-y\n+z\n*** End of File\n", "x\ny\nx\nz\n"},
		{"last empty old line stands for the final newline", "a\nb\n", "*** Update File: f\n@@\n a\n-b\n+c\n \n", "a\nc\n"},
		{"mixed endings per line", "one\r\ntwo\nthree\r\n", "*** Update File: f\n@@\n-two\n-three\n+TWO\n+THREE\n", "one\r\nTWO\nTHREE\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := after(t, memFS{"f": tc.file}, wrap(tc.patch))
			if err != nil {
				t.Fatal(err)
			}
			if got["f"] != tc.want {
				t.Errorf("got  %q\nwant %q", got["f"], tc.want)
			}
		})
	}
}

func TestApplySeveralFilesInOrder(t *testing.T) {
	files := memFS{"keep": "k\n", "old": "x\ny\n", "gone": "bye\n"}
	got, err := after(t, files, wrap("*** Add File: new\n+hello\n*** Update File: new\n@@\n hello\n+world\n*** Update File: old\n*** Move to: dir/moved\n@@\n-x\n+X\n*** Delete File: gone\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"new": "hello\nworld\n", "old": "<deleted>", "dir/moved": "X\ny\n", "gone": "<deleted>"}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s = %q, want %q", p, got[p], w)
		}
	}
	if _, touched := got["keep"]; touched {
		t.Error("a file the patch does not name was read")
	}
}

func TestApplyErrorNamesTheHunk(t *testing.T) {
	for _, tc := range []struct {
		name, file, patch string
		want              []string
	}{
		{"context not found shows the closest text", "def f():\n    a = 1\n    b = 2\n", "*** Update File: f\n@@ def f():\n@@\n     a = 1\n-    b = 3\n+    b = 4\n",
			[]string{"*** Update File: f, hunk 1 (@@ def f():, first line \"    a = 1\") did not apply", "its first line appears at line 2", "the file at line 2 reads:\n    a = 1\n    b = 2"}},
		{"landmark not found", "x\n", "*** Update File: f\n@@ def nowhere():\n-x\n+y\n", []string{"hunk 1 (@@ def nowhere():, first line \"x\")", `its @@ line "def nowhere():" was not found`}},
		{"ambiguous", "a\nb\na\nb\n", "*** Update File: f\n@@\n-a\n+c\n b\n", []string{"its lines match 2 places (lines 1, 3)", "add context lines or an @@ line"}},
		{"second hunk searched after the first", "a\nb\n", "*** Update File: f\n@@\n-b\n+B\n@@\n-a\n+A\n", []string{"hunk 2", "were not found after line 2"}},
		{"End of File not at the end", "x\ny\nz\n", "*** Update File: f\n@@\n-x\n+X\n*** End of File\n", []string{"do not end the file (*** End of File)"}},
		{"update of a missing file", "", "*** Update File: nope\n@@\n-a\n+b\n", []string{"*** Update File: nope: the file does not exist; create it with *** Add File:"}},
		{"delete of a missing file", "", "*** Delete File: nope\n", []string{"*** Delete File: nope: the file does not exist"}},
		{"move onto an existing file", "a\n", "*** Update File: f\n*** Move to: other\n@@\n-a\n+b\n", []string{"*** Move to: other already exists"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := memFS{"f": tc.file, "other": "o\n"}
			_, err := after(t, files, wrap(tc.patch))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%s", w, err)
				}
			}
		})
	}
}

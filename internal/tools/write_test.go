package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		path    string
		content string
		want    string // bytes on disk afterwards
		msg     string // Content prefix
		diff    []string
		isError bool
	}{
		{name: "new with parents", path: "a/b/c.txt", content: "hi\n", want: "hi\n", msg: "created a/b/c.txt (1 lines, 3 bytes)", diff: []string{"--- /dev/null", "+++ b/a/b/c.txt", "+hi"}},
		{name: "overwrite", files: map[string]string{"f.txt": "old\n"}, path: "f.txt", content: "new\n", want: "new\n", msg: "updated f.txt", diff: []string{"--- a/f.txt", "-old", "+new"}},
		{name: "keeps crlf and bom", files: map[string]string{"w.txt": "\xEF\xBB\xBFa\r\nb\r\n"}, path: "w.txt", content: "x\ny\n", want: "\xEF\xBB\xBFx\r\ny\r\n", msg: "updated w.txt"},
		{name: "keeps latin1", files: map[string]string{"l.txt": "caf\xe9\n"}, path: "l.txt", content: "thé\n", want: "th\xe9\n", msg: "updated l.txt"},
		{name: "unchanged", files: map[string]string{"s.txt": "same"}, path: "s.txt", content: "same", want: "same", msg: "s.txt unchanged"},
		{name: "editorconfig crlf for new file", files: map[string]string{".editorconfig": "root = true\n[*]\nend_of_line = lf\n[*.bat]\nend_of_line = crlf\n"}, path: "run.bat", content: "echo\nx\n", want: "echo\r\nx\r\n", msg: "created run.bat"},
		{name: "gitattributes crlf for new file", files: map[string]string{".gitattributes": "*.cmd text eol=crlf\n"}, path: "sub/go.cmd", content: "a\n", want: "a\r\n", msg: "created sub/go.cmd"},
		{name: "lf by default", path: "n.txt", content: "a\nb\n", want: "a\nb\n", msg: "created n.txt"},
		{name: "directory", files: map[string]string{"d/x": ""}, path: "d", content: "x", msg: "d is a directory", isError: true},
		{name: "root", path: ".", content: "x", msg: "path . is the workspace directory itself", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			_, reg := newWS(t, dir)
			res := call(t, reg, "write_file", map[string]any{"path": tt.path, "content": tt.content})
			if res.IsError != tt.isError || !strings.HasPrefix(res.Content, tt.msg) {
				t.Fatalf("result %+v, want prefix %q error %v", res, tt.msg, tt.isError)
			}
			if tt.isError {
				return
			}
			got, err := os.ReadFile(filepath.Join(dir, tt.path))
			if err != nil || string(got) != tt.want {
				t.Fatalf("file = %q (%v), want %q", got, err, tt.want)
			}
			for _, d := range tt.diff {
				if !strings.Contains(res.Diff, d) {
					t.Fatalf("diff %q lacks %q", res.Diff, d)
				}
			}
			if len(res.Paths) != 1 || res.Paths[0] != filepath.Join(dir, tt.path) {
				if resolved, _ := filepath.EvalSymlinks(filepath.Join(dir, tt.path)); len(res.Paths) != 1 || res.Paths[0] != resolved {
					t.Fatalf("Paths = %v", res.Paths)
				}
			}
		})
	}
}

func TestWriteFileMissingArgs(t *testing.T) {
	_, reg := newWS(t, t.TempDir())
	for _, args := range []map[string]any{{"path": "x"}, {"content": "x"}, {"path": "", "content": "x"}} {
		if res := call(t, reg, "write_file", args); !res.IsError || !strings.Contains(res.Content, "required") {
			t.Errorf("%v: %+v", args, res)
		}
	}
	// An empty content is a valid (empty) file.
	if res := call(t, reg, "write_file", map[string]any{"path": "e", "content": ""}); res.IsError {
		t.Fatalf("empty content: %s", res.Content)
	}
}

func TestEditFile(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		args    map[string]any
		want    string
		msg     string
		isError bool
	}{
		{name: "unique", file: "a\nb\nc\n", args: map[string]any{"old_string": "b", "new_string": "B"}, want: "a\nB\nc\n", msg: "edited f: 1 replacement(s) at line(s) 2"},
		{name: "replace all", file: "x\nx\n", args: map[string]any{"old_string": "x", "new_string": "y", "replace_all": true}, want: "y\ny\n", msg: "edited f: 2 replacement(s) at line(s) 1, 2"},
		{name: "delete", file: "keep\ndrop\n", args: map[string]any{"old_string": "drop\n", "new_string": ""}, want: "keep\n", msg: "edited f"},
		{name: "indentation fallback", file: "\tif a {\n\t\tb()\n\t}\n", args: map[string]any{"old_string": "  if a {\n    b()\n  }", "new_string": "  if a {\n    c()\n  }"}, want: "\tif a {\n\t\tc()\n\t}\n", msg: "edited f: 1 replacement(s) at line(s) 1 (matched with indentation ignored"},
		{name: "not found", file: "abc\n", args: map[string]any{"old_string": "xyz", "new_string": "q"}, want: "abc\n", msg: "f: old_string not found", isError: true},
		{name: "ambiguous", file: "x\nx\n", args: map[string]any{"old_string": "x", "new_string": "y"}, want: "x\nx\n", msg: "f: old_string matches 2 places (lines 1, 2)", isError: true},
		{name: "no change", file: "x\n", args: map[string]any{"old_string": "x", "new_string": "x"}, want: "x\n", msg: "f: old_string and new_string are identical", isError: true},
		{name: "missing new_string", file: "x\n", args: map[string]any{"old_string": "x"}, want: "x\n", msg: "missing new_string", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"f": tt.file})
			_, reg := newWS(t, dir)
			tt.args["path"] = "f"
			res := call(t, reg, "edit_file", tt.args)
			if res.IsError != tt.isError || !strings.HasPrefix(res.Content, tt.msg) {
				t.Fatalf("result %+v, want prefix %q error %v", res, tt.msg, tt.isError)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "f"))
			if string(got) != tt.want {
				t.Fatalf("file = %q, want %q", got, tt.want)
			}
			if !tt.isError && !strings.Contains(res.Diff, "@@ -") {
				t.Fatalf("diff without hunk line numbers: %q", res.Diff)
			}
		})
	}
}

func TestEditFileMissing(t *testing.T) {
	_, reg := newWS(t, t.TempDir())
	res := call(t, reg, "edit_file", map[string]any{"path": "nope.go", "old_string": "a", "new_string": "b"})
	if !res.IsError || res.Content != "nope.go does not exist; use write_file to create it" {
		t.Fatalf("%+v", res)
	}
}

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const absent = "<absent>"

func patchText(body string) string { return "*** Begin Patch\n" + body + "*** End Patch\n" }

func runPatch(t *testing.T, dir string, args map[string]any) Result {
	t.Helper()
	ws, _ := newWS(t, dir)
	raw, _ := json.Marshal(args)
	res, err := NewApplyPatch(ws).Run(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestApplyPatch(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		patch   string
		want    map[string]string // bytes on disk afterwards; absent = no file
		isError bool
		msg     []string // substrings of Content
		diff    []string // substrings of Diff
	}{
		{name: "add with parents", patch: "*** Add File: a/b/new.go\n+package b\n+\n+func F() {}\n",
			want: map[string]string{"a/b/new.go": "package b\n\nfunc F() {}\n"},
			msg:  []string{"applied patch: added a/b/new.go"}, diff: []string{"--- /dev/null", "+++ b/a/b/new.go", "+package b"}},
		{name: "add takes the line ending .gitattributes asks for", files: map[string]string{".gitattributes": "*.bat text eol=crlf\n"},
			patch: "*** Add File: run.bat\n+echo\n+x\n", want: map[string]string{"run.bat": "echo\r\nx\r\n"}},
		{name: "update with several hunks", files: map[string]string{"f.txt": "1\n2\n3\n4\n5\n6\n7\n8\n"},
			patch: "*** Update File: f.txt\n@@\n 1\n-2\n+two\n 3\n@@\n 6\n-7\n+seven\n 8\n",
			want:  map[string]string{"f.txt": "1\ntwo\n3\n4\n5\n6\nseven\n8\n"}, msg: []string{"updated f.txt"}, diff: []string{"--- a/f.txt", "+++ b/f.txt", "-2", "+two", "-7", "+seven"}},
		{name: "delete", files: map[string]string{"gone.txt": "bye\n", "keep.txt": "k\n"}, patch: "*** Delete File: gone.txt\n",
			want: map[string]string{"gone.txt": absent, "keep.txt": "k\n"}, msg: []string{"deleted gone.txt"}, diff: []string{"+++ /dev/null", "-bye"}},
		{name: "move with an edit", files: map[string]string{"old/name.txt": "a\nb\n"}, patch: "*** Update File: old/name.txt\n*** Move to: new/dir/name.txt\n@@\n a\n-b\n+B\n",
			want: map[string]string{"old/name.txt": absent, "new/dir/name.txt": "a\nB\n"}, msg: []string{"updated old/name.txt and moved it to new/dir/name.txt"},
			diff: []string{"--- a/old/name.txt", "+++ b/new/dir/name.txt", "+B"}},
		{name: "CRLF kept", files: map[string]string{"w.txt": "one\r\ntwo\r\nthree\r\n"}, patch: "*** Update File: w.txt\n@@\n one\n-two\n+2\n+2.5\n three\n",
			want: map[string]string{"w.txt": "one\r\n2\r\n2.5\r\nthree\r\n"}},
		{name: "BOM kept", files: map[string]string{"b.txt": "\ufefffirst\nsecond\n"}, patch: "*** Update File: b.txt\n@@\n-first\n+FIRST\n",
			want: map[string]string{"b.txt": "\ufeffFIRST\nsecond\n"}},
		{name: "no final newline kept", files: map[string]string{"n.txt": "a\nb"}, patch: "*** Update File: n.txt\n@@\n a\n-b\n+c\n",
			want: map[string]string{"n.txt": "a\nc"}},
		{name: "tabs kept", files: map[string]string{"t.go": "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n"}, patch: "*** Update File: t.go\n@@ func f() {\n \tif x {\n-\t\treturn\n+\t\treturn nil\n",
			want: map[string]string{"t.go": "func f() {\n\tif x {\n\t\treturn nil\n\t}\n}\n"}},
		{name: "Windows-1252 kept", files: map[string]string{"l.txt": "caf\xe9\nx\n"}, patch: "*** Update File: l.txt\n@@\n café\n-x\n+thé\n",
			want: map[string]string{"l.txt": "caf\xe9\nth\xe9\n"}},
		{name: "End of File anchors the hunk", files: map[string]string{"e.txt": "x\ny\nx\ny\n"}, patch: "*** Update File: e.txt\n@@\n x\n-y\n+z\n*** End of File\n",
			want: map[string]string{"e.txt": "x\ny\nx\nz\n"}},
		{name: "context with other indentation matched by the edit ladder", files: map[string]string{"i.go": "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n"},
			patch: "*** Update File: i.go\n@@\n     if x {\n-        return\n+        y()\n+        return\n     }\n",
			want:  map[string]string{"i.go": "func f() {\n\tif x {\n\t\ty()\n\t\treturn\n\t}\n}\n"}, msg: []string{"1 hunk(s) matched with indentation ignored"}},
		{name: "input accepted for patch", files: map[string]string{"f.txt": "a\n"}, patch: "*** Update File: f.txt\n@@\n-a\n+b\n",
			want: map[string]string{"f.txt": "b\n"}},
		{name: "a hunk that does not apply writes nothing", files: map[string]string{"f.txt": "a\nb\n", "g.txt": "g\n"},
			patch: "*** Add File: new.txt\n+n\n*** Update File: g.txt\n@@\n-g\n+G\n*** Update File: f.txt\n@@ section\n-zzz\n+y\n",
			want:  map[string]string{"new.txt": absent, "g.txt": "g\n", "f.txt": "a\nb\n"}, isError: true,
			msg: []string{`*** Update File: f.txt, hunk 1 (@@ section, first line "zzz") did not apply: its @@ line "section" was not found; nothing was written`}},
		{name: "a path outside the workspace is refused", files: map[string]string{"f.txt": "a\n"},
			patch: "*** Update File: f.txt\n@@\n-a\n+b\n*** Add File: ../escape.txt\n+x\n",
			want:  map[string]string{"f.txt": "a\n"}, isError: true, msg: []string{"*** Add File: path ../escape.txt is outside the workspace", "nothing was written"}},
		{name: "a binary file is not updated", files: map[string]string{"p.png": "\x89PNG\r\n\x1a\n\x00\x00"}, patch: "*** Update File: p.png\n@@\n-x\n+y\n",
			isError: true, msg: []string{"p.png is a binary file (png, 10 bytes); apply_patch cannot update it; nothing was written"}},
		{name: "a binary file is not replaced by an Add", files: map[string]string{"p.png": "\x89PNG\r\n\x1a\n\x00\x00"}, patch: "*** Add File: p.png\n+text\n",
			want: map[string]string{"p.png": "\x89PNG\r\n\x1a\n\x00\x00"}, isError: true, msg: []string{"*** Add File: p.png would replace a binary file"}},
		{name: "a binary file may be deleted", files: map[string]string{"p.png": "\x89PNG\r\n\x1a\n\x00\x00"}, patch: "*** Delete File: p.png\n",
			want: map[string]string{"p.png": absent}},
		{name: "parse errors name the line", patch: "*** Update File: f.txt\n@@\nno prefix\n", isError: true,
			msg: []string{"invalid patch, line 4: hunk line \"no prefix\" of f.txt must start with ' '"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			key := "patch"
			if strings.HasPrefix(tt.name, "input") {
				key = "input"
			}
			res := runPatch(t, dir, map[string]any{key: patchText(tt.patch)})
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Content)
			}
			for _, m := range tt.msg {
				if !strings.Contains(res.Content, m) {
					t.Errorf("content lacks %q:\n%s", m, res.Content)
				}
			}
			for _, d := range tt.diff {
				if !strings.Contains(res.Diff, d) {
					t.Errorf("diff lacks %q:\n%s", d, res.Diff)
				}
			}
			for p, w := range tt.want {
				b, err := os.ReadFile(filepath.Join(dir, p))
				got := string(b)
				if err != nil {
					got = absent
				}
				if got != w {
					t.Errorf("%s = %q, want %q", p, got, w)
				}
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.txt")); err == nil {
				t.Error("a file was written outside the workspace")
			}
		})
	}
}

// TestApplyPatchRestoresWhenAWriteFails: the third file cannot be written
// (its parent is a file), so the two written before it are put back.
func TestApplyPatchRestoresWhenAWriteFails(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.txt": "a\n", "blocker": "i am a file\n"})
	res := runPatch(t, dir, map[string]any{"patch": patchText("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: b.txt\n+b\n*** Add File: blocker/c.txt\n+c\n")})
	if !res.IsError || !strings.Contains(res.Content, "writing blocker/c.txt") || !strings.Contains(res.Content, "the 2 file(s) written before it were restored") {
		t.Fatalf("result %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q, want it restored", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt was left behind")
	}
}

// TestApplyPatchReportsPathsAndDiffOfEveryFile: Paths lists each file
// touched (both ends of a move) and Diff holds one diff per operation.
func TestApplyPatchReportsPathsAndDiffOfEveryFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"x.txt": "x\n", "y.txt": "y\n"})
	res := runPatch(t, dir, map[string]any{"patch": patchText("*** Update File: x.txt\n@@\n-x\n+X\n*** Update File: y.txt\n*** Move to: z.txt\n*** Add File: w.txt\n+w\n")})
	if res.IsError {
		t.Fatal(res.Content)
	}
	ws, _ := newWS(t, dir)
	var rels []string
	for _, p := range res.Paths {
		rels = append(rels, ws.Rel(p))
	}
	if got := strings.Join(rels, " "); got != "x.txt y.txt z.txt w.txt" {
		t.Errorf("Paths = %s", got)
	}
	for _, d := range []string{"+++ b/x.txt", "rename from y.txt\nrename to z.txt", "+++ b/w.txt"} {
		if !strings.Contains(res.Diff, d) {
			t.Errorf("diff lacks %q:\n%s", d, res.Diff)
		}
	}
}

func TestPatchPathsNamesEveryFileForThePermissionCheck(t *testing.T) {
	got, err := PatchPaths(json.RawMessage(`{"input":"*** Begin Patch\n*** Update File: a.go\n*** Move to: .git/hooks/pre-commit\n*** Add File: .env\n+X=1\n*** End Patch"}`))
	if err != nil || strings.Join(got, " ") != "a.go .git/hooks/pre-commit .env" {
		t.Fatalf("PatchPaths = %q, %v", got, err)
	}
	if _, err := PatchPaths(json.RawMessage(`{"patch":"not a patch"}`)); err == nil {
		t.Error("no error for a patch that does not parse")
	}
}

package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// numbered returns n lines "row 1\n" … "row n\n" joined with eol.
func numbered(n int, eol string) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		sb.WriteString("row " + strconv.Itoa(i) + eol)
	}
	return sb.String()
}

// hunks drops a unified diff's file headers, folds CRLF and drops a BOM,
// leaving the @@ lines and the body to compare.
func hunks(diff string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			continue
		}
		out = append(out, strings.ReplaceAll(l, "\ufeff", ""))
	}
	return strings.Join(out, "\n")
}

// TestEditPreviewUsesTheFilesLineNumbers: the permission prompt's diff for
// edit_file is the whole file before and after the edit as edit_file makes
// it, so its hunks carry the file's line numbers and equal the diff the
// tool reports after approval (CRLF shown as LF, BOM dropped).
func TestEditPreviewUsesTheFilesLineNumbers(t *testing.T) {
	for _, tc := range []struct {
		name       string
		file       string
		args       string
		wantHunk   string // the first @@ line
		wantBody   []string
		wantReplay bool // the tool's own diff must show the same hunks
	}{
		{
			name:     "line 50 of 60",
			file:     numbered(60, "\n"),
			args:     `{"path":"f.txt","old_string":"row 50","new_string":"ROW FIFTY"}`,
			wantHunk: "@@ -47,7 +47,7 @@",
			wantBody: []string{" row 49", "-row 50", "+ROW FIFTY", " row 51"},
		},
		{
			name:     "CRLF with a BOM, LF old_string",
			file:     "\ufeff" + numbered(10, "\r\n"),
			args:     `{"path":"f.txt","old_string":"row 7\nrow 8","new_string":"row 7\nrow 7.5\nrow 8"}`,
			wantHunk: "@@ -5,6 +5,7 @@",
			wantBody: []string{" row 7", "+row 7.5", " row 8"},
		},
		{
			name:     "BOM and an edit on line 1",
			file:     "\ufeff" + numbered(3, "\r\n"),
			args:     `{"path":"f.txt","old_string":"row 1","new_string":"first"}`,
			wantHunk: "@@ -1,3 +1,3 @@",
			wantBody: []string{"-row 1", "+first", " row 2"},
		},
		{
			name:     "replace_all given as a string",
			file:     "x := 1\n" + numbered(20, "\n") + "x := 1\n",
			args:     `{"path":"f.txt","old_string":"x := 1","new_string":"x := 2","replace_all":"true"}`,
			wantHunk: "@@ -1,4 +1,4 @@",
			wantBody: []string{" row 20", "-x := 1", "+x := 2"},
		},
		{
			name:     "indentation fallback",
			file:     "package a\n\nfunc f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n",
			args:     `{"path":"f.txt","old_string":"    if x {\n        return 1\n    }","new_string":"    if x {\n        return 2\n    }"}`,
			wantHunk: "@@ -2,6 +2,6 @@",
			wantBody: []string{"-\t\treturn 1", "+\t\treturn 2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := workspace.New(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			p := Preview(ws, llm.ToolCall{Name: "edit_file", Arguments: tc.args})
			path, diff, note := p.Path, p.Diff, p.Note
			if note != "" {
				t.Fatalf("note %q for an edit that applies", note)
			}
			if path != "f.txt" {
				t.Errorf("path %q", path)
			}
			if strings.ContainsAny(diff, "\r\ufeff") {
				t.Errorf("diff carries CR or BOM bytes: %q", diff)
			}
			lines := strings.Split(diff, "\n")
			first := ""
			for _, l := range lines {
				if strings.HasPrefix(l, "@@") {
					first = l
					break
				}
			}
			if first != tc.wantHunk {
				t.Errorf("first hunk %q, want %q\n%s", first, tc.wantHunk, diff)
			}
			body := strings.Join(lines, "\n")
			if !strings.Contains(body, strings.Join(tc.wantBody, "\n")) {
				t.Errorf("diff lacks %q:\n%s", strings.Join(tc.wantBody, "\n"), diff)
			}

			// Approve it: the tool's own diff has the same hunks.
			var ef tools.Tool
			for _, tl := range tools.Core(ws, tools.Options{}) {
				if tl.Name() == "edit_file" {
					ef = tl
				}
			}
			res, err := ef.Run(context.Background(), json.RawMessage(tc.args))
			if err != nil || res.IsError {
				t.Fatalf("edit_file: %v %q", err, res.Content)
			}
			if hunks(res.Diff) != hunks(diff) {
				t.Errorf("preview hunks differ from the tool's:\npreview:\n%s\ntool:\n%s", hunks(diff), hunks(res.Diff))
			}
		})
	}
}

// TestEditPreviewFallsBackToTheFragment: an edit that would not apply to
// the file as it is shows old_string against new_string and says so.
func TestEditPreviewFallsBackToTheFragment(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nb\na\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "latin1.txt"), []byte("caf\xe9\n"), 0o644)
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, tc := range []struct {
		name, args string
		wantNote   []string
	}{
		{"not found", `{"path":"f.txt","old_string":"zzz","new_string":"yyy"}`, []string{"preview: would not apply (old_string not found); diff shows the edit's text only, not file lines"}},
		{"ambiguous", `{"path":"f.txt","old_string":"a","new_string":"c"}`, []string{"preview: would not apply (old_string matches 2 places)"}},
		{"missing file", `{"path":"nope.txt","old_string":"zzz","new_string":"yyy"}`, []string{"preview: nope.txt does not exist, the edit will fail; diff shows its text only"}},
		{"not UTF-8", `{"path":"latin1.txt","old_string":"zzz","new_string":"yyy"}`, []string{"preview: latin1.txt is not UTF-8; diff shows the edit's text only"}},
		{"outside the workspace", `{"path":"../elsewhere.txt","old_string":"zzz","new_string":"yyy"}`, []string{"preview: path ../elsewhere.txt", "; diff shows the edit's text only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Preview(ws, llm.ToolCall{Name: "edit_file", Arguments: tc.args})
			diff, note := p.Diff, p.Note
			for _, w := range tc.wantNote {
				if !strings.Contains(note, w) {
					t.Errorf("note %q lacks %q", note, w)
				}
			}
			var args struct{ OldString, NewString string }
			json.Unmarshal([]byte(tc.args), &struct {
				O *string `json:"old_string"`
				N *string `json:"new_string"`
			}{&args.OldString, &args.NewString})
			if !strings.Contains(diff, "-"+args.OldString+"\n") || !strings.Contains(diff, "+"+args.NewString+"\n") {
				t.Errorf("fragment diff %q", diff)
			}
		})
	}
}

// TestWritePreviewNoChange: a write_file whose content the file already
// has is described as no change, not shown as raw arguments (second QA).
func TestWritePreviewNoChange(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w0.txt"), []byte("line one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := Preview(ws, llm.ToolCall{Name: "write_file", Arguments: `{"path":"w0.txt","content":"line one\n"}`})
	diff, note := p.Diff, p.Note
	if diff != "" || note != "no change: w0.txt already has this content" {
		t.Errorf("diff %q note %q", diff, note)
	}
}

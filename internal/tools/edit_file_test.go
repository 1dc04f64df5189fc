package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

// newWS opens a workspace on dir and returns the core tools by name.
func newWS(t *testing.T, dir string, extra ...string) (*workspace.Workspace, *Registry) {
	t.Helper()
	ws, err := workspace.New(dir, extra...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, NewRegistry(Core(ws, Options{})...)
}

// call runs tool name with args (a JSON object) and fails on a Go error.
func call(t *testing.T, reg *Registry, name string, args any) Result {
	t.Helper()
	tool, ok := reg.Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	raw, ok := args.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	res, err := tool.Run(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, raw, err)
	}
	return res
}

// readTestdata reads a case file. Case files named *.go are stored as
// *.go.txt so gofmt and go vet over the tree do not parse fragments.
func readTestdata(t *testing.T, c, name string) []byte {
	t.Helper()
	if strings.HasSuffix(name, ".go") {
		name += ".txt"
	}
	b, err := os.ReadFile(filepath.Join("testdata", c, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyCase copies the named case files into a fresh temp workspace.
func copyCase(t *testing.T, c string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), readTestdata(t, c, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEditFileGivesTheExactBytesOrRefusesAnAmbiguousMatch feeds each
// edit*.json through edit_file unchanged and compares the file's bytes
// afterwards: CRLF and mixed line endings kept, a spaces-for-tabs
// old_string applied in the file's indentation, a non-unique or
// overlapping old_string refused with the file unchanged.
// Cases B13 (testdata/B13; earendil-works/pi#355), B14 (testdata/B14;
// anthropics/claude-code#26996) and B15 (testdata/B15; google-gemini/gemini-cli#18917).
func TestEditFileGivesTheExactBytesOrRefusesAnAmbiguousMatch(t *testing.T) {
	tests := []struct {
		c, edit, file string
		wantFile      string // testdata file with the exact bytes afterwards
		wantBytes     string // or the exact bytes, when the case states them in expected.txt
		wantErr       string // or an error containing this; the file must be unchanged
	}{
		{c: "B13", edit: "edit.json", file: "file.txt", wantFile: "expected_after_edit.txt"},
		{c: "B13", edit: "edit_mixed.json", file: "mixed.txt", wantFile: "expected_after_edit_mixed.txt"},
		{c: "B13", edit: "edit_replace_all.json", file: "file.txt", wantFile: "expected_after_replace_all.txt"},
		{c: "B14", edit: "edit.json", file: "main.go", wantFile: "expected_main.go"},
		// Exact match hits func a only: applied there, func b untouched.
		{c: "B14", edit: "edit_ambiguous.json", file: "ambiguous.go", wantBytes: "func a() {\n\tif !ok {\n\t\treturn\n\t}\n}\n\nfunc b() {\n    if ok {\n        return\n    }\n}\n"},
		{c: "B15", edit: "edit.json", file: "file.go", wantErr: "old_string matches 2 places (lines 2, 6); add surrounding lines or set replace_all"},
		{c: "B15", edit: "edit_overlap.json", file: "overlap.txt", wantErr: "old_string matches 2 places"},
		{c: "B15", edit: "edit_replace_all.json", file: "file.go", wantBytes: "func a() error {\n\treturn errors.New(\"x\")\n}\n\nfunc b() error {\n\treturn errors.New(\"x\")\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.c+"/"+tt.edit, func(t *testing.T) {
			dir := copyCase(t, tt.c, tt.file)
			_, reg := newWS(t, dir)
			res := call(t, reg, "edit_file", json.RawMessage(readTestdata(t, tt.c, tt.edit)))
			got, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" {
				if !res.IsError || !strings.Contains(res.Content, tt.wantErr) {
					t.Fatalf("result %+v, want error containing %q", res, tt.wantErr)
				}
				if !bytes.Equal(got, readTestdata(t, tt.c, tt.file)) {
					t.Fatalf("file changed on error: %q", got)
				}
				return
			}
			if res.IsError {
				t.Fatalf("edit failed: %s", res.Content)
			}
			want := []byte(tt.wantBytes)
			if tt.wantFile != "" {
				want = readTestdata(t, tt.c, tt.wantFile)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("file =\n%q\nwant\n%q", got, want)
			}
			if res.Diff == "" || !strings.Contains(res.Diff, "@@ -") || len(res.Paths) != 1 {
				t.Fatalf("missing diff or paths: %+v", res)
			}
		})
	}
}

package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

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

// TestBinarySniffingRefusesAZipButReadsCutUTF8AndLatin1AsText checks
// binary sniffing both ways through the real tools: the ODS (ZIP) file is
// refused by read, edit and write and skipped by grep with no raw bytes
// shown; a UTF-8 sequence cut by the sample window and a Latin-1 file are
// text, and the Latin-1 one keeps its encoding through an edit.
// Case B17 (testdata/B17; earendil-works/pi#5289, NousResearch/hermes-agent#76886).
func TestBinarySniffingRefusesAZipButReadsCutUTF8AndLatin1AsText(t *testing.T) {
	dir := copyCase(t, "B17", "sheet.ods", "boundary_utf8.md", "latin1.txt")
	_, reg := newWS(t, dir)
	ods := readTestdata(t, "B17", "sheet.ods")

	res := call(t, reg, "read_file", map[string]any{"path": "sheet.ods"})
	if !res.IsError || !strings.Contains(res.Content, "binary file (zip/ods, 340 bytes) - not shown; use a converter") {
		t.Fatalf("read sheet.ods: %+v", res)
	}
	if !utf8.ValidString(res.Content) || strings.Contains(res.Content, "mimetype") || strings.ContainsRune(res.Content, 0) {
		t.Fatalf("raw bytes leaked into the result: %q", res.Content)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "sheet.ods", "old_string": "mimetype", "new_string": "x"}},
		{"write_file", map[string]any{"path": "sheet.ods", "content": "x"}},
	} {
		if res := call(t, reg, c.tool, c.args); !res.IsError || !strings.Contains(res.Content, "binary file") {
			t.Fatalf("%s on sheet.ods: %+v", c.tool, res)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sheet.ods")); !bytes.Equal(got, ods) {
		t.Fatal("sheet.ods modified")
	}
	if res := call(t, reg, "grep", map[string]any{"pattern": "mimetype"}); strings.Contains(res.Content, "sheet.ods") {
		t.Fatalf("grep reported the binary file: %q", res.Content)
	}

	res = call(t, reg, "read_file", map[string]any{"path": "boundary_utf8.md"})
	want := "    1\t" + strings.Repeat("a", 999) + "ç\n    2\tx\n"
	if res.IsError || res.Content != want {
		t.Fatalf("boundary_utf8.md = %q, want %q", res.Content, want)
	}

	res = call(t, reg, "read_file", map[string]any{"path": "latin1.txt"})
	if res.IsError || !strings.HasPrefix(res.Content, "    1\tcafé crème\n") || !strings.Contains(res.Content, "Windows-1252") {
		t.Fatalf("latin1.txt = %+v", res)
	}
	// The legacy file stays in its encoding through an edit.
	res = call(t, reg, "edit_file", map[string]any{"path": "latin1.txt", "old_string": "crème", "new_string": "crème brûlée"})
	if res.IsError {
		t.Fatalf("edit latin1.txt: %s", res.Content)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "latin1.txt")); string(got) != "caf\xe9 cr\xe8me br\xfbl\xe9e\n" {
		t.Fatalf("latin1.txt after edit = %q", got)
	}
}

// pathRequest is one line of a confinement case's requests.jsonl.
type pathRequest struct {
	Tool   string `json:"tool"`
	Expect string `json:"expect"`
	Post   string `json:"post"`
}

// runPathCase runs setup.sh in a temp dir, then every request through the
// real tool and its expected outcome; post conditions are checked by
// posts, and an unknown one fails the test.
func runPathCase(t *testing.T, c, wsRel string, posts map[string]func(base string, res Result) bool) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	setup := exec.Command("sh", filepath.Join(mustAbs(t, "testdata"), c, "setup.sh"))
	setup.Dir = base
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("setup.sh: %v\n%s", err, out)
	}
	_, reg := newWS(t, filepath.Join(base, wsRel))
	sc := bufio.NewScanner(bytes.NewReader(readTestdata(t, c, "requests.jsonl")))
	n := 0
	for sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), "<abs>", base)
		if strings.TrimSpace(line) == "" {
			continue
		}
		n++
		var req pathRequest
		var args map[string]any
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(line), &args); err != nil {
			t.Fatal(err)
		}
		delete(args, "tool")
		delete(args, "expect")
		delete(args, "post")
		res := call(t, reg, req.Tool, args)
		switch req.Expect {
		case "deny":
			if !res.IsError || !strings.Contains(res.Content, "outside the workspace") {
				t.Errorf("%s: want deny, got %+v", line, res)
			}
		case "allow":
			if res.IsError {
				t.Errorf("%s: want allow, got %s", line, res.Content)
			}
		default:
			t.Fatalf("unknown expect %q", req.Expect)
		}
		if req.Post != "" {
			check, ok := posts[req.Post]
			if !ok {
				t.Fatalf("no check for post condition %q", req.Post)
			}
			if !check(base, res) {
				t.Errorf("%s: post condition failed: %s (result %q)", line, req.Post, res.Content)
			}
		}
	}
	if n == 0 {
		t.Fatal("no requests")
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestSymlinkEscapesAreDeniedOnTheResolvedPath runs the requests through
// links to outside files and dirs, a dangling link and a link as the final
// component of a write: every escape is denied, nothing outside changes.
// Case B22 (testdata/B22; modelcontextprotocol/servers#1845,
// wonderwhy-er/DesktopCommanderMCP#420).
func TestSymlinkEscapesAreDeniedOnTheResolvedPath(t *testing.T) {
	notExist := func(rel string) func(string, Result) bool {
		return func(base string, _ Result) bool {
			_, err := os.Stat(filepath.Join(base, rel))
			return os.IsNotExist(err)
		}
	}
	runPathCase(t, "B22", "ws", map[string]func(string, Result) bool{
		"outside/new.txt must not exist":     notExist("outside/new.txt"),
		"outside/created.txt must not exist": notExist("outside/created.txt"),
		"outside/victim.txt still 'original'": func(base string, _ Result) bool {
			b, err := os.ReadFile(filepath.Join(base, "outside/victim.txt"))
			return err == nil && string(b) == "original\n"
		},
		"ws/sub/new_dir/new.txt exists": func(base string, _ Result) bool {
			b, err := os.ReadFile(filepath.Join(base, "ws/sub/new_dir/new.txt"))
			return err == nil && string(b) == "ok"
		},
		"no match reported from outside/ (do not follow escaping links)": func(_ string, res Result) bool {
			// Nothing inside ws/ holds SECRET: any path:line pointer came
			// through an escaping link.
			return !regexp.MustCompile(`(?m)^\S+:\d+: `).MatchString(res.Content) &&
				!strings.Contains(res.Content, "secret.txt") && !strings.Contains(res.Content, "outside")
		},
	})
}

// TestSiblingSharingTheRootsPrefixIsOutside: ../project-evil is outside
// t/project although its path starts with the root's.
// Case B23 (testdata/B23; CodebuffAI/freebuff#463).
func TestSiblingSharingTheRootsPrefixIsOutside(t *testing.T) {
	runPathCase(t, "B23", "t/project", nil)
}

// TestEscapingLinksAreDeniedToEditWriteGlobGrepAndListDir covers what the
// case describes beyond its requests: edits through the dangling link,
// list_dir and glob of escaping links.
// Case B22 (testdata/B22; HKUDS/nanobot#4072).
func TestEscapingLinksAreDeniedToEditWriteGlobGrepAndListDir(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	setup := exec.Command("sh", filepath.Join(mustAbs(t, "testdata"), "B22", "setup.sh"))
	setup.Dir = base
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("setup.sh: %v\n%s", err, out)
	}
	_, reg := newWS(t, filepath.Join(base, "ws"))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "dangling.txt", "old_string": "a", "new_string": "b"}},
		{"write_file", map[string]any{"path": "root/tmp/zero-b22.txt", "content": "x"}},
		{"glob", map[string]any{"pattern": "*", "path": "linkdir"}},
		{"grep", map[string]any{"pattern": "SECRET", "path": "link.txt"}},
		{"list_dir", map[string]any{"path": "root"}},
	} {
		if res := call(t, reg, c.tool, c.args); !res.IsError || !strings.Contains(res.Content, "outside the workspace") {
			t.Errorf("%s %v: want deny, got %+v", c.tool, c.args, res)
		}
	}
	res := call(t, reg, "glob", map[string]any{"pattern": "**/*"})
	if strings.Contains(res.Content, "secret") || strings.Contains(res.Content, "victim") {
		t.Errorf("glob followed an escaping link: %q", res.Content)
	}
}

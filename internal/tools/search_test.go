package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

// repoTree is a small repository with nested .gitignore files.
func repoTree(t *testing.T) string {
	t.Helper()
	dir := writeTree(t, map[string]string{
		".gitignore":           "*.log\n/build/\nnode_modules\n!keep.log\n# comment\n\\#hash.txt\n",
		".git/config":          "needle in git metadata\n",
		".git/info/exclude":    "secret.env\n",
		"main.go":              "package main\n\nfunc main() { needle() }\n",
		"app.log":              "needle in a log\n",
		"keep.log":             "needle kept\n",
		"#hash.txt":            "needle hashed\n",
		"secret.env":           "needle excluded\n",
		"build/out.go":         "needle built\n",
		"src/build/gen.go":     "needle in nested build (not anchored)\n",
		"node_modules/x/y.js":  "needle module\n",
		"src/a.go":             "package src\n// Needle upper\nvar needle = 1\n",
		"src/b.txt":            "no match here\n",
		"src/.gitignore":       "*.tmp\n!important.tmp\ngen/\n",
		"src/x.tmp":            "needle tmp\n",
		"src/important.tmp":    "needle important\n",
		"src/gen/z.go":         "needle generated\n",
		"src/deep/dir/file.go": "needle deep\n",
		"docs/readme.md":       "a needle\n",
	})
	return dir
}

func TestListDir(t *testing.T) {
	dir := writeTree(t, map[string]string{"b.txt": "", "a/x": "", "c/y": "", ".hidden": ""})
	if err := os.Symlink("b.txt", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws, reg := newWS(t, dir)
	tests := []struct {
		path    string
		want    string
		isError bool
	}{
		{path: "", want: ".hidden\na/\nb.txt\nc/\nempty/\nl -> b.txt\n"},
		{path: "a", want: "x\n"},
		{path: "empty", want: "(empty directory)\n"},
		{path: "b.txt", want: "b.txt is not a directory; use read_file", isError: true},
		{path: "nope", want: "nope does not exist; check the path with list_dir or glob", isError: true},
	}
	for _, tt := range tests {
		res := call(t, reg, "list_dir", map[string]any{"path": tt.path})
		if res.Content != tt.want || res.IsError != tt.isError {
			t.Errorf("list_dir(%q) = %q (err %v), want %q", tt.path, res.Content, res.IsError, tt.want)
		}
	}
	// The cap counts what it leaves out.
	reg = NewRegistry(Core(ws, Options{ListLimit: 2})...)
	if res := call(t, reg, "list_dir", map[string]any{}); res.Content != ".hidden\na/\n[4 more entries not shown; use glob with a pattern to narrow]\n" {
		t.Errorf("capped list = %q", res.Content)
	}
}

func TestGlob(t *testing.T) {
	dir := repoTree(t)
	ws, reg := newWS(t, dir)
	tests := []struct {
		pattern, path string
		want          string
		isError       bool
	}{
		{pattern: "**/*.go", want: "main.go\nsrc/a.go\nsrc/build/gen.go\nsrc/deep/dir/file.go\n"},
		{pattern: "*.log", want: "keep.log\n"},
		{pattern: "src/**/*.tmp", want: "src/important.tmp\n"},
		{pattern: "*.go", path: "src", want: "src/a.go\n"},
		{pattern: "**/file.go", path: "src/deep", want: "src/deep/dir/file.go\n"},
		{pattern: "**/*.rs", want: "no files match **/*.rs"},
		{pattern: "nodir/*.go", want: "no files match nodir/*.go"},
		{pattern: "[", want: `invalid glob pattern "["`, isError: true},
		{pattern: "../*", want: "may not contain ..", isError: true},
	}
	for _, tt := range tests {
		res := call(t, reg, "glob", map[string]any{"pattern": tt.pattern, "path": tt.path})
		if res.IsError != tt.isError || (!tt.isError && res.Content != tt.want) || !strings.Contains(res.Content, tt.want) {
			t.Errorf("glob(%q, %q) = %q (err %v), want %q", tt.pattern, tt.path, res.Content, res.IsError, tt.want)
		}
	}
	reg = NewRegistry(Core(ws, Options{GlobLimit: 1})...)
	if res := call(t, reg, "glob", map[string]any{"pattern": "**/*.go"}); res.Content != "main.go\n[3 more files not shown; narrow the pattern or path]\n" {
		t.Errorf("capped glob = %q", res.Content)
	}
}

func TestGrep(t *testing.T) {
	dir := repoTree(t)
	ws, reg := newWS(t, dir)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{name: "gitignore aware", args: map[string]any{"pattern": "needle"}, want: "" +
			"docs/readme.md:1: a needle\n" +
			"keep.log:1: needle kept\n" +
			"main.go:3: func main() { needle() }\n" +
			"src/a.go:3: var needle = 1\n" +
			"src/build/gen.go:1: needle in nested build (not anchored)\n" +
			"src/deep/dir/file.go:1: needle deep\n" +
			"src/important.tmp:1: needle important\n"},
		{name: "ignore case", args: map[string]any{"pattern": "needle", "path": "src/a.go", "ignore_case": true}, want: "src/a.go:2: // Needle upper\nsrc/a.go:3: var needle = 1\n"},
		{name: "regexp anchors per line", args: map[string]any{"pattern": `^var \w+`, "path": "src"}, want: "src/a.go:3: var needle = 1\n"},
		{name: "glob on base name", args: map[string]any{"pattern": "needle", "glob": "*.md"}, want: "docs/readme.md:1: a needle\n"},
		{name: "glob with dirs", args: map[string]any{"pattern": "needle", "path": "src", "glob": "deep/**"}, want: "src/deep/dir/file.go:1: needle deep\n"},
		{name: "no match", args: map[string]any{"pattern": "zzz"}, want: "no matches for zzz"},
		{name: "bad regexp", args: map[string]any{"pattern": "(?<=x)"}, want: `invalid regexp "(?<=x)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, reg, "grep", tt.args)
			if !strings.HasPrefix(res.Content, tt.want) || (!strings.HasPrefix(tt.want, "invalid") && res.Content != tt.want) {
				t.Fatalf("grep = %q, want %q", res.Content, tt.want)
			}
		})
	}

	// Caps: previews cut at the byte limit, totals counted.
	big := map[string]string{}
	for i := range 30 {
		big[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("match "+strings.Repeat("é", 20)+"\n", 3)
	}
	bigDir := writeTree(t, big)
	ws, _ = newWS(t, bigDir)
	reg = NewRegistry(Core(ws, Options{GrepMaxMatches: 4, GrepPreviewBytes: 11})...)
	res := call(t, reg, "grep", map[string]any{"pattern": "match"})
	want := "f00.txt:1: match éé…\nf00.txt:2: match éé…\nf00.txt:3: match éé…\nf01.txt:1: match éé…\n" +
		"[86 more matching lines omitted (90 in all, in 30 files; 28 files not shown); narrow pattern, path or glob, or read_file the lines above]\n"
	if res.Content != want {
		t.Fatalf("capped grep =\n%q\nwant\n%q", res.Content, want)
	}
}

// TestGrepNestedRepoFromSubdir checks that the root .gitignore applies to
// a search that starts below it.
func TestGrepNestedRepoFromSubdir(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".gitignore":   "*.gen.go\n",
		"pkg/a.go":     "needle\n",
		"pkg/a.gen.go": "needle\n",
	})
	_, reg := newWS(t, dir)
	if res := call(t, reg, "grep", map[string]any{"pattern": "needle", "path": "pkg"}); res.Content != "pkg/a.go:1: needle\n" {
		t.Fatalf("grep = %q", res.Content)
	}
}

func TestParseIgnore(t *testing.T) {
	rules := parseIgnore([]byte("# c\n\n!keep\nbuild/\n/top\na/b\n\\!bang\ntrailing   \n"))
	want := []ignoreRule{
		{pattern: "keep", negate: true},
		{pattern: "build", dirOnly: true},
		{pattern: "top", anchored: true},
		{pattern: "a/b", anchored: true},
		{pattern: "!bang"},
		{pattern: "trailing"},
	}
	if fmt.Sprint(rules) != fmt.Sprint(want) {
		t.Fatalf("rules = %+v, want %+v", rules, want)
	}
}

// BenchmarkGrep searches GOROOT/src for a literal and for a regexp; compare
// with `rg -c` over the same tree (SPEC: within 2x of ripgrep).
func BenchmarkGrep(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	ws, err := workspace.New(src)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	tool := &Grep{ws: ws, opts: Options{}.withDefaults()}
	for _, bm := range []struct{ name, args string }{
		{"literal", `{"pattern":"ErrNotExist"}`},
		{"regexp", `{"pattern":"func \\(\\w+ \\*\\w+\\) Close\\("}`},
		{"ignore_case", `{"pattern":"deadline exceeded","ignore_case":true}`},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				res, err := tool.Run(b.Context(), []byte(bm.args))
				if err != nil || res.IsError || strings.HasPrefix(res.Content, "no matches") {
					b.Fatalf("grep: %v %q", err, res.Content)
				}
			}
		})
	}
}

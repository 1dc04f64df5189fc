package tools

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

// walkReference is the straightforward walk walkFiles must agree with:
// filepath.WalkDir, every directory's .gitignore loaded on entry, and each
// path checked with ignorer.ignored.
func walkReference(ws *workspace.Workspace, start string) ([]string, error) {
	root, ok := ws.RootOf(start)
	if !ok {
		root = start
	}
	ig := newIgnorer(root)
	ig.loadAncestors(start)
	var files []string
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return nil
		case d.IsDir():
			if p != start && ig.ignored(p, true) {
				return filepath.SkipDir
			}
			ig.load(p)
			return nil
		case !d.Type().IsRegular(), ig.ignored(p, false):
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files, err
}

func TestWalkFilesMatchesReference(t *testing.T) {
	trees := []struct {
		name  string
		files map[string]string
		links map[string]string // link -> target
		start string
	}{
		{name: "repo", files: map[string]string{
			".gitignore":           "*.log\n/build/\nnode_modules\n!keep.log\n",
			".git/info/exclude":    "secret.env\n",
			".git/config":          "x",
			"main.go":              "x",
			"app.log":              "x",
			"keep.log":             "x",
			"secret.env":           "x",
			"build/out.go":         "x",
			"src/build/gen.go":     "x",
			"node_modules/x/y.js":  "x",
			"src/.gitignore":       "*.tmp\n!important.tmp\ngen/\n/anchored.go\n",
			"src/x.tmp":            "x",
			"src/important.tmp":    "x",
			"src/gen/z.go":         "x",
			"src/anchored.go":      "x",
			"src/deep/anchored.go": "x",
			"a-b/x.go":             "x",
			"a/x.go":               "x",
			"a.b/x.go":             "x",
		}},
		{name: "from subdir", start: "src/deep", files: map[string]string{
			".gitignore":            "*.gen.go\n",
			"src/.gitignore":        "skip/\n",
			"src/deep/a.gen.go":     "x",
			"src/deep/a.go":         "x",
			"src/deep/skip/b.go":    "x",
			"src/deep/.gitignore":   "!a.gen.go\n",
			"src/deep/sub/c.gen.go": "x",
		}},
		{name: "links and odd gitignores", files: map[string]string{
			"real/.gitignore":         "*.o\n",
			"real/a.o":                "x",
			"real/a.c":                "x",
			"dirignore/.gitignore/x":  "a .gitignore that is a directory",
			"dirignore/y.go":          "x",
			"linked/ignore-source":    "*.go\n",
			"linked/z.go":             "x",
			"linked/z.txt":            "x",
			"outside-target/file.txt": "x",
		}, links: map[string]string{
			"real/link.c":       "a.c",
			"real/linkdir":      "../dirignore",
			"linked/.gitignore": "ignore-source",
		}},
	}
	for _, tt := range trees {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			for link, target := range tt.links {
				if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := exec.LookPath("mkfifo"); err == nil {
				exec.Command("mkfifo", filepath.Join(dir, "fifo")).Run()
			}
			ws, err := workspace.New(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			start := filepath.Join(ws.Root(), filepath.FromSlash(tt.start))
			want, err := walkReference(ws, start)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if err := walkFiles(context.Background(), ws, start, func(p string) error {
				got = append(got, p)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("walkFiles:\n%s\nreference:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if len(got) == 0 {
				t.Fatal("walk found no files")
			}
		})
	}
}

func TestWalkFilesStops(t *testing.T) {
	dir := writeTree(t, map[string]string{"a/1": "", "a/2": "", "a/3": "", "b/1": "", "c": ""})
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	tests := []struct {
		name string
		stop func(rel string) error
		want string
	}{
		{"SkipAll", func(rel string) error {
			if rel == "a/2" {
				return fs.SkipAll
			}
			return nil
		}, "a/1 a/2"},
		{"SkipDir", func(rel string) error {
			if rel == "a/2" {
				return fs.SkipDir
			}
			return nil
		}, "a/1 a/2 b/1 c"},
	}
	for _, tt := range tests {
		var seen []string
		err := walkFiles(context.Background(), ws, ws.Root(), func(p string) error {
			rel := ws.Rel(p)
			seen = append(seen, rel)
			return tt.stop(rel)
		})
		if err != nil || strings.Join(seen, " ") != tt.want {
			t.Errorf("%s: saw %q, err %v; want %q", tt.name, seen, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := map[string]string{}
	for i := range 1100 {
		big[filepath.Join("d", strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+string(rune('a'+i/26)))] = ""
	}
	bigDir := writeTree(t, big)
	ws2, err := workspace.New(bigDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	if err := walkFiles(ctx, ws2, ws2.Root(), func(string) error { return nil }); err != context.Canceled {
		t.Errorf("canceled walk returned %v", err)
	}
}

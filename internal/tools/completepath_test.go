package tools

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

func TestCompletePathsSkipsIgnoredAndDotFiles(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"main.go", "main_test.go", "make.sh", ".env", "build/out.bin", "pkg/a.go", "pkg/gen.go", "README.md"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\npkg/gen.go\n"), 0o644)
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"ma", []string{"main.go", "main_test.go", "make.sh"}},
		{"", []string{"README.md", "main.go", "main_test.go", "make.sh", "pkg/"}},
		{"b", nil},
		{"pkg/", []string{"pkg/a.go"}},
		{".e", []string{".env"}},
		{"../", nil},
		{"nope/x", nil},
	} {
		if got := CompletePaths(ws, tc.prefix); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

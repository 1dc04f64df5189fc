package testbin

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Fixture copies the project folder src (a testdata fixture) into a fresh
// temp dir, makes it a git repository with one commit (real git, so the
// folder has a root as a user's clone does), and returns its path.
func Fixture(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	GitCommit(t, dst)
	return dst
}

// GitCommit makes dir a git repository (once) and commits everything in
// it (real git, a fixed author), returning the commit.
func GitCommit(t testing.TB, dir string) string {
	t.Helper()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		git("init", "-q")
	}
	git("add", "-A")
	git("-c", "user.name=Zero Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "fixture")
	return git("rev-parse", "HEAD")
}

// WriteTree writes files (slash path → content) under root, making the
// folders they need.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

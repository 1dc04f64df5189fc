package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRemoveDeletesFilesOnlyInsideWritableRoots(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	must(t, os.WriteFile(filepath.Join(other, "keep.txt"), []byte("x"), 0o644))
	w, err := New(dir)
	must(t, err)
	defer w.Close()
	must(t, w.AddReadRoot(other))
	abs, err := w.Resolve("f.txt", true)
	must(t, err)
	must(t, w.Remove(abs))
	if _, err := os.Stat(abs); !os.IsNotExist(err) {
		t.Errorf("f.txt still there: %v", err)
	}
	if err := w.Remove(filepath.Join(w.Root(), "d")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	real, _ := filepath.EvalSymlinks(other)
	if err := w.Remove(filepath.Join(real, "keep.txt")); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only root: %v", err)
	}
	if err := w.Remove("/etc/hostname"); err == nil {
		t.Error("a path outside every root was removed")
	}
}

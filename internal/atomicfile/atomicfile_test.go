package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWholeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "meta.json")
	os.WriteFile(p, []byte("old"), 0o644)
	if err := Write(p, []byte("new content"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	entries, _ := os.ReadDir(dir)
	if string(b) != "new content" || st.Mode().Perm() != 0o600 || len(entries) != 1 {
		t.Fatalf("content %q mode %v entries %d", b, st.Mode().Perm(), len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "x"), []byte("x"), 0o600); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

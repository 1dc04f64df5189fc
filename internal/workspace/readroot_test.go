package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadRootIsReadableNotWritable(t *testing.T) {
	ws, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	spill := t.TempDir()
	os.WriteFile(filepath.Join(spill, "out.txt"), []byte("full output"), 0o644)
	if err := ws.AddReadRoot(spill); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(spill, "out.txt")
	abs, err := ws.Resolve(p, false)
	if err != nil {
		t.Fatalf("read of a read root refused: %v", err)
	}
	if b, err := ws.ReadFile(abs); err != nil || string(b) != "full output" {
		t.Fatalf("read %q %v", b, err)
	}
	if _, err := ws.Resolve(p, true); err == nil {
		t.Fatal("write into a read root allowed by Resolve")
	}
	if err := ws.WriteFile(abs, []byte("x")); err == nil {
		t.Fatal("WriteFile into a read root allowed")
	}
	if len(ws.Roots()) != 1 {
		t.Fatalf("Roots lists the read root: %v", ws.Roots())
	}
}

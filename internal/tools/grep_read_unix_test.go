//go:build unix

package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestScratchRead checks the file reader: exact contents with the buffer
// reused from a bigger file, empty files, refusal of symlinks, FIFOs
// (without blocking) and files over grepMaxFileBytes.
func TestScratchRead(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789\n"), 10000)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bigPath := write("big.txt", big)
	smallPath := write("small.txt", []byte("small\n"))
	emptyPath := write("empty.txt", nil)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(smallPath, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.bin")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(grepMaxFileBytes + 1)
		f.Close()
	}
	var sc scratch
	tests := []struct {
		path    string
		want    []byte
		wantErr bool
	}{
		{bigPath, big, false},
		{smallPath, []byte("small\n"), false},
		{emptyPath, []byte{}, false},
		{link, nil, true},
		{fifo, nil, true},
		{huge, nil, true},
		{filepath.Join(dir, "missing"), nil, true},
		{bigPath, big, false},
	}
	for _, tt := range tests {
		err := sc.read(tt.path)
		if (err != nil) != tt.wantErr {
			t.Fatalf("read %s: err %v, want error %v", filepath.Base(tt.path), err, tt.wantErr)
		}
		if err == nil && !bytes.Equal(sc.data, tt.want) {
			t.Fatalf("read %s: %d bytes, want %d", filepath.Base(tt.path), len(sc.data), len(tt.want))
		}
	}
}

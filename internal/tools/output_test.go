package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// seqOutput is what `seq 1 n` prints.
func seqOutput(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func runBash(t *testing.T, opts Options, ctx context.Context, command string) Result {
	t.Helper()
	ws, _ := newWS(t, t.TempDir())
	var bash Tool
	for _, tool := range Core(ws, opts) {
		if tool.Name() == "bash" {
			bash = tool
		}
	}
	args, _ := json.Marshal(map[string]string{"command": command})
	res, err := bash.Run(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Several megabytes of output: the model-facing content stays within the
// in-memory cap, and the file the caller named holds every byte.
func TestBashStreamsWholeOutputToTheNamedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tool-output", "call_1.txt")
	want := seqOutput(2_000_000) // 14.9 MB
	res := runBash(t, Options{}, WithFullOutput(context.Background(), path), "seq 1 2000000")

	if res.FullOutput != path || res.FullOutputBytes != len(want) || res.RawBytes != len(want) {
		t.Fatalf("FullOutput %q (%d bytes), RawBytes %d; want %q, %d bytes", res.FullOutput, res.FullOutputBytes, res.RawBytes, path, len(want))
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("file holds %d bytes (err %v), want the whole %d-byte output", len(got), err, len(want))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	if len(res.Content) > 1<<20+512 || !strings.HasPrefix(res.Content, "1\n2\n") || !strings.Contains(res.Content[len(res.Content)-40:], "1999999\n2000000\n") {
		t.Fatalf("content %d bytes, not the capped head and tail", len(res.Content))
	}
	if !strings.Contains(res.Content, "output was 14888896 bytes in all; full output in "+path+", read it with read_file") {
		t.Errorf("marker does not name the file: %q", res.Content[len(res.Content)/2-200:len(res.Content)/2+400])
	}
}

// Past the file limit the file holds the first bytes, and the marker says
// how many of how many.
func TestBashFullOutputStopsAtItsLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	want := seqOutput(1_000_000)
	res := runBash(t, Options{BashOutputCap: 64 << 10, BashFullOutputLimit: 1 << 20}, WithFullOutput(context.Background(), path), "seq 1 1000000")
	got, _ := os.ReadFile(path)
	if res.FullOutputBytes != 1<<20 || !bytes.Equal(got, want[:1<<20]) || res.RawBytes != len(want) {
		t.Fatalf("file %d bytes (reported %d), RawBytes %d; want the first 1 MiB of %d", len(got), res.FullOutputBytes, res.RawBytes, len(want))
	}
	if !strings.Contains(res.Content, "output was 6888896 bytes in all; the first 1048576 bytes are in "+path) {
		t.Errorf("marker does not state the limit: %q", res.Content)
	}
	if len(res.Content) > 64<<10+512 {
		t.Errorf("content %d bytes, want within the 64 KB cap", len(res.Content))
	}
}

// No file unless the caller asks and the output passes what bash keeps in
// memory; an output that fits is returned whole, as before.
func TestBashWritesNoFileUnlessNeeded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	res := runBash(t, Options{}, WithFullOutput(context.Background(), path), "seq 1 1000")
	if res.FullOutput != "" || res.RawBytes != 0 || res.Content != string(seqOutput(1000))+"[exit code 0]\n" {
		t.Fatalf("small output: FullOutput %q RawBytes %d", res.FullOutput, res.RawBytes)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a file was written for output that fits: %v", err)
	}
	res = runBash(t, Options{BashOutputCap: 1000}, context.Background(), "seq 1 100000")
	if res.FullOutput != "" || !strings.Contains(res.Content, "redirect to a file and read_file or grep it") {
		t.Fatalf("without WithFullOutput: FullOutput %q, content %q", res.FullOutput, res.Content)
	}
}

// A file that cannot be written costs the full copy, not the result.
func TestBashFullOutputFileErrorKeepsTheResult(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o600)
	res := runBash(t, Options{BashOutputCap: 1000}, WithFullOutput(context.Background(), filepath.Join(blocker, "out.txt")), "seq 1 100000")
	if res.FullOutput != "" || res.IsError || !strings.Contains(res.Content, "[could not keep the full output: ") || !strings.HasSuffix(res.Content, "[exit code 0]\n") {
		t.Fatalf("FullOutput %q IsError %v content %q", res.FullOutput, res.IsError, res.Content)
	}
}

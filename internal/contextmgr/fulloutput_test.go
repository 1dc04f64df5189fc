package contextmgr

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// bashCut is what bash returns for an output it kept only the head and
// tail of in memory: n lines "line i", kept lines at each end.
func bashCut(n, kept int) (full, content string) {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	full = b.String()
	lines := strings.SplitAfter(full, "\n")
	head, tail := strings.Join(lines[:kept], ""), strings.Join(lines[n-kept:n], "")
	return full, head + "\n[... bash cut ...]\n" + tail + "[exit code 0]\n"
}

// A tool that streamed its whole output to the spill file: the marker names
// that file and Spill does not overwrite it with the shorter content.
func TestShapeTurnNamesTheFileTheToolWrote(t *testing.T) {
	dir := t.TempDir()
	full, content := bashCut(200_000, 3000)
	path := SpillPath(dir, "b1")
	os.MkdirAll(dir+"/tool-output", 0o700)
	os.WriteFile(path, []byte(full), 0o600)
	m := NewManager(dir)
	out, err := m.ShapeTurn(1, []Result{{CallID: "b1", Content: content, SideEffect: "shell", RawBytes: len(full), FullOutput: path, FullOutputBytes: len(full)}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out[0], "bytes omitted; full output in "+path+", read it with read_file") || len(out[0]) > DefaultMaxToolOutput {
		t.Fatalf("marker does not name the streamed file: %q", out[0])
	}
	if b, _ := os.ReadFile(path); string(b) != full {
		t.Fatalf("spill file holds %d bytes, want the streamed %d", len(b), len(full))
	}
}

// A file the tool stopped at its limit: the marker says how much of how
// much it holds, and later recaps and prunes keep saying where it is.
func TestMarkerStatesTheToolsFileLimit(t *testing.T) {
	full, content := bashCut(200_000, 3000)
	const held = 1 << 20
	m := NewManager("")
	out, _ := m.ShapeTurn(1, []Result{{CallID: "b1", Content: content, SideEffect: "shell", RawBytes: len(full), FullOutput: "/s/tool-output/b1.txt", FullOutputBytes: held}})
	want := fmt.Sprintf("; the first %d of %d bytes are in /s/tool-output/b1.txt, read it with read_file offset/limit ...]", held, len(full))
	if !strings.Contains(out[0], want) {
		t.Fatalf("marker does not state the limit %q:\n%s", want, out[0])
	}
	if re := RecapResult(out[0], 1024, ""); !strings.Contains(re, want) || len(re) > 1024 {
		t.Errorf("recap lost the limit: %q", re)
	}
	stub := prunedStub(out[0])
	if !strings.Contains(stub, "the start of its output is in /s/tool-output/b1.txt, read it with read_file") {
		t.Errorf("pruned stub: %q", stub)
	}
}

func TestSpillPathIsWhereSpillWrites(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"call_1", "a/b c", strings.Repeat("x", 80)} {
		p, err := Spill(dir, id, "x")
		if err != nil || p != SpillPath(dir, id) {
			t.Errorf("Spill(%q) = %q, %v; SpillPath %q", id, p, err, SpillPath(dir, id))
		}
	}
}

// Shaping with a file that holds only the first bytes keeps the cap and
// always states the limit.
func FuzzShapeWithFileLimit(f *testing.F) {
	f.Add("--- FAIL: TestX (0.00s)\n    x_test.go:3: bad\nFAIL\tpkg\t0.1s\n", 40, 1<<20, 100)
	f.Add(strings.Repeat("line\n", 400), 300, 0, 1000)
	f.Add("no newline at all", 12, 5, 1)
	abs := func(n int) int {
		if n < 0 {
			return -(n + 1)
		}
		return n
	}
	f.Fuzz(func(t *testing.T, s string, limit, extra, held int) {
		limit, extra = abs(limit)%8192+1, abs(extra)%(1<<30)
		total := len(s) + extra
		held = abs(held) % (total + 1)
		sp := spill{path: "/s/tool-output/c.txt", held: held}
		kept, _, cut := shapeExtra(s, limit, sp, extra)
		if !cut {
			if kept != s {
				t.Fatal("uncut output changed")
			}
			return
		}
		if limit > len(sp.marker(total, total))+2 && len(kept) > limit {
			t.Fatalf("len %d > cap %d", len(kept), limit)
		}
		if held > 0 && held < total && !strings.Contains(kept, fmt.Sprintf("the first %d of %d bytes are in", held, total)) {
			t.Fatalf("limit not stated: %q", kept)
		}
	})
}

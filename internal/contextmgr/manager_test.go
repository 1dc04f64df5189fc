package contextmgr

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestManagerTurn runs two turns through every per-result lever and checks
// the saving per lever and that every dropped byte can be fetched again.
func TestManagerTurn(t *testing.T) {
	dir := t.TempDir()
	m := NewManager(dir)
	file := []byte(strings.Repeat("func main() {}\n", 600)) // 9 KB
	st := StateOf(time.Unix(1700000000, 0), file)
	read := func(id string) Result {
		return Result{CallID: id, Content: string(file), Read: &FileRead{Path: "/w/main.go", State: st}, SideEffect: "read"}
	}
	testOut := strings.Repeat("=== RUN   TestA\n--- PASS: TestA (0.00s)\n", 400) + "--- FAIL: TestB (0.00s)\n    b_test.go:9: boom\nFAIL\tpkg\t0.1s\n"

	// Turn 1: a big read and a big test run.
	got, err := m.ShapeTurn(1, []Result{read("c1"), {CallID: "c2", Content: testOut, SideEffect: "shell"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, full := range []string{string(file), testOut} {
		if len(got[i]) > DefaultMaxToolOutput {
			t.Errorf("result %d: %d bytes", i, len(got[i]))
		}
		path := regexp.MustCompile(`full output in (\S+),`).FindStringSubmatch(got[i])
		if path == nil || filepath.Dir(path[1]) != filepath.Join(dir, "tool-output") {
			t.Fatalf("result %d names no spill file: %q", i, got[i])
		}
		if b, _ := os.ReadFile(path[1]); string(b) != full {
			t.Errorf("result %d not reachable in %s", i, path[1])
		}
	}
	if !strings.Contains(got[1], "--- FAIL: TestB") || !strings.Contains(got[1], "FAIL\tpkg\t0.1s") {
		t.Error("test failure lost")
	}
	// The shell call came after the read: the cache forgot it.
	if m.Cache.Len() != 0 {
		t.Errorf("cache holds %d reads after a shell call", m.Cache.Len())
	}

	// Turn 2: read, read again (stub), write, read again (full).
	got, err = m.ShapeTurn(2, []Result{read("c3"), read("c4"), {CallID: "c5", Content: "ok", SideEffect: "write", Paths: []string{"/w/main.go"}}, read("c6")})
	if err != nil {
		t.Fatal(err)
	}
	if got[1] != Stub("/w/main.go", "", 2) {
		t.Errorf("re-read = %q", got[1])
	}
	if strings.HasPrefix(got[3], "[/w/main.go unchanged") {
		t.Error("read after a write was stubbed")
	}
	if m.Stats.Times[LeverReadCache] != 1 || m.Stats.Saved[LeverReadCache] != len(file)-len(got[1]) {
		t.Errorf("read cache stats %+v", m.Stats)
	}
	if m.Stats.Saved[LeverCap] == 0 {
		t.Error("cap saved nothing")
	}
	sent := 0
	for _, g := range got {
		sent += len(g)
	}
	if sent > DefaultMaxTurnOutput {
		t.Errorf("turn sent %d bytes", sent)
	}
}

func TestManagerTurnBudget(t *testing.T) {
	m := &Manager{MaxToolOutput: 4096, MaxTurnOutput: 2000}
	var rs []Result
	for _, id := range []string{"a", "b", "c", "d"} {
		rs = append(rs, Result{CallID: id, Content: strings.Repeat(id, 3000)})
	}
	got, err := m.ShapeTurn(1, rs)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, g := range got {
		total += len(g)
		if !strings.Contains(g, "bytes omitted ...]") {
			t.Errorf("no marker in %q", g)
		}
	}
	if total > 2000 {
		t.Errorf("turn %d bytes over its 2000 budget", total)
	}
	if m.Stats.Saved[LeverTurnBudget] != 4*3000-total || m.Stats.Saved[LeverCap] != 0 {
		t.Errorf("stats %+v", m.Stats)
	}
}

// The per-result cap ShapeTurn applies follows the window unless
// max_tool_output is set; both go through ToolOutputCap.
func TestShapeTurnCapFollowsWindow(t *testing.T) {
	out := strings.Repeat("0123456789abcdef\n", 2000) // 34 KB, no test or log shape
	tests := []struct {
		name               string
		window, configured int
		want               int
	}{
		{"unknown window", 0, 0, DefaultMaxToolOutput},
		{"128K window", 128 * 1024, 0, MaxScaledToolOutput},
		{"configured wins", 128 * 1024, 2048, 2048},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewManager("")
			m.WindowTokens, m.MaxToolOutput = tc.window, tc.configured
			if m.ResultCap() != tc.want {
				t.Fatalf("ResultCap = %d, want %d", m.ResultCap(), tc.want)
			}
			got, err := m.ShapeTurn(1, []Result{{CallID: "c", Content: out, SideEffect: "shell"}})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(got[0]); n > tc.want || n < tc.want*3/4 {
				t.Errorf("kept %d bytes, want close to the %d-byte cap", n, tc.want)
			}
		})
	}
}

package contextmgr

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

func TestTurnCaps(t *testing.T) {
	tests := []struct {
		name            string
		sizes           []int
		turnMax, perRes int
		want            []int
	}{
		{"all fit", []int{100, 2000, 300}, 24576, 4096, []int{100, 2000, 300}},
		{"per-result cap", []int{10000, 100}, 24576, 4096, []int{4096, 100}},
		{"shared when over", []int{10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000}, 24576, 4096, []int{3072, 3072, 3072, 3072, 3072, 3072, 3072, 3072}},
		{"small ones keep size", []int{500, 20000, 20000, 500}, 4000, 4096, []int{500, 1500, 1500, 500}},
		{"floor", []int{5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000}, 1000, 4096, []int{256, 256, 256, 256, 256, 256, 256, 256, 256, 256}},
		{"defaults", []int{30000, 30000, 30000, 30000, 30000, 30000, 30000}, 0, 0, []int{3510, 3510, 3510, 3510, 3510, 3510, 3510}},
		{"empty", nil, 0, 0, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TurnCaps(tt.sizes, tt.turnMax, tt.perRes)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("caps %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTurnBudgetSaves applies the caps through Cap: the turn stays within
// its budget and every result stays fully reachable in its spill file.
func TestTurnBudgetSaves(t *testing.T) {
	dir := t.TempDir()
	var outputs []string
	for i := 0; i < 10; i++ {
		outputs = append(outputs, strings.Repeat(string(rune('a'+i))+" line of output\n", 800))
	}
	sizes := make([]int, len(outputs))
	for i, o := range outputs {
		sizes[i] = len(o)
	}
	caps := TurnCaps(sizes, DefaultMaxTurnOutput, DefaultMaxToolOutput)
	total, full := 0, 0
	var st Stats
	for i, o := range outputs {
		path, err := Spill(dir, "call_"+string(rune('a'+i)), o)
		if err != nil {
			t.Fatal(err)
		}
		kept, cut := Cap(o, caps[i], path)
		if !cut {
			t.Fatalf("result %d not cut", i)
		}
		st.Add(LeverTurnBudget, len(o)-len(kept))
		total += len(kept)
		full += len(o)
		if b, _ := os.ReadFile(path); string(b) != o {
			t.Fatalf("result %d not reachable", i)
		}
	}
	if total > DefaultMaxTurnOutput {
		t.Errorf("turn sent %d bytes, budget %d", total, DefaultMaxTurnOutput)
	}
	if st.Total() != full-total || st.Times[LeverTurnBudget] != 10 {
		t.Errorf("stats %+v, want %d saved", st, full-total)
	}
}

func TestReadCache(t *testing.T) {
	c := NewReadCache()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	body := []byte(strings.Repeat("package main\n", 200))
	st := StateOf(t0, body)
	result := len(body) + 100

	if _, hit := c.Lookup("/w/main.go", "", st, 1, result); hit {
		t.Fatal("first read hit")
	}
	stub, hit := c.Lookup("/w/main.go", "", st, 3, result)
	if !hit || stub != "[/w/main.go unchanged since turn 1, see the earlier result]" {
		t.Fatalf("re-read: %q %v", stub, hit)
	}
	if c.Hits != 1 || c.Saved != result-len(stub) {
		t.Errorf("hits %d saved %d", c.Hits, c.Saved)
	}
	// Another range of the same file is new text.
	if _, hit := c.Lookup("/w/main.go", "lines 1-10", st, 3, 300); hit {
		t.Error("other range hit")
	}
	// Same mtime and size, other content: not the same file.
	other := append([]byte(nil), body...)
	other[0] = 'P'
	if _, hit := c.Lookup("/w/main.go", "", StateOf(t0, other), 4, result); hit {
		t.Error("changed content hit")
	}
	// Same content, new mtime: re-read in full (the tool saw a touch).
	if _, hit := c.Lookup("/w/main.go", "", StateOf(t0.Add(time.Second), other), 5, result); hit {
		t.Error("new mtime hit")
	}
	st2 := StateOf(t0.Add(time.Second), other)
	if _, hit := c.Lookup("/w/main.go", "", st2, 6, result); !hit {
		t.Error("unchanged after re-read missed")
	}
	// Invalidation: write by path, shell for all.
	c.Lookup("/w/b.go", "", st, 6, result)
	c.Touched("write", []string{"/w/main.go"})
	if _, hit := c.Lookup("/w/main.go", "", st2, 7, result); hit {
		t.Error("hit after a write to the path")
	}
	if _, hit := c.Lookup("/w/b.go", "", st, 7, result); !hit {
		t.Error("write to another path invalidated b.go")
	}
	c.Touched("read", []string{"/w/b.go"})
	if _, hit := c.Lookup("/w/b.go", "", st, 8, result); !hit {
		t.Error("a read invalidated")
	}
	c.Touched("shell", nil)
	if c.Len() != 0 {
		t.Errorf("shell left %d entries", c.Len())
	}
	// A result smaller than its stub is sent as is.
	c.Lookup("/w/t", "", StateOf(t0, []byte("x")), 1, 5)
	if _, hit := c.Lookup("/w/t", "", StateOf(t0, []byte("x")), 2, 5); hit {
		t.Error("stub longer than the result")
	}
}

func TestCompactWrites(t *testing.T) {
	content := strings.Repeat("func f() {}\n", 100)
	args := func(v map[string]any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	call := func(id, name, a string) llm.Part {
		return llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: name, Arguments: a}}
	}
	writeOK := args(map[string]any{"path": "a.go", "content": content})
	writeBad := args(map[string]any{"path": "/etc/x", "content": content})
	editOK := args(map[string]any{"path": "b.go", "old_string": content, "new_string": content + "// x\n"})
	small := args(map[string]any{"path": "c.go", "content": "x"})
	pending := args(map[string]any{"path": "d.go", "content": content})
	history := []llm.Message{
		llm.TextMessage(llm.RoleUser, "write them"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{call("1", "write_file", writeOK), call("2", "write_file", writeBad), call("3", "edit_file", editOK), call("4", "write_file", small), call("5", "read_file", `{"path":"a.go"}`)}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "1", Content: "wrote a.go"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: "2", Content: "permission denied", IsError: true}),
		llm.ToolResultMessage(llm.ToolResult{CallID: "3", Content: "edited b.go"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: "4", Content: "wrote c.go"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: "5", Content: content}),
		{Role: llm.RoleAssistant, Parts: []llm.Part{call("6", "write_file", pending)}},
	}
	before, _ := json.Marshal(history)
	out, saved := CompactWrites(history)
	if after, _ := json.Marshal(history); string(after) != string(before) {
		t.Fatal("input history modified")
	}
	calls := out[1].ToolCalls()
	var a1, a3 map[string]string
	_ = json.Unmarshal([]byte(calls[0].Arguments), &a1)
	_ = json.Unmarshal([]byte(calls[2].Arguments), &a3)
	if a1["path"] != "a.go" || a1["content"] != payloadStub(len(content)) {
		t.Errorf("applied write not compacted: %v", a1)
	}
	if a3["old_string"] != payloadStub(len(content)) || a3["new_string"] != payloadStub(len(content)+5) {
		t.Errorf("applied edit not compacted: %v", a3)
	}
	if calls[1].Arguments != writeBad || calls[3].Arguments != small || calls[4].Arguments != `{"path":"a.go"}` {
		t.Error("failed, small or read call changed")
	}
	if out[7].ToolCalls()[0].Arguments != pending {
		t.Error("call without a result changed")
	}
	// Saving measured, full content reachable: the read result (the file
	// as written) is untouched, and the stub says to re-read.
	if saved != HistoryBytes(history)-HistoryBytes(out) || saved < 3*len(content)-600 {
		t.Errorf("saved %d", saved)
	}
	if out[6].ToolResults()[0].Content != content || !strings.Contains(a1["content"], "read the file") {
		t.Error("content not reachable")
	}
	if _, log := Repair(out); len(log) != 1 { // only the pending call 6
		t.Errorf("compaction broke the invariant: %v", log)
	}
}

func TestEstimator(t *testing.T) {
	var e Estimator
	if e.Tokens(4000) != 1000 || e.Tokens(4001) != 1001 || e.Tokens(0) != 0 {
		t.Errorf("uncalibrated: %d %d", e.Tokens(4000), e.Tokens(4001))
	}
	e.Calibrate(3000, 1000) // 3 bytes/token
	if e.BytesPerToken() != 3 || e.Tokens(3000) != 1000 || e.Bytes(1000) != 3000 {
		t.Errorf("calibrated ratio %v", e.BytesPerToken())
	}
	e.Calibrate(5000, 1000) // averages to 4
	e.Calibrate(0, 10)      // ignored
	if e.BytesPerToken() != 4 {
		t.Errorf("ratio %v, want 4", e.BytesPerToken())
	}
}

func TestStatsReport(t *testing.T) {
	var s Stats
	s.Add(LeverCap, 10240)
	s.Add(LeverReadCache, 2048)
	s.Add(LeverReadCache, 2048)
	var e Estimator
	r := s.Report(&e)
	for _, want := range []string{"result cap", "1x", "10.0 KB", "~2.6K tokens", "read cache", "2x", "4.0 KB", "total saved", "14.0 KB"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "pruning") {
		t.Error("report lists a lever that never acted")
	}
}

func TestBiggest(t *testing.T) {
	msgs := session(3, 2000)
	got := Biggest(msgs, 2)
	if len(got) != 2 || got[0].Bytes < got[1].Bytes || !strings.HasPrefix(got[0].Label, "tool result read_file (call_") {
		t.Fatalf("biggest = %+v", got)
	}
	all := Biggest(msgs, -1)
	sum := 0
	for _, it := range all {
		sum += it.Bytes
	}
	if sum != HistoryBytes(msgs) {
		t.Errorf("items sum to %d, history is %d bytes", sum, HistoryBytes(msgs))
	}
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// leverRun runs one scripted session over the real core tools on a temp
// workspace holding big.txt (50 KB of numbered lines) and small.txt (1 KB), with
// the session directory as an extra read root.
func leverRun(t *testing.T, opts Options, turns ...[]llm.Event) (*Agent, *scripted, string) {
	t.Helper()
	root, sess := t.TempDir(), t.TempDir()
	var big strings.Builder
	for i := 0; big.Len() < 50_000; i++ {
		fmt.Fprintf(&big, "line %05d of the big file\n", i)
	}
	must(t, os.WriteFile(filepath.Join(root, "big.txt"), []byte(big.String()), 0o644))
	small := "alpha\nbeta\n" + strings.Repeat("a line long enough to be worth a stub\n", 30)
	must(t, os.WriteFile(filepath.Join(root, "small.txt"), []byte(small), 0o644))
	ws, err := workspace.New(root, sess)
	must(t, err)
	p := &scripted{turns: append(turns, []llm.Event{text("done"), finish()})}
	opts.Provider, opts.Model, opts.SessionDir = p, "m", sess
	opts.Tools = tools.NewRegistry(tools.Core(ws, tools.Options{})...)
	opts.Gate = GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	a := New(opts)
	if res := a.Run(context.Background(), "go"); res.StopReason != event.StopCompleted {
		t.Fatalf("run: %+v", res)
	}
	return a, p, sess
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// results returns the tool results of the last request by call id.
func results(p *scripted) map[string]llm.ToolResult {
	out := map[string]llm.ToolResult{}
	for _, m := range p.reqs[len(p.reqs)-1].Messages {
		for _, r := range m.ToolResults() {
			out[r.CallID] = r
		}
	}
	return out
}

func turn(calls ...llm.Event) []llm.Event { return append(calls, finish()) }

func TestResultCapSpillsReadably(t *testing.T) {
	a, p, sess := leverRun(t, Options{}, turn(call(0, "r1", "bash", `{"command":"cat big.txt"}`)))
	r := results(p)["r1"]
	if len(r.Content) > contextmgr.DefaultMaxToolOutput {
		t.Fatalf("result of %d bytes sent, cap %d", len(r.Content), contextmgr.DefaultMaxToolOutput)
	}
	m := spillRe.FindStringSubmatch(r.Content)
	if m == nil || !strings.HasPrefix(m[1], sess) {
		t.Fatalf("marker does not name a spill file in the session dir: %q", r.Content[len(r.Content)-200:])
	}
	// The model can fetch the rest with read_file on the marker's path.
	rf, _ := a.opts.Tools.Get("read_file")
	got, err := rf.Run(context.Background(), json.RawMessage(fmt.Sprintf(`{"path":%q,"offset":1000,"limit":2}`, m[1])))
	if err != nil || got.IsError || !strings.Contains(got.Content, "line 00") {
		t.Fatalf("read_file on the spill file: %v %q", err, got.Content)
	}
	if rep := a.ContextReport(); rep.SavedBytes < 40_000 {
		t.Fatalf("cap saving not counted: %+v", rep)
	}
	// Configured cap.
	_, p2, _ := leverRun(t, Options{MaxToolOutput: 1024}, turn(call(0, "r1", "bash", `{"command":"cat big.txt"}`)))
	if n := len(results(p2)["r1"].Content); n > 1024 {
		t.Fatalf("MaxToolOutput 1024 sent %d bytes", n)
	}
}

func TestTurnBudgetSharesCaps(t *testing.T) {
	var calls []llm.Event
	for i := 0; i < 10; i++ {
		calls = append(calls, call(i, fmt.Sprint("r", i), "read_file", fmt.Sprintf(`{"path":"big.txt","offset":%d,"limit":180}`, 1+i*180)))
	}
	_, p, _ := leverRun(t, Options{MaxTurnOutput: 8 * 1024}, turn(calls...))
	total := 0
	for _, r := range results(p) {
		total += len(r.Content)
		if !readCutTestRe.MatchString(r.Content) {
			t.Fatalf("cut read without a line-range marker: %.100q", r.Content)
		}
	}
	if total > 8*1024+10*contextmgr.MinResultCap {
		t.Fatalf("turn sent %d bytes, budget 8 KB", total)
	}
}

func TestReadCacheStubsAndInvalidation(t *testing.T) {
	read := func(id string) llm.Event { return call(0, id, "read_file", `{"path":"small.txt"}`) }
	// A list_dir between two reads keeps stuck detection (same call, same
	// result twice in a row) out of the way.
	list := func(id string) llm.Event { return call(0, id, "list_dir", `{"path":"."}`) }
	_, p, _ := leverRun(t, Options{},
		turn(read("a")),
		turn(list("l1")),
		turn(read("b")), // unchanged: stub
		turn(call(0, "w", "edit_file", `{"path":"small.txt","old_string":"beta","new_string":"gamma"}`)),
		turn(read("c")), // edited: full
		turn(list("l2")),
		turn(read("d")), // unchanged again: stub
		turn(call(0, "s", "bash", `{"command":"true"}`)),
		turn(read("e")), // after any shell command: full
	)
	rs := results(p)
	for id, stub := range map[string]bool{"a": false, "b": true, "c": false, "d": true, "e": false} {
		got := stubRe.MatchString(rs[id].Content)
		if got != stub {
			t.Fatalf("read %s: stub %v, want %v: %q", id, got, stub, rs[id].Content)
		}
	}
	if !strings.Contains(rs["c"].Content, "gamma") {
		t.Fatalf("edited file read stale: %q", rs["c"].Content)
	}
}

func TestWriteCompaction(t *testing.T) {
	payload := strings.Repeat("package x // generated\n", 40)
	good, _ := json.Marshal(map[string]string{"path": "new.go", "content": payload})
	bad, _ := json.Marshal(map[string]string{"path": "small.txt", "old_string": "no such text " + payload, "new_string": "x"})
	a, p, _ := leverRun(t, Options{},
		turn(call(0, "w1", "write_file", string(good))),
		turn(call(0, "e1", "edit_file", string(bad))),
	)
	for _, m := range p.reqs[len(p.reqs)-1].Messages {
		for _, c := range m.ToolCalls() {
			has := strings.Contains(c.Arguments, "generated")
			if c.ID == "w1" && has {
				t.Fatal("applied write payload still sent")
			}
			if c.ID == "e1" && !has {
				t.Fatal("failed edit lost its payload (the model needs it to retry)")
			}
		}
	}
	rep := a.ContextReport()
	found := false
	for _, l := range rep.Levers {
		found = found || (l.Lever == contextmgr.LeverWrites && l.Bytes > len(payload)/2)
	}
	if !found {
		t.Fatalf("write compaction not reported: %+v", rep.Levers)
	}
}

func TestLeversOffSendsEverything(t *testing.T) {
	_, p, _ := leverRun(t, Options{DisableLevers: true}, turn(call(0, "r1", "read_file", `{"path":"big.txt"}`)))
	if n := len(results(p)["r1"].Content); n < 50_000 {
		t.Fatalf("levers off still cut the result to %d bytes", n)
	}
}

func TestUsageCalibratesEstimate(t *testing.T) {
	// The server reports 2 bytes per token: the estimate doubles and the
	// proactive compaction starts earlier than 4 bytes per token implies.
	hist := oldTurns(6, 3000) // ~18 KB
	bytes := 0
	p := &scripted{}
	a := New(Options{Provider: p, Model: "m", History: hist, ContextWindow: 12_000,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	bytes = a.historyRequestBytes(a.history)
	p.turns = [][]llm.Event{
		{call(0, "x", "read_file", `{"path":"y"}`), usage(bytes/2, 1), finish()},
		{text("done"), finish()},
	}
	rec := &recorder{}
	a.opts.Sink = rec
	if res := a.Run(context.Background(), "go"); res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	rep := a.ContextReport()
	if !rep.Calibrated || rep.BytesPerToken > 2.5 || rep.LastInputTokens != bytes/2 {
		t.Fatalf("not calibrated: %+v", rep)
	}
	// ~18 KB at 4 B/token is ~4.6K tokens (under 2/3 of 12K): no
	// compaction before the first request; at ~2 B/token it is over.
	if len(p.reqs[0].Messages) != len(hist)+1 {
		t.Fatal("compacted before any usage report")
	}
	if rep.Compactions != 1 || !strings.Contains(rec.texts(event.Warning), "context compacted") {
		t.Fatalf("calibrated estimate did not trigger compaction: %+v", rep)
	}
}

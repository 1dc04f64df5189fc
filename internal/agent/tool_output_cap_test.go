package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// codeFile writes a file of n numbered lines of about width bytes each
// into dir and returns its name.
func codeFile(t *testing.T, dir, name string, n, width int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("func f%04d() int { return %d } //", i, i)
		b.WriteString(line + strings.Repeat("x", max(0, width-len(line)-1)) + "\n")
	}
	must(t, os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644))
	return name
}

// readTools returns the core tools over a temp workspace holding a
// 300-line file of 22 KB (mid.go) and a 5000-line file (huge.go).
func readTools(t *testing.T) (*tools.Registry, string, string) {
	root, sess := t.TempDir(), t.TempDir()
	codeFile(t, root, "mid.go", 300, 74)
	codeFile(t, root, "huge.go", 5000, 40)
	ws, err := workspace.New(root, sess)
	must(t, err)
	return tools.NewRegistry(tools.Core(ws, tools.Options{})...), root, sess
}

// TestReadCapNamesTheOmittedLines: a capped read_file result names the
// exact omitted line range and the read_file call that fetches it; the
// tool's "offset=2001" footer is rewritten so it no longer skips the cut
// middle; the cap follows the window unless max_tool_output is set.
func TestReadCapNamesTheOmittedLines(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		window  int // tokens; 0 unknown
		maxOut  int
		wantCap int
		footer  bool // the tool stopped early (offset=2001)
	}{
		{"300 lines, unknown window", "mid.go", 0, 0, contextmgr.DefaultMaxToolOutput, false},
		{"300 lines, 16K window", "mid.go", 16384, 0, 4096, false},
		{"300 lines, 64K window", "mid.go", 65536, 0, contextmgr.ToolOutputCap(65536, 0), false},
		{"300 lines, 128K window", "mid.go", 131072, 0, 16384, false},
		{"300 lines, configured cap wins", "mid.go", 131072, 2048, 2048, false},
		{"5000 lines", "huge.go", 8192, 0, 4096, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg, _, _ := readTools(t)
			rf, _ := reg.Get("read_file")
			args := fmt.Sprintf(`{"path":%q}`, tc.path)
			full, err := rf.Run(context.Background(), json.RawMessage(args))
			if err != nil || full.IsError {
				t.Fatal(err, full.Content)
			}
			p := &scripted{turns: [][]llm.Event{turn(call(0, "r1", "read_file", args)), {text("done"), finish()}}}
			a := New(Options{Provider: p, Model: "m", Tools: reg, ContextWindow: tc.window, MaxToolOutput: tc.maxOut,
				Gate: GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })})
			if res := a.Run(context.Background(), "read it"); res.StopReason != event.StopCompleted {
				t.Fatalf("run %+v", res)
			}
			sent := results(p)["r1"].Content
			if len(sent) > tc.wantCap || len(sent) < tc.wantCap*3/4 {
				t.Fatalf("sent %d bytes, cap %d", len(sent), tc.wantCap)
			}
			if !readCutTestRe.MatchString(sent) || strings.Contains(sent, "bytes omitted") {
				t.Fatalf("no line-range marker:\n%s", sent)
			}
			checkReadCut(t, rf, sent, full.Content)
			// Every line of the shown range is either sent as it was
			// read or inside a marker's range: nothing vanishes.
			missing := map[int]bool{}
			for _, m := range readCutTestRe.FindAllStringSubmatch(sent, -1) {
				first, _ := strconv.Atoi(m[1])
				last, _ := strconv.Atoi(m[2])
				for n := first; n <= last; n++ {
					missing[n] = true
				}
			}
			shown := 2000
			if !tc.footer {
				shown = 300
			}
			for n := 1; n <= shown; n++ {
				line := regexp.MustCompile(fmt.Sprintf(`(?m)^%5d\t.*\n`, n)).FindString(full.Content)
				if in := strings.Contains(sent, line); in == missing[n] {
					t.Fatalf("line %d: sent %v, in a marker %v", n, in, missing[n])
				}
			}
			if tc.footer {
				if strings.Contains(sent, "offset=2001 to read more") || !strings.Contains(sent, "after the omitted range, continue with read_file offset=2001") {
					t.Fatalf("footer contradicts the marker:\n%s", sent[len(sent)-400:])
				}
			}
		})
	}
}

// TestOverflowCompactionRecapsHugeResult: one huge recent read result
// against a 4K window (a 3 KB system prompt, tokens of 2 bytes as on a real
// llama.cpp server): the first request fits, the one carrying the 4 KB
// result overflows, and the overflow compaction cuts that result harder
// instead of giving up ("cannot shrink"); the retry fits.
func TestOverflowCompactionRecapsHugeResult(t *testing.T) {
	reg, _, _ := readTools(t)
	s := newSmallServer(t, 4096)
	s.perToken = 2 // as dense as the real server's tokens were
	s.main.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"mid.go"}`)),
		llmtest.Reply(llmtest.Text("f0150 returns 150.")),
	)
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, Tools: reg, ContextWindow: 4096, RetryBase: 1,
		System: strings.Repeat("You are a coding agent. Read files before you edit them; answer briefly.\n", 40)})
	res := a.Run(context.Background(), "What does f0150 return?")
	if res.StopReason != event.StopCompleted {
		t.Fatalf("stop %s: %v (overflows %d)", res.StopReason, res.Err, s.overflows)
	}
	var sent string
	for _, m := range a.History() {
		for _, r := range m.ToolResults() {
			sent = r.Content
		}
	}
	rf, _ := reg.Get("read_file")
	full, _ := rf.Run(context.Background(), json.RawMessage(`{"path":"mid.go"}`))
	if !readCutTestRe.MatchString(sent) || len(sent) >= contextmgr.DefaultMaxToolOutput {
		t.Fatalf("result not cut harder (%d bytes):\n%s", len(sent), sent)
	}
	checkReadCut(t, rf, sent, full.Content)
	if !strings.Contains(rec.texts(event.Warning), "cut 1 recent tool result(s) shorter") {
		t.Fatalf("warnings: %s (overflows %d, events %v, sent %d, served %v)", rec.texts(event.Warning), s.overflows, rec.types(), len(sent), s.served)
	}
}

// TestRawBytesOfTruncatedOutput: a tool that kept only part of its output
// reports RawBytes; the event and the marker count the bytes it dropped.
func TestRawBytesOfTruncatedOutput(t *testing.T) {
	const raw = 38_888_896 // seq 1 5000000
	head, tail := strings.Repeat("1\n", 1<<18), strings.Repeat("5\n", 1<<18)
	content := head + "[... bytes omitted by the tool ...]\n" + tail
	tool := &fakeTool{name: "bash", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: content, RawBytes: raw}, nil
	}}
	p := &scripted{turns: [][]llm.Event{turn(call(0, "b1", "bash", `{"command":"seq 1 5000000"}`)), {text("ok"), finish()}}}
	rec := &recorder{}
	New(Options{Provider: p, Model: "m", Sink: rec, Tools: tools.NewRegistry(tool), SessionDir: t.TempDir()}).Run(context.Background(), "go")
	var out *event.ToolOutcome
	for _, e := range rec.evs {
		if e.Type == event.ToolResult {
			out = e.Result
		}
	}
	if out == nil || out.RawBytes != raw || out.KeptBytes != len(out.Content) {
		t.Fatalf("outcome %+v", out)
	}
	m := regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted; full output in `).FindStringSubmatch(out.Content)
	if m == nil {
		t.Fatalf("no marker: %.300q", out.Content)
	}
	omitted, _ := strconv.Atoi(m[1])
	marker := out.Content[strings.Index(out.Content, "[... "):]
	marker = marker[:strings.IndexByte(marker, '\n')+1]
	keptText := len(out.Content) - len(marker)
	if d := raw - keptText - omitted; d < 0 || d > 1 { // at most the newline joinCut adds
		t.Fatalf("omitted %d, raw %d, kept %d", omitted, raw, keptText)
	}
}

// TestRawBytesFromBash: RawBytes through the real bash tool: its own
// head+tail cut is counted.
func TestRawBytesFromBash(t *testing.T) {
	root, sess := t.TempDir(), t.TempDir()
	ws, err := workspace.New(root, sess)
	must(t, err)
	reg := tools.NewRegistry(tools.Core(ws, tools.Options{BashOutputCap: 64 << 10})...)
	p := &scripted{turns: [][]llm.Event{turn(call(0, "b1", "bash", `{"command":"seq 1 100000"}`)), {text("ok"), finish()}}}
	rec := &recorder{}
	New(Options{Provider: p, Model: "m", Sink: rec, Tools: reg, SessionDir: sess,
		Gate: GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })}).Run(context.Background(), "go")
	const raw = 588895 // bytes of `seq 1 100000`
	for _, e := range rec.evs {
		if e.Type != event.ToolResult {
			continue
		}
		if e.Result.RawBytes != raw {
			t.Fatalf("RawBytes %d, want %d", e.Result.RawBytes, raw)
		}
		m := regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted; full output in `).FindStringSubmatch(e.Result.Content)
		if m == nil {
			t.Fatalf("no marker: %.200q", e.Result.Content)
		}
		if n, _ := strconv.Atoi(m[1]); n < raw-contextmgr.DefaultMaxToolOutput || n > raw {
			t.Fatalf("marker says %d bytes omitted of %d", n, raw)
		}
		return
	}
	t.Fatal("no tool result")
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// The trajectory: a realistic scripted session over a copy of the Go
// distribution's encoding/csv package (reading, grepping, editing, running
// go test through the real bash tool), replayed through the loop with the
// context levers off and on. It proves item 9 of issue 6: the bytes sent
// to the model per turn and in total, and that nothing is lost.

// setupCSV copies GOROOT/src/encoding/csv into a fresh module under dir,
// rewriting its import path so its external tests test the copy.
func setupCSV(tb testing.TB, dir string) {
	tb.Helper()
	src := filepath.Join(runtime.GOROOT(), "src", "encoding", "csv")
	ents, err := os.ReadDir(src)
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), `"encoding/csv"`, `"zero.test/csv"`))
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	mod := "module zero.test/csv\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// rawTool wraps a real tool and records every full result by call id, so
// the test can check that what the model was not sent is still reachable.
type rawTool struct {
	tools.Tool
	mu   *sync.Mutex
	seen map[string][]string // full results by call arguments, in run order
}

func (r rawTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	res, err := r.Tool.Run(ctx, args)
	r.mu.Lock()
	key := r.Name() + string(args)
	r.seen[key] = append(r.seen[key], res.Content)
	r.mu.Unlock()
	return res, err
}

// trajectoryTurns scripts the session: one tool-calling turn per step.
func trajectoryTurns() [][]llm.Event {
	type c struct{ name, args string }
	read := func(p string) c { return c{"read_file", fmt.Sprintf(`{"path":%q}`, p)} }
	readAt := func(p string, off, lim int) c {
		return c{"read_file", fmt.Sprintf(`{"path":%q,"offset":%d,"limit":%d}`, p, off, lim)}
	}
	grep := func(pat string) c { return c{"grep", fmt.Sprintf(`{"pattern":%q}`, pat)} }
	bash := func(cmd string) c { return c{"bash", fmt.Sprintf(`{"command":%q}`, cmd)} }
	edit := func(p, old, new string) c {
		b, _ := json.Marshal(map[string]string{"path": p, "old_string": old, "new_string": new})
		return c{"edit_file", string(b)}
	}
	notes := strings.Repeat("- csv reader: fields, quotes, LazyQuotes, FieldsPerRecord, ReuseRecord, TrimLeadingSpace.\n", 40)
	write := c{"write_file", fmt.Sprintf(`{"path":"NOTES.md","content":%q}`, notes)}
	editParse := edit("reader.go", "// A ParseError is returned for parsing errors.", "// A ParseError is returned for parsing errors.\n// It records where the error happened.")
	editFlush := edit("writer.go", "// Flush writes any buffered data", "// Flush writes any buffered data (see Error)")
	steps := [][]c{
		{{"list_dir", `{"path":"."}`}},
		{{"glob", `{"pattern":"**/*.go"}`}},
		{read("reader.go")},
		{read("writer.go"), read("writer_test.go")},
		{grep(`func \(r \*Reader\)`)},
		{read("reader_test.go")},
		{grep("LazyQuotes")},
		{readAt("reader.go", 100, 80)},
		{read("reader.go")},
		{read("reader_test.go")},
		{bash("go test ./... 2>&1")},
		{editParse},
		{bash("go test -v -count=1 ./... 2>&1")},
		{readAt("reader.go", 150, 60)},
		{grep("ErrFieldCount")},
		{read("writer_test.go")},
		{read("writer.go")},
		{write},
		{read("writer.go")},
		{read("writer_test.go")},
		{bash("go vet ./... 2>&1 && echo vet ok")},
		{read("example_test.go"), read("fuzz_test.go")},
		{grep("func Test")},
		{read("reader_test.go")},
		{bash("go test -run 'TestRead' -v -count=1 ./... 2>&1")},
		{editFlush},
		{read("writer.go")},
		{grep("quote")},
		{read("writer.go")},
		{readAt("reader.go", 1, 60)},
		{bash("cat reader.go")},
		{bash("go test -count=1 ./... 2>&1")},
		{bash("git diff --stat 2>&1 || echo no git")},
	}
	var turns [][]llm.Event
	for i, st := range steps {
		var evs []llm.Event
		for k, cl := range st {
			evs = append(evs, call(k, fmt.Sprintf("t%02d_%d", i, k), cl.name, cl.args))
		}
		turns = append(turns, append(evs, usage(0, 0), finish()))
	}
	return append(turns, []llm.Event{text("Documented ParseError and Flush; go test and go vet pass."), finish()})
}

// trajectory is one replay's measurements.
type trajectory struct {
	perTurn    []int // bytes of each request
	total      int
	res        Result
	agent      *Agent
	raw        map[string][]string // full tool results by tool and arguments
	sessionDir string
	ws         *workspace.Workspace
}

// requestSize is the bytes of one request as sent: system prompt, tool
// schemas and the JSON of the messages.
func requestSize(req llm.Request) int {
	msgs, _ := json.Marshal(req.Messages)
	specs, _ := json.Marshal(req.Tools)
	return len(req.System) + len(specs) + len(msgs)
}

// runTrajectory replays the session with the levers on or off.
func runTrajectory(tb testing.TB, levers bool) trajectory {
	tb.Helper()
	root, sess := tb.TempDir(), tb.TempDir()
	setupCSV(tb, root)
	ws, err := workspace.New(root, sess)
	if err != nil {
		tb.Fatal(err)
	}
	tr := trajectory{sessionDir: sess, ws: ws, raw: map[string][]string{}}
	var mu sync.Mutex
	reg := tools.NewRegistry()
	for _, t := range tools.Core(ws, tools.Options{}) {
		reg.Add(rawTool{Tool: t, mu: &mu, seen: tr.raw})
	}
	p := &scripted{turns: trajectoryTurns()}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	tr.agent = New(Options{
		Provider: p, Model: "m", Tools: reg, Gate: allow,
		System:        SystemPrompt(root, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), ""),
		DisableLevers: !levers, SessionDir: sess,
	})
	tr.res = tr.agent.Run(context.Background(), "Document ParseError and Writer.Flush in encoding/csv, keep the tests green.")
	for _, r := range p.reqs {
		n := requestSize(r)
		tr.perTurn = append(tr.perTurn, n)
		tr.total += n
	}
	return tr
}

var spillRe = regexp.MustCompile(`full output in (\S+), read it with read_file`)

// readCutTestRe matches contextmgr.ReadMarker: range, path, offset, limit.
var readCutTestRe = regexp.MustCompile(`\[\.\.\. lines (\d+)-(\d+) omitted \([^)]*\): read them (?:in parts, starting )?with read_file path="([^"]+)" offset=(\d+) limit=(\d+) \.\.\.\]`)

// checkReadCut asserts that every line-range marker in a cut read_file
// result names lines missing from sent and that the read_file call it
// names returns those lines: exactly as in the full result raw, unless raw
// is "" (the file changed since).
func checkReadCut(t testing.TB, rf tools.Tool, sent, raw string) {
	t.Helper()
	for _, m := range readCutTestRe.FindAllStringSubmatch(sent, -1) {
		first, _ := strconv.Atoi(m[1])
		last, _ := strconv.Atoi(m[2])
		off, _ := strconv.Atoi(m[4])
		limit, _ := strconv.Atoi(m[5])
		if off != first || limit < 1 || limit > last-first+1 {
			t.Fatalf("marker %q: call does not start the range", m[0])
		}
		for _, n := range []int{first, last} {
			line := fmt.Sprintf("%5d\t", n)
			if strings.Contains(sent, "\n"+line) || strings.HasPrefix(sent, line) {
				t.Fatalf("marker %q: line %d was sent", m[0], n)
			}
		}
		args, _ := json.Marshal(map[string]any{"path": m[3], "offset": off, "limit": limit})
		got, err := rf.Run(context.Background(), args)
		if err != nil || got.IsError {
			t.Fatalf("marker %q: read_file failed: %v %s", m[0], err, got.Content)
		}
		for n := off; n < off+limit; n++ {
			want := fmt.Sprintf("%5d\t", n)
			if raw == "" {
				if !strings.HasPrefix(got.Content, want) && !strings.Contains(got.Content, "\n"+want) {
					t.Fatalf("marker %q: line %d not fetched", m[0], n)
				}
				continue
			}
			i := strings.Index(raw, want)
			if i < 0 || !strings.Contains(got.Content, raw[i:i+strings.IndexByte(raw[i:], '\n')+1]) {
				t.Fatalf("marker %q: line %d not fetched as in the full result", m[0], n)
			}
		}
	}
}

var stubRe = regexp.MustCompile(`^\[(\S+?)( \(.*\))? unchanged since turn \d+, see the earlier result\]$`)

func TestTrajectorySavesBytesWithoutLoss(t *testing.T) {
	off, on := runTrajectory(t, false), runTrajectory(t, true)
	for _, tr := range []trajectory{off, on} {
		if tr.res.StopReason != event.StopCompleted {
			t.Fatalf("trajectory did not complete: %+v", tr.res)
		}
	}
	if len(on.perTurn) < 30 || len(on.perTurn) != len(off.perTurn) {
		t.Fatalf("turns: on %d, off %d", len(on.perTurn), len(off.perTurn))
	}
	saving := 100 * float64(off.total-on.total) / float64(off.total)
	t.Logf("bytes sent: levers off %d, on %d, saving %.1f%%", off.total, on.total, saving)
	if saving < 60 {
		t.Fatalf("levers saved %.1f%% of the bytes sent, want at least 60%%", saving)
	}
	// No information lost: every tool result the model got in the "on"
	// run is either the full output, a cut whose spill file holds the
	// full output (readable with read_file), or a read-cache stub for an
	// earlier result of the same read still in the history.
	var results []llm.ToolResult
	var calls = map[string]llm.ToolCall{}
	for _, m := range on.agent.History() {
		results = append(results, m.ToolResults()...)
		for _, c := range m.ToolCalls() {
			calls[c.ID] = c
		}
	}
	// Match each result to its full output: runs with the same arguments
	// happen in turn order (parallel reads differ in arguments).
	// (The history's write calls lost their payload: use the script's.)
	scripted := map[string]*llm.ToolCall{}
	for _, turn := range trajectoryTurns() {
		for _, e := range turn {
			if e.ToolCall != nil {
				scripted[e.ToolCall.ID] = e.ToolCall
			}
		}
	}
	rawOf := make([]string, len(results))
	for i, r := range results {
		c := scripted[r.CallID]
		key := c.Name + c.Arguments
		q := on.raw[key]
		if len(q) == 0 {
			t.Fatalf("result %s has no tool run", r.CallID)
		}
		rawOf[i], on.raw[key] = q[0], q[1:]
	}
	read := tools.NewRegistry(tools.Core(on.ws, tools.Options{})...)
	rf, _ := read.Get("read_file")
	kinds := map[string]int{}
	for i, r := range results {
		raw := rawOf[i]
		switch {
		case r.Content == raw:
			kinds["full"]++
		case spillRe.MatchString(r.Content):
			kinds["spilled"]++
			path := spillRe.FindStringSubmatch(r.Content)[1]
			b, err := os.ReadFile(path)
			if err != nil || string(b) != raw {
				t.Fatalf("result %s: spill file %s does not hold the full output (%v)", r.CallID, path, err)
			}
			if !strings.HasPrefix(path, on.sessionDir) {
				t.Fatalf("spill %s outside the session dir %s", path, on.sessionDir)
			}
			args, _ := json.Marshal(map[string]any{"path": path, "offset": 1, "limit": 3})
			got, err := rf.Run(context.Background(), args)
			if err != nil || got.IsError {
				t.Fatalf("read_file cannot open the spill file %s: %v %s", path, err, got.Content)
			}
		case readCutTestRe.MatchString(r.Content):
			kinds["lines"]++
			// Later edits renumber the files, so only the ranges are
			// checked here; TestReadCapNamesTheOmittedLines checks text.
			checkReadCut(t, rf, r.Content, "")
		case stubRe.MatchString(r.Content):
			kinds["stub"]++
			found := false
			for j := i - 1; j >= 0 && !found; j-- {
				if calls[results[j].CallID].Arguments == calls[r.CallID].Arguments && rawOf[j] == raw && results[j].Content != r.Content {
					found = true
				}
			}
			if !found {
				t.Fatalf("stub %q has no earlier identical read in the history", r.Content)
			}
		default:
			t.Fatalf("result %s lost information: sent %d of %d bytes with no way to fetch the rest:\n%s", r.CallID, len(r.Content), len(raw), r.Content)
		}
	}
	if kinds["spilled"] == 0 || kinds["stub"] == 0 {
		t.Fatalf("levers did not act: %v", kinds)
	}
	// Applied write payloads left the history, the file holds them.
	for _, m := range on.agent.History() {
		for _, c := range m.ToolCalls() {
			if c.Name == "write_file" && strings.Contains(c.Arguments, "FieldsPerRecord, ReuseRecord") {
				t.Fatalf("applied write payload still in the history: %.80s", c.Arguments)
			}
		}
	}
	rep := on.agent.ContextReport()
	if rep.SavedBytes <= 0 || len(rep.Levers) < 4 {
		t.Fatalf("report: %+v", rep)
	}
	t.Logf("kinds %v\n%s", kinds, rep)
	// Resume: the savings are recounted from the markers in the history
	// (a cut result's full size is its kept bytes plus the omitted count,
	// so the recount is close, not exact).
	resumed := New(Options{History: on.agent.History()}).ContextReport()
	if len(resumed.Levers) < 3 || resumed.SavedBytes < rep.SavedBytes*9/10 || resumed.SavedBytes > rep.SavedBytes*11/10 {
		t.Fatalf("resumed savings %d (%v), session had %d", resumed.SavedBytes, resumed.Levers, rep.SavedBytes)
	}
	for _, l := range resumed.Levers {
		for _, o := range rep.Levers {
			if o.Lever == l.Lever && l.Lever == contextmgr.LeverReadCache && (o.Times != l.Times || 20*abs(o.Bytes-l.Bytes) > o.Bytes) {
				t.Fatalf("read cache recount %+v, session %+v", l, o)
			}
		}
	}
}

// BenchmarkTrajectory replays the 32-step session with the levers off and
// on and reports the bytes sent to the model in total (bytes_off,
// bytes_on) and the saving. Run:
//
//	go test -run '^$' -bench BenchmarkTrajectory -benchtime 1x ./internal/agent
func BenchmarkTrajectory(b *testing.B) {
	var off, on trajectory
	for i := 0; i < b.N; i++ {
		off, on = runTrajectory(b, false), runTrajectory(b, true)
	}
	for i := range on.perTurn {
		b.Logf("turn %2d: off %7d  on %6d bytes", i+1, off.perTurn[i], on.perTurn[i])
	}
	b.ReportMetric(float64(off.total), "bytes_off")
	b.ReportMetric(float64(on.total), "bytes_on")
	b.ReportMetric(100*float64(off.total-on.total)/float64(off.total), "saving_pct")
}

func abs(x int) int { return max(x, -x) }

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sessions"
)

// Fault injection through the real binary: kill -9 at points of a run
// (this file), a model server that fails in every documented way
// (faults_model_test.go), MCP servers and hooks that hang or crash
// (faults_ext_test.go). Every fault is counted; a run counts as recovered
// when it, or `zero exec --resume` after it, reaches its final answer.
// The kill points are drawn from a seeded generator: FAULT_SEED=N repeats
// a run's draw (the seed is printed with the summary and on failure).

// faultTally counts faults injected and recovered across the subtests.
type faultTally struct {
	mu                  sync.Mutex
	injected, recovered int
	lost                int // bytes a run reported done that a reload lost
}

func (f *faultTally) add(recovered bool, lost int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.injected++
	if recovered {
		f.recovered++
	}
	f.lost += lost
}

func faultSeed(t *testing.T) uint64 {
	if v := os.Getenv("FAULT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("FAULT_SEED=%q: %v", v, err)
		}
		return n
	}
	return 20261202
}

func TestZeroRecoversFromInjectedFaults(t *testing.T) {
	seed := faultSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var tally faultTally
	t.Run("KillNineMidRun", func(t *testing.T) { killNineFaults(t, rng, &tally) })
	t.Run("ModelServerFaults", func(t *testing.T) { modelServerFaults(t, &tally) })
	t.Run("HangingAndCrashingExtensions", func(t *testing.T) { extensionFaults(t, &tally) })
	summary := fmt.Sprintf("faults: %d injected, %d runs recovered, %d bytes lost (FAULT_SEED=%d)", tally.injected, tally.recovered, tally.lost, seed)
	t.Log(summary)
	if t.Failed() || tally.recovered != tally.injected || tally.lost != 0 {
		t.Errorf("%s", summary)
	}
}

// proc is a running zero whose stdout lines are collected as they come.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []string
	stderr bytes.Buffer
	done   chan struct{}
}

func (e *env) start(dir string, args ...string) *proc {
	e.t.Helper()
	p := &proc{cmd: exec.Command(zeroBin, args...), done: make(chan struct{})}
	p.cmd.Dir, p.cmd.Env = dir, e.vars
	p.cmd.Stderr = &p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
		p.cmd.Wait()
		close(p.done)
	}()
	e.t.Cleanup(p.kill)
	return p
}

// events returns the stream-json events read so far.
func (p *proc) events() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, l := range p.lines {
		var ev map[string]any
		if json.Unmarshal([]byte(l), &ev) == nil {
			out = append(out, ev)
		}
	}
	return out
}

// kill sends SIGKILL to zero, then to what it started (a tool's process
// group of its own is left to the sandbox's die-with-parent), and waits.
func (p *proc) kill() {
	syscall.Kill(p.cmd.Process.Pid, syscall.SIGKILL)
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// waitUntil polls cond until it holds; false when zero exited first or
// the generous deadline passed.
func (p *proc) waitUntil(cond func() bool) bool {
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		select {
		case <-p.done:
			return cond()
		default:
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// killPoint is where a kill -9 lands: the script of the run and the
// condition that says the run has reached the point.
type killPoint struct {
	name   string
	script []llmtest.Turn
	reach  func(p *proc, srv *llmtest.Server, dir string) bool
	window string // ZERO_CONTEXT_WINDOW
}

// reportBody is what write_file puts in report.txt: big enough that a
// torn write would show.
var reportBody = strings.Repeat("line of the report, all of which must land or none\n", 4000)

func writeReport(id string) llmtest.Step {
	args, _ := json.Marshal(map[string]string{"path": "report.txt", "content": reportBody})
	return tc(id, "write_file", string(args))
}

// killPoints are the named points plus n points "after the k-th stream
// event" of a full run, k drawn from rng (session appends happen at each).
func killPoints(rng *rand.Rand, n int) []killPoint {
	full := func() []llmtest.Turn {
		return []llmtest.Turn{
			llmtest.Reply(llmtest.Text("Reading the notes first.").Split(5), tc("k1", "read_file", `{"path":"notes.txt"}`)),
			llmtest.Reply(llmtest.Text("Writing the report.").Split(3), writeReport("k2")),
			llmtest.Reply(tc("k3", "bash", `{"command":"wc -l report.txt"}`)),
			llmtest.Reply(llmtest.Text("All done: the report is written.").Split(6)),
		}
	}
	pts := []killPoint{
		{name: "during a stream", script: []llmtest.Turn{
			llmtest.Reply(llmtest.Text("Half of this reply "), llmtest.Stall(time.Minute), llmtest.Text("never comes.")),
		}, reach: func(p *proc, _ *llmtest.Server, _ string) bool { return hasEvent(p.events(), "text") }},
		{name: "during a tool", script: []llmtest.Turn{
			llmtest.Reply(writeReport("t1")),
			llmtest.Reply(tc("t2", "bash", `{"command":"touch started; sleep 60"}`)),
		}, reach: func(_ *proc, _ *llmtest.Server, dir string) bool { return exists(filepath.Join(dir, "started")) }},
		{name: "during compaction", window: "32768", script: compactionScript(),
			reach: func(_ *proc, srv *llmtest.Server, _ string) bool {
				for _, r := range completions(srv) {
					if strings.Contains(string(r.Body), "You compress the working history") {
						return true
					}
				}
				return false
			}},
	}
	for range n {
		k := 1 + rng.IntN(14)
		pts = append(pts, killPoint{name: fmt.Sprintf("after stream event %d", k), script: full(),
			reach: func(p *proc, _ *llmtest.Server, _ string) bool { return len(p.events()) >= k }})
	}
	return pts
}

// compactionScript fills the history with assistant prose (which only a
// summary can shrink), then answers with a context overflow, so the next
// request is the summary, which stalls.
func compactionScript() []llmtest.Turn {
	var turns []llmtest.Turn
	for i := range 5 {
		prose := strings.Repeat(fmt.Sprintf("Step %d of the plan, explained at length. ", i), 80)
		turns = append(turns, llmtest.Reply(llmtest.Text(prose), tc(fmt.Sprintf("c%d", i), "bash", fmt.Sprintf(`{"command":"echo step %d"}`, i))))
	}
	overflow := `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`
	return append(turns, llmtest.Reply(llmtest.Error(400, overflow)), llmtest.Reply(llmtest.Stall(time.Minute)))
}

func hasEvent(evs []map[string]any, typ string) bool {
	for _, ev := range evs {
		if ev["type"] == typ {
			return true
		}
	}
	return false
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// killNineFaults kills zero -9 at each point, then checks the session
// reloads, the workspace holds no half-written file, and --resume
// continues with every tool result the killed run reported.
func killNineFaults(t *testing.T, rng *rand.Rand, tally *faultTally) {
	for _, pt := range killPoints(rng, 6) {
		t.Run(strings.ReplaceAll(pt.name, " ", "_"), func(t *testing.T) {
			recovered, lost := killAndResume(t, pt)
			tally.add(recovered, lost)
		})
	}
}

func killAndResume(t *testing.T, pt killPoint) (bool, int) {
	dir := t.TempDir()
	notes := strings.Repeat("notes for the report\n", 300)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(notes), 0o644)
	e := newEnv(t)
	if pt.window != "" {
		e.vars = append(e.vars, "ZERO_CONTEXT_WINDOW="+pt.window)
	}
	srv := llmtest.NewServer(t)
	srv.Script(pt.script...)
	p := e.start(dir, "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "write the report")
	if !p.waitUntil(func() bool { return pt.reach(p, srv, dir) }) {
		p.kill()
		t.Errorf("the run never reached the point (it may have ended first): %s", p.stderr.String())
		return false, 0
	}
	p.kill()
	before := p.events()

	// The session reloads.
	store := sessions.Open(e.sessionDir)
	list, err := store.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions after kill -9: %v %v", list, err)
	}
	s, err := store.Load(list[0].ID)
	if err != nil {
		t.Fatalf("load after kill -9: %v", err)
	}
	logged, _, err := s.Events()
	if err != nil {
		t.Errorf("events after kill -9: %v", err)
	}
	s.Close()

	lost := halfWritten(t, dir) + lostResults(t, before, logged)
	resumed := llmtest.NewServer(t)
	resumed.Script(llmtest.Reply(llmtest.Text("Picked up where it stopped.")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--resume="+list[0].ID, "--base-url", resumed.URL(), "--model", "m", "continue")
	evs := parseStream(t, r.stdout)
	if r.code != 0 || final(evs) != "Picked up where it stopped." {
		t.Errorf("--resume after kill -9: exit %d, final %q: %s", r.code, final(evs), r.stderr)
		return false, lost
	}
	return true, lost
}

// halfWritten returns the bytes of report.txt that are not what
// write_file was asked to write (0 when absent or whole), and fails on
// any file the run left beside the workspace's own.
func halfWritten(t *testing.T, dir string) int {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, d := range entries {
		switch d.Name() {
		case "notes.txt", "report.txt", "started":
		default:
			t.Errorf("kill -9 left %s in the workspace", d.Name())
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "report.txt"))
	if err != nil || string(got) == reportBody {
		return 0
	}
	t.Errorf("report.txt is half-written: %d of %d bytes", len(got), len(reportBody))
	return len(reportBody)
}

// lostResults returns the bytes of the tool results the killed run
// printed that the history resume rebuilds from the log does not hold.
// (The resumed request itself may shorten an old result on purpose.)
func lostResults(t *testing.T, before []map[string]any, evs []event.Event) int {
	t.Helper()
	history, _ := sessions.RebuildHistory(evs)
	kept := map[string]string{}
	for _, m := range history {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				kept[p.ToolResult.CallID] = p.ToolResult.Content
			}
		}
	}
	lost := 0
	for _, r := range toolResults(before) {
		id, _ := r["callId"].(string)
		c, _ := r["content"].(string)
		if got, ok := kept[id]; !ok || got != c {
			t.Errorf("the tool result of %s (%d bytes) shown before the kill is not in the reloaded session: %.200q", id, len(c), got)
			lost += len(c)
		}
	}
	return lost
}

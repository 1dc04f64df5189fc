package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// loopEnv is an isolated environment with its own loops folder and a
// workspace.
type loopEnv struct {
	*env
	loops, work string
	srv         *llmtest.Server
}

func newLoopEnv(t *testing.T) *loopEnv {
	e := newEnv(t)
	le := &loopEnv{env: e, loops: filepath.Join(e.home, "loops"), work: t.TempDir(), srv: llmtest.NewServer(t)}
	e.vars = append(e.vars, "ZERO_LOOPS_DIR="+le.loops)
	return le
}

// zero runs a `zero loop …` command in the workspace.
func (le *loopEnv) zero(args ...string) result {
	le.t.Helper()
	return le.run(le.work, "", append([]string{"loop"}, args...)...)
}

// runLoop runs `zero loop run NAME` against the fake model server.
func (le *loopEnv) runLoop(name string, args ...string) result {
	le.t.Helper()
	return le.zero(append([]string{"run", name, "--auto-approve", "-q", "--base-url", le.srv.URL(), "--model", "llmtest-model"}, args...)...)
}

// newLoop makes loop name from the watcher template with config as its
// loop.toml (the [run] workdir the template recorded is kept).
func (le *loopEnv) newLoop(name, config string) string {
	le.t.Helper()
	if r := le.zero("new", name, "watcher"); r.code != 0 || !strings.Contains(r.stdout, "made loop "+name) {
		le.t.Fatalf("loop new: %d %s %s", r.code, r.stdout, r.stderr)
	}
	dir := filepath.Join(le.loops, name)
	old, err := os.ReadFile(filepath.Join(dir, "loop.toml"))
	if err != nil {
		le.t.Fatal(err)
	}
	_, run, _ := strings.Cut(string(old), "[run]")
	if err := os.WriteFile(filepath.Join(dir, "loop.toml"), []byte(config+"\n[run]"+run), 0o644); err != nil {
		le.t.Fatal(err)
	}
	return dir
}

// writeCall is a scripted write_file call of content to path.
func writeCall(id, path, content string) llmtest.Turn {
	args, _ := json.Marshal(map[string]string{"path": path, "content": content})
	return llmtest.Reply(tc(id, "write_file", string(args)), llmtest.Usage(300, 20))
}

// bankRow is the turn that appends row to the loop's state.md.
func bankRow(t *testing.T, dir, row string) llmtest.Turn {
	state, err := os.ReadFile(filepath.Join(dir, "state.md"))
	if err != nil {
		t.Fatal(err)
	}
	return writeCall("w-state", filepath.Join(dir, "state.md"), string(state)+row)
}

func readTicks(t *testing.T, dir string) []map[string]any {
	data, err := os.ReadFile(filepath.Join(dir, "ticks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("tick %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

const scoreGate = `
[schedule]
heartbeat = "1h"

[[gate]]
name = "quality"
run = "cat score.json"
parse = "json:.value"
pass = ">= 0.99"

[budget]
max_wakes = 5
on_exhaust = "pause"

[stop]
when_gates_pass = true
`

func TestLoopWakeBanksStateAndMeetsItsGate(t *testing.T) {
	le := newLoopEnv(t)
	dir := le.newLoop("quality", scoreGate)
	if r := le.runLoop("quality"); r.code == 0 || !strings.Contains(r.stderr, "not armed") || !strings.Contains(r.stderr, "zero loop arm quality") {
		t.Fatalf("unarmed run: %d %s", r.code, r.stderr)
	}
	if r := le.zero("arm", "quality"); r.code != 0 || !strings.Contains(r.stdout, "quality: cat score.json → json:.value >= 0.99") {
		t.Fatalf("arm: %d %s %s", r.code, r.stdout, r.stderr)
	}
	row := "\n## Wake 1 — measured\nwrote score.json: 0.995\nNEXT ACTION: keep the score above 0.99\n"
	le.srv.Script(
		writeCall("w-score", "score.json", `{"value": 0.995}`),
		bankRow(t, dir, row),
		llmtest.Reply(llmtest.Text("Banked wake 1."), llmtest.Usage(400, 5)),
	)
	r := le.runLoop("quality")
	if r.code != 0 || !strings.Contains(r.stderr, "stopped: goal met: every gate passed after wake 1") {
		t.Fatalf("run: %d\n%s", r.code, r.stderr)
	}
	reqs := completions(le.srv)
	prompt := reqs[0].Map()["messages"].([]any)
	first := prompt[len(prompt)-1].(map[string]any)["content"].(string)
	for _, want := range []string{"wake 1 of the loop \"quality\"", "# Mission: watch and report", filepath.Join(dir, "state.md"), "NEXT ACTION:"} {
		if !strings.Contains(first, want) {
			t.Errorf("the wake's prompt lacks %q:\n%s", want, first)
		}
	}
	ticks := readTicks(t, dir)
	if len(ticks) != 3 || ticks[0]["kind"] != "arm" || ticks[1]["kind"] != "wake" || ticks[2]["kind"] != "stop" {
		t.Fatalf("ticks %v", ticks)
	}
	wake := ticks[1]
	gate := wake["gates"].([]any)[0].(map[string]any)
	if gate["value"] != "0.995" || gate["pass"] != true || wake["session"] == "" || wake["inputTokens"] != 1000.0 || wake["contract"] != nil {
		t.Fatalf("wake tick %v", wake)
	}
	if r := le.zero("tail", "quality"); r.code != 0 || strings.TrimSpace(r.stdout) != strings.TrimSpace(row) {
		t.Fatalf("tail: %d %q", r.code, r.stdout)
	}
	r = le.zero("list")
	if r.code != 0 || !strings.Contains(r.stdout, "NEXT ACTION") {
		t.Fatalf("list: %d %s", r.code, r.stdout)
	}
	line := r.stdout[strings.Index(r.stdout, "\nquality")+1:]
	for _, want := range []string{"stopped: goal met", " 1 ", " 1045 ", "keep the score above 0.99"} {
		if !strings.Contains(line, want) {
			t.Errorf("list row %q lacks %q", line, want)
		}
	}
}

func TestLoopWakeWithoutStateRowPausesAndSaysSo(t *testing.T) {
	le := newLoopEnv(t)
	dir := le.newLoop("silent", "[[gate]]\nname = \"ok\"\nrun = \"true\"\n")
	le.zero("arm", "silent")
	le.srv.Script(llmtest.Reply(llmtest.Text("I looked around."), llmtest.Usage(100, 5)))
	r := le.runLoop("silent")
	if r.code != 4 || !strings.Contains(r.stderr, "loop silent paused: contract broken: wake 1 banked no state row") {
		t.Fatalf("run: %d\n%s", r.code, r.stderr)
	}
	ticks := readTicks(t, dir)
	if last := ticks[len(ticks)-1]; last["kind"] != "pause" || !strings.Contains(last["reason"].(string), "banked no state row") {
		t.Fatalf("last tick %v", last)
	}
	// a row without a NEXT ACTION breaks the contract too
	le.srv.Script(bankRow(t, dir, "\n## Wake 2\nlooked again\n"), llmtest.Reply(llmtest.Text("done")))
	if r := le.runLoop("silent", "--once"); r.code != 4 || !strings.Contains(r.stderr, `"Wake 2" does not end with a NEXT ACTION`) {
		t.Fatalf("second run: %d\n%s", r.code, r.stderr)
	}
	if r := le.zero("list"); !strings.Contains(r.stdout, "paused: contract broken") {
		t.Fatalf("list: %s", r.stdout)
	}
}

func TestLoopWakeBudgetExhaustionPausesAndSaysSo(t *testing.T) {
	le := newLoopEnv(t)
	dir := le.newLoop("budget", "[budget]\nmax_wakes = 1\non_exhaust = \"pause\"\n[[gate]]\nname = \"ok\"\nrun = \"exit 1\"\n")
	le.zero("arm", "budget")
	le.srv.Script(bankRow(t, dir, "\n## Wake 1\ntried\nNEXT ACTION: try again\n"), llmtest.Reply(llmtest.Text("done")))
	r := le.runLoop("budget")
	if r.code != 4 || !strings.Contains(r.stderr, "loop budget paused: budget exhausted: 1 of 1 wakes used (raise [budget] max_wakes") {
		t.Fatalf("run: %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "- ok: 1 (needs == 0): FAIL") {
		t.Fatalf("the gate's result is not shown:\n%s", r.stderr)
	}
	sent := len(completions(le.srv))
	r = le.runLoop("budget")
	if r.code != 4 || !strings.Contains(r.stderr, "1 of 1 wakes used") || len(completions(le.srv)) != sent {
		t.Fatalf("a run past the budget: %d, %d requests (was %d)\n%s", r.code, len(completions(le.srv)), sent, r.stderr)
	}
}

func TestLoopRefusesGatesEditedAfterArming(t *testing.T) {
	le := newLoopEnv(t)
	dir := le.newLoop("locked", scoreGate)
	le.zero("arm", "locked")
	toml := filepath.Join(dir, "loop.toml")
	data, _ := os.ReadFile(toml)
	os.WriteFile(toml, []byte(strings.Replace(string(data), ">= 0.99", ">= 0.5", 1)), 0o644)
	r := le.runLoop("locked")
	if r.code == 0 || r.code == 4 || !strings.Contains(r.stderr, "armed gates cannot be edited without re-arming") || !strings.Contains(r.stderr, "zero loop arm locked") {
		t.Fatalf("run with edited gates: %d\n%s", r.code, r.stderr)
	}
	if n := len(completions(le.srv)); n != 0 {
		t.Fatalf("a refused run sent %d requests", n)
	}
	// a budget edit is no gate edit; a re-arm takes the new bar
	if r := le.zero("arm", "locked"); r.code != 0 || !strings.Contains(r.stdout, ">= 0.5") {
		t.Fatalf("re-arm: %d %s", r.code, r.stdout)
	}
	le.srv.Script(llmtest.Reply(llmtest.Text("nothing banked")))
	if r := le.runLoop("locked", "--once"); r.code != 4 || !strings.Contains(r.stderr, "banked no state row") {
		t.Fatalf("run after re-arm: %d\n%s", r.code, r.stderr)
	}
}

func TestLoopNewRefusesBadNamesTemplatesAndExistingLoops(t *testing.T) {
	le := newLoopEnv(t)
	if r := le.zero("new", "../escape"); r.code != 2 || !strings.Contains(r.stderr, "use letters, digits") {
		t.Fatalf("bad name: %d %s", r.code, r.stderr)
	}
	if r := le.zero("new", "x", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, "templates: perf-attack, babysitter, watcher") {
		t.Fatalf("bad template: %d %s", r.code, r.stderr)
	}
	if r := le.zero("new", "x"); r.code != 0 {
		t.Fatalf("new: %d %s", r.code, r.stderr)
	}
	spec := filepath.Join(le.loops, "x", "spec.md")
	os.WriteFile(spec, []byte("my mission"), 0o644)
	if r := le.zero("new", "x", "watcher"); r.code != 2 || !strings.Contains(r.stderr, "exists already") {
		t.Fatalf("existing: %d %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(spec); string(b) != "my mission" {
		t.Fatalf("spec.md overwritten: %q", b)
	}
	if r := le.zero("list"); r.code != 0 || !strings.Contains(r.stdout, "new (not armed)") {
		t.Fatalf("list: %s", r.stdout)
	}
}

// A loop with no model to wake is refused before its first wake: exit 2
// naming what to configure, no wake spent, no gate run, not paused.
func TestLoopWithoutAModelIsRefusedWithoutSpendingAWake(t *testing.T) {
	le := newLoopEnv(t)
	dir := le.newLoop("nomodel", "[budget]\nmax_wakes = 1\non_exhaust = \"pause\"\n[[gate]]\nname = \"ok\"\nrun = \"touch gate-ran; exit 1\"\n")
	le.zero("arm", "nomodel")
	r := le.zero("run", "nomodel", "--once", "--base-url", "http://127.0.0.1:1/v1")
	if r.code != 2 || !strings.Contains(r.stderr, "loop nomodel cannot wake (no wake was used)") {
		t.Fatalf("run without a model: %d\n%s", r.code, r.stderr)
	}
	for _, tick := range readTicks(t, dir) {
		if tick["kind"] != "arm" {
			t.Errorf("a refused run recorded %v", tick)
		}
	}
	if _, err := os.Stat(filepath.Join(le.work, "gate-ran")); err == nil {
		t.Error("a gate ran")
	}
}

// A loop's workdir must be a folder: loop new -C refuses a missing one,
// and a run whose [run] workdir is gone exits 2 naming it, no wake used.
func TestLoopWithAMissingWorkdirIsRefused(t *testing.T) {
	le := newLoopEnv(t)
	missing := filepath.Join(t.TempDir(), "gone")
	if r := le.zero("new", "nowhere", "-C", missing); r.code != 2 || !strings.Contains(r.stderr, missing+": no such folder") {
		t.Fatalf("loop new -C missing: %d\n%s", r.code, r.stderr)
	}
	dir := le.newLoop("moved", "[[gate]]\nname = \"ok\"\nrun = \"exit 0\"\n")
	le.zero("arm", "moved")
	toml := filepath.Join(dir, "loop.toml")
	data, _ := os.ReadFile(toml)
	os.WriteFile(toml, []byte(strings.Replace(string(data), le.work, missing, 1)), 0o644)
	r := le.runLoop("moved", "--once")
	if r.code != 2 || !strings.Contains(r.stderr, "loop moved's workdir "+missing+": no such folder") || !strings.Contains(r.stderr, "no wake was used") {
		t.Fatalf("run with a missing workdir: %d\n%s", r.code, r.stderr)
	}
	if ticks := readTicks(t, dir); len(ticks) != 1 || ticks[0]["kind"] != "arm" {
		t.Errorf("ticks %v", ticks)
	}
}

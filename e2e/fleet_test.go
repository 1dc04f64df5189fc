package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestFleetOfExecsSharesOneSessionDirectory: 20 `zero exec` processes at
// once (a CI matrix or a Kubernetes Job's pods on one volume, docs/fleet.md)
// write into one ZERO_SESSION_DIR; every run's result names its own
// session, every log is whole (valid JSON lines, its own prompt, a
// completed run_end) and `zero sessions --all` lists every session.
func TestFleetOfExecsSharesOneSessionDirectory(t *testing.T) {
	const n = 20
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	var turns []llmtest.Turn
	for range n {
		turns = append(turns, llmtest.Reply(llmtest.Text("done"), llmtest.Usage(100, 5)))
	}
	srv.Script(turns...)

	results := make([]execResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(zeroBin, "exec", "-o", "json", "--base-url", srv.URL(), "--model", "m", fmt.Sprintf("task %02d", i))
			cmd.Dir, cmd.Env = dir, e.vars
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Errorf("task %d: %v: %s", i, err, errb.String())
				return
			}
			if err := json.Unmarshal(out.Bytes(), &results[i]); err != nil {
				t.Errorf("task %d: %v: %s", i, err, out.String())
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	ids := map[string]bool{}
	for i, r := range results {
		if r.Subtype != "success" || ids[r.SessionID] {
			t.Fatalf("task %d: %+v (a session id twice?)", i, r)
		}
		ids[r.SessionID] = true
		checkWholeLog(t, r.SessionLog, fmt.Sprintf("task %02d", i))
	}
	list := e.run(dir, "", "sessions", "--all")
	if list.code != 0 {
		t.Fatalf("zero sessions: %d %s", list.code, list.stderr)
	}
	for id := range ids {
		if !strings.Contains(list.stdout, id) {
			t.Errorf("session %s not listed:\n%s", id, list.stdout)
		}
	}
	if got := strings.Count(list.stdout, "task "); got != n {
		t.Errorf("%d sessions listed, want %d:\n%s", got, n, list.stdout)
	}
}

// checkWholeLog reads one session's events.jsonl: every line is JSON, the
// run_start carries prompt, and the log ends with a completed run_end.
func checkWholeLog(t *testing.T, path, prompt string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var sawPrompt bool
	var last map[string]any
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%s: a line is not JSON: %q", path, sc.Text())
		}
		if ev["type"] == "run_start" {
			if ev["prompt"] != prompt {
				t.Fatalf("%s: run_start prompt %q, want %q", path, ev["prompt"], prompt)
			}
			sawPrompt = true
		}
		last = ev
	}
	if !sawPrompt || last["type"] != "run_end" || last["stopReason"] != "completed" {
		t.Fatalf("%s: prompt seen %v, last event %v", path, sawPrompt, last)
	}
}

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func TestSessionsLogsAndFork(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("first answer")))
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "m", "first question about the parser")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	id := between(r.stdout, `"sessionId": "`, `"`)
	if id == "" {
		t.Fatalf("no session id in %s", r.stdout)
	}

	list := e.run(dir, "", "sessions")
	if list.code != 0 || !strings.Contains(list.stdout, id) || !strings.Contains(list.stdout, "first question about the parser") {
		t.Fatalf("zero sessions: %d %q %s", list.code, list.stdout, list.stderr)
	}
	logs := e.run(dir, "", "logs")
	if logs.code != 0 || !strings.Contains(logs.stdout, filepath.Join(e.sessionDir, id, "events.jsonl")) {
		t.Fatalf("zero logs: %q", logs.stdout)
	}

	// A fork is a new session that starts with the original's history;
	// the original is left as it was.
	before, _ := os.ReadFile(filepath.Join(e.sessionDir, id, "events.jsonl"))
	srv.Script(llmtest.Reply(llmtest.Text("forked answer")))
	f := e.run(dir, "", "exec", "-o", "json", "--fork", id, "--base-url", srv.URL(), "--model", "m", "second question")
	if f.code != 0 {
		t.Fatalf("fork exit %d %s", f.code, f.stderr)
	}
	forkID := between(f.stdout, `"sessionId": "`, `"`)
	if forkID == "" || forkID == id {
		t.Fatalf("fork session id %q (original %q)", forkID, id)
	}
	after, _ := os.ReadFile(filepath.Join(e.sessionDir, id, "events.jsonl"))
	if string(before) != string(after) {
		t.Fatal("forking changed the original session")
	}
	reqs := completions(srv)
	msgs := reqs[len(reqs)-1].Map()["messages"].([]any)
	if len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "first question about the parser" {
		t.Fatalf("forked request history %v", msgs)
	}
	meta, _ := os.ReadFile(filepath.Join(e.sessionDir, forkID, "metadata.json"))
	if !strings.Contains(string(meta), `"forkedFrom": "`+id+`"`) && !strings.Contains(string(meta), `"forkedFrom":"`+id+`"`) {
		t.Fatalf("fork metadata %s", meta)
	}
}

func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	j := strings.Index(s, end)
	if j < 0 {
		return ""
	}
	return s[:j]
}

// A session is used by one zero process at a time; a second one is told so.
func TestSessionInUseIsRefused(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("first")))
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "m", "one")
	id := between(r.stdout, `"sessionId": "`, `"`)
	// hold the session with a stalled run
	srv.Script(llmtest.Reply(llmtest.Text("slow "), llmtest.Stall(time.Minute)))
	first := exec.Command(zeroBin, "exec", "--resume="+id, "--base-url", srv.URL(), "--model", "m", "two")
	first.Dir, first.Env = dir, e.vars
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for len(completions(srv)) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	second := e.run(dir, "", "exec", "--resume="+id, "--base-url", srv.URL(), "--model", "m", "three")
	if second.code != 2 || !strings.Contains(second.stderr, "in use by another zero process") {
		t.Fatalf("second process: %d %s", second.code, second.stderr)
	}
}

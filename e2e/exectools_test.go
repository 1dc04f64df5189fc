package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// resultsByCall are the stream's tool results by call id.
func resultsByCall(evs []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, r := range toolResults(evs) {
		out[r["callId"].(string)] = r
	}
	return out
}

// TestExecPlanAndInteractiveProcesses: through the built `zero exec`, in
// its sandbox, the model keeps a plan (plan events in stream-json and
// the session log), answers a Python input() prompt with write_stdin,
// starts an HTTP server in a terminal session that it then queries
// from that session, and stops a command with Ctrl-C.
func TestExecPlanAndInteractiveProcesses(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"greet.py":  "name = input('name? ')\nprint('hello', name.upper())\n",
		"hello.txt": "served by zero\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	plan := func(greet, serve string) string {
		b, _ := json.Marshal(map[string]any{"plan": []map[string]string{{"step": "greet", "status": greet}, {"step": "serve and query", "status": serve}}})
		return string(b)
	}
	stdin := func(id int, chars string) string {
		b, _ := json.Marshal(map[string]any{"session_id": id, "chars": chars, "yield_time_ms": 30000})
		return string(b)
	}
	// Under bubblewrap each command has its own network namespace, so
	// the query runs in the server's session; the server stays up while
	// the model makes other calls (until it types a line), and its log is
	// polled.
	serve, _ := json.Marshal(map[string]any{"yield_time_ms": 100, "cmd": fmt.Sprintf(
		"python3 -m http.server %d --bind 127.0.0.1 & curl -s --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:%d/hello.txt; read done; kill $!", port, port)})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("p1", "update_plan", plan("in_progress", "pending"))),
		llmtest.Reply(tc("e1", "exec_command", `{"cmd":"python3 greet.py","yield_time_ms":100}`)),
		llmtest.Reply(tc("w1", "write_stdin", stdin(1, "zero\n"))),
		llmtest.Reply(tc("p2", "update_plan", plan("completed", "in_progress"))),
		llmtest.Reply(tc("e2", "exec_command", string(serve))),
		llmtest.Reply(tc("p3", "update_plan", plan("completed", "done"))),
		llmtest.Reply(tc("w2", "write_stdin", stdin(2, "done\n"))),
		llmtest.Reply(tc("e3", "exec_command", `{"cmd":"sleep 1000","yield_time_ms":100}`)),
		llmtest.Reply(tc("w3", "write_stdin", stdin(3, "\u0003"))),
		llmtest.Reply(llmtest.Text("Greeted and served.")),
	)
	e := newEnv(t)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", "greet, then serve")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	evs := parseStream(t, r.stdout)
	checkStream(t, evs)
	res := resultsByCall(evs)
	if c := res["e1"]["content"].(string); !strings.Contains(c, "still running as session_id 1") {
		t.Fatalf("the prompt ended before its answer: %v", res["e1"])
	}
	if c := res["w1"]["content"].(string); !strings.Contains(c, "hello ZERO") || res["w1"]["exitCode"] != float64(0) {
		t.Fatalf("answering the prompt: %v", res["w1"])
	}
	if c := res["e2"]["content"].(string); !strings.Contains(c, "still running as session_id 2") {
		t.Fatalf("the server ended before the model's next call: %v", res["e2"])
	}
	if c := res["e2"]["content"].(string) + res["w2"]["content"].(string); !strings.Contains(c, "served by zero") || !strings.Contains(c, `"GET /hello.txt HTTP/1.1" 200`) || res["w2"]["exitCode"] == nil {
		t.Fatalf("serving and querying: %v then %v", res["e2"], res["w2"])
	}
	// Ctrl-C ends a command in the sandbox (bubblewrap gets the signal
	// and takes its child with it).
	if res["w3"]["exitCode"] != float64(130) {
		t.Fatalf("Ctrl-C: %v", res["w3"])
	}
	var plans []string
	for _, ev := range eventsOf(evs, "plan") {
		b, _ := json.Marshal(ev["plan"])
		plans = append(plans, string(b))
	}
	want := `{"steps":[{"status":"completed","step":"greet"},{"status":"completed","step":"serve and query"}]}`
	if len(plans) != 3 || plans[2] != want {
		t.Fatalf("plan events %v, want 3 ending %s", plans, want)
	}
	id, _ := evs[0]["sessionId"].(string)
	if logged := len(eventsOf(readLog(t, filepath.Join(e.sessionDir, id, "events.jsonl")), "plan")); logged != 3 {
		t.Fatalf("%d plan events in the session log, want 3", logged)
	}
}

package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// The planted bug: List.Back returns the first element instead of the last.
const (
	goodBack = "func (l *List) Back() *Element {\n\tif l.len == 0 {\n\t\treturn nil\n\t}\n\treturn l.root.prev\n}"
	badBack  = "func (l *List) Back() *Element {\n\tif l.len == 0 {\n\t\treturn nil\n\t}\n\treturn l.root.next\n}"
)

// buggyModule copies container/list and its tests from the Go distribution
// into a temp module, plants the bug and returns the module dir and the
// original list.go bytes.
func buggyModule(t *testing.T) (dir string, original []byte) {
	dir = t.TempDir()
	src := filepath.Join(goroot(t), "src", "container", "list")
	for _, name := range []string{"list.go", "list_test.go", "example_test.go"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "example_test.go" {
			b = []byte(strings.ReplaceAll(string(b), `"container/list"`, `"example.com/list"`))
		}
		if name == "list.go" {
			original = b
			if !strings.Contains(string(b), goodBack) {
				t.Fatalf("container/list changed shape; update the planted bug")
			}
			b = []byte(strings.Replace(string(b), goodBack, badBack, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/list\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, original
}

// fixScript is what a model would do: grep, read a line range, edit, test,
// answer.
func fixScript() []llmtest.Turn {
	edit, _ := json.Marshal(map[string]string{"path": "list.go", "old_string": badBack, "new_string": goodBack})
	return []llmtest.Turn{
		llmtest.Reply(llmtest.Text("I'll look for Back."), tc("call_1", "grep", `{"pattern":"func \\(l \\*List\\) Back","path":"."}`), llmtest.Usage(1200, 30)),
		llmtest.Reply(tc("call_2", "read_file", `{"path":"list.go","offset":76,"limit":8}`), llmtest.Usage(1400, 20)),
		llmtest.Reply(llmtest.Text("Back returns root.next; it must return root.prev."), tc("call_3", "edit_file", string(edit)), llmtest.Usage(1600, 60)),
		llmtest.Reply(tc("call_4", "bash", `{"command":"go test ./..."}`), llmtest.Usage(1800, 15)),
		llmtest.Reply(llmtest.Text("Fixed List.Back to return l.root.prev; "), llmtest.Text("go test ./... passes."), llmtest.Usage(2000, 25)),
	}
}

func tc(id, name, args string) llmtest.Step {
	s := llmtest.ToolCall(name, args)
	s.ID = id
	s.Chunks = 3
	return s
}

func TestFixBugStreamJSONThenResume(t *testing.T) {
	dir, original := buggyModule(t)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(fixScript()...)

	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model",
		"List.Back returns the wrong element; fix it and run the tests.")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}

	// The bug is fixed byte-exactly.
	got, err := os.ReadFile(filepath.Join(dir, "list.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(original) {
		t.Fatalf("list.go differs from the original after the fix")
	}
	// go test really passes now.
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir, cmd.Env = dir, e.vars
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test after the fix: %v\n%s", err, out)
	}

	// The event stream is valid and complete.
	evs := parseStream(t, r.stdout)
	checkStream(t, evs)
	var bashResult map[string]any
	for _, ev := range evs {
		if ev["type"] == "tool_result" {
			res := ev["result"].(map[string]any)
			if res["name"] == "bash" {
				bashResult = res
			}
			if res["isError"] == true {
				t.Fatalf("tool failed: %v", res)
			}
		}
	}
	if bashResult == nil || bashResult["exitCode"] != float64(0) || !strings.Contains(bashResult["content"].(string), "ok") {
		t.Fatalf("go test did not run and pass through bash: %v", bashResult)
	}
	if last := evs[len(evs)-1]; last["stopReason"] != "completed" {
		t.Fatalf("run_end: %v", last)
	}
	sessionID, _ := evs[0]["sessionId"].(string)
	if sessionID == "" {
		t.Fatalf("run_start has no sessionId: %v", evs[0])
	}

	// The first request (system prompt + tool schemas) fits the 8 KB budget.
	reqs := completions(srv)
	if len(reqs) != 5 {
		t.Fatalf("want 5 model requests, got %d", len(reqs))
	}
	if n := len(reqs[0].Body); n >= 8192 {
		t.Fatalf("first request is %d bytes, budget is 8192", n)
	}
	t.Logf("first request: %d bytes", len(reqs[0].Body)) // README's Benchmarks quote it

	// The session log holds every step.
	logEvents := readLog(t, filepath.Join(e.sessionDir, sessionID, "events.jsonl"))
	var roles []string
	for _, ev := range logEvents {
		if ev["type"] == "message" {
			m := ev["message"].(map[string]any)
			roles = append(roles, m["role"].(string))
		}
	}
	wantRoles := "user assistant tool assistant tool assistant tool assistant tool assistant"
	if strings.Join(roles, " ") != wantRoles {
		t.Fatalf("logged messages %v, want %s", roles, wantRoles)
	}
	if _, err := os.Stat(filepath.Join(e.sessionDir, sessionID, "metadata.json")); err != nil {
		t.Fatal(err)
	}

	// --resume continues it with the full history (second run: text mode).
	srv.Script(llmtest.Reply(llmtest.Text("I changed one line in list.go."), llmtest.Usage(2100, 10)))
	r2 := e.run(dir, "", "exec", "--resume", "--base-url", srv.URL(), "--model", "llmtest-model", "What did you change?")
	if r2.code != 0 {
		t.Fatalf("resume exit %d: %s", r2.code, r2.stderr)
	}
	if strings.TrimSpace(r2.stdout) != "I changed one line in list.go." {
		t.Fatalf("text mode stdout %q", r2.stdout)
	}
	if !strings.Contains(r2.stderr, "⚙") && !strings.Contains(r2.stderr, "completed") {
		t.Fatalf("text mode progress missing on stderr: %q", r2.stderr)
	}
	reqs = completions(srv)
	msgs := reqs[len(reqs)-1].Map()["messages"].([]any)
	// system + 10 earlier messages + the new user prompt
	if len(msgs) != 12 {
		t.Fatalf("resumed request has %d messages, want 12", len(msgs))
	}
	var toolIDs []string
	for _, m := range msgs {
		mm := m.(map[string]any)
		if mm["role"] == "tool" {
			toolIDs = append(toolIDs, mm["tool_call_id"].(string))
		}
	}
	if strings.Join(toolIDs, ",") != "call_1,call_2,call_3,call_4" {
		t.Fatalf("resumed tool results %v", toolIDs)
	}
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "user" || last["content"] != "What did you change?" {
		t.Fatalf("last message %v", last)
	}
}

func parseStream(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stream-json line is not JSON: %q", sc.Text())
		}
		evs = append(evs, m)
	}
	return evs
}

// checkStream checks the shape every stream-json run must have.
func checkStream(t *testing.T, evs []map[string]any) {
	t.Helper()
	if len(evs) < 2 || evs[0]["type"] != "run_start" || evs[len(evs)-1]["type"] != "run_end" {
		t.Fatalf("stream must start with run_start and end with run_end: %v", evs)
	}
	runID := evs[0]["runId"]
	calls := map[string]bool{}
	finals := 0
	for _, ev := range evs {
		if ev["schemaVersion"] != float64(1) || ev["runId"] != runID || ev["type"] == "" {
			t.Fatalf("bad common fields: %v", ev)
		}
		switch ev["type"] {
		case "tool_call":
			calls[ev["toolCall"].(map[string]any)["id"].(string)] = true
		case "tool_result":
			id := ev["result"].(map[string]any)["callId"].(string)
			if !calls[id] {
				t.Fatalf("result for unknown call %s", id)
			}
			delete(calls, id)
		case "final":
			finals++
		case "run_start", "text", "reasoning", "usage", "warning", "error", "run_end", "plan":
		default:
			t.Fatalf("undocumented event type %v", ev["type"])
		}
	}
	if len(calls) != 0 || finals != 1 {
		t.Fatalf("calls without results %v, finals %d", calls, finals)
	}
}

func readLog(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		evs = append(evs, m)
	}
	return evs
}

// completions returns the chat-completion requests the server received
// (window discovery also asks /props and friends).
func completions(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") || strings.HasSuffix(r.Path, "/messages") || strings.Contains(r.Path, ":streamGenerateContent") {
			out = append(out, r)
		}
	}
	return out
}

// TestFixBugEveryWireFormat runs the same task against the fake server
// speaking each provider's wire format: same task, same result.
func TestFixBugEveryWireFormat(t *testing.T) {
	for _, f := range []struct {
		name  string
		args  func(url string) []string
		env   func(url string) []string
		model string
	}{
		{"openai", func(u string) []string { return []string{"--base-url", u} }, nil, "llmtest-model"},
		{"anthropic", func(string) []string { return []string{"--provider", "anthropic"} },
			func(u string) []string { return []string{"ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL=" + u} }, "claude-sonnet-4-5"},
		{"gemini", func(string) []string { return []string{"--provider", "gemini"} },
			func(u string) []string { return []string{"GEMINI_API_KEY=test-key", "GEMINI_BASE_URL=" + u} }, "gemini-2.5-flash"},
	} {
		t.Run(f.name, func(t *testing.T) {
			dir, original := buggyModule(t)
			e := newEnv(t)
			srv := llmtest.NewServer(t)
			srv.Script(fixScript()...)
			if f.env != nil {
				e.vars = append(e.vars, f.env(srv.URL())...)
			}
			args := append([]string{"exec", "-o", "stream-json", "--auto-approve", "--model", f.model}, f.args(srv.URL())...)
			r := e.run(dir, "", append(args, "List.Back returns the wrong element; fix it and run the tests.")...)
			if r.code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "list.go"))
			if string(got) != string(original) {
				t.Fatal("list.go differs from the original after the fix")
			}
			evs := parseStream(t, r.stdout)
			checkStream(t, evs)
			if n := len(completions(srv)); n != 5 {
				t.Fatalf("want 5 model requests, got %d", n)
			}
			var final string
			for _, ev := range evs {
				if ev["type"] == "final" {
					final = ev["text"].(string)
				}
			}
			if final != "Fixed List.Back to return l.root.prev; go test ./... passes." {
				t.Fatalf("final %q", final)
			}
		})
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// A large tool output is cut for the model, and the full text stays
// reachable: the marker names a spill file in the session directory that
// read_file can open (on resume too).
func TestLargeOutputIsCutAndReachable(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("big", "bash", `{"command":"seq 1 20000"}`)), llmtest.Reply(llmtest.Text("counted")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "count")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	reqs := completions(srv)
	msgs := reqs[1].Map()["messages"].([]any)
	content := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if len(content) > 5000 || !strings.HasPrefix(content, "1\n2\n") || !strings.Contains(content, "20000") {
		t.Fatalf("result not cut to head+tail: %d bytes: %.300q", len(content), content)
	}
	spill := regexp.MustCompile(`/[^\s\]'"]+tool-output/[^\s\]'"]+\.txt`).FindString(content)
	if spill == "" || !strings.HasPrefix(spill, e.sessionDir) {
		t.Fatalf("marker names no spill file in the session dir: %q", content)
	}
	full, err := os.ReadFile(spill)
	if err != nil || !strings.Contains(string(full), "\n12345\n") {
		t.Fatalf("spill file lacks the full output: %v", err)
	}

	args, _ := json.Marshal(map[string]any{"path": spill, "offset": 12345, "limit": 1})
	srv.Script(llmtest.Reply(tc("back", "read_file", string(args))), llmtest.Reply(llmtest.Text("done")))
	r = e.run(dir, "", "exec", "-o", "stream-json", "--resume", "--base-url", srv.URL(), "--model", "m", "show line 12345")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if got := toolResult(t, r.stdout, "back"); !strings.Contains(got, "12345") {
		t.Fatalf("spilled output not readable: %q", got)
	}
	// the session dir is readable, never writable
	w, _ := json.Marshal(map[string]any{"path": spill, "content": "overwritten"})
	srv.Script(llmtest.Reply(tc("w", "write_file", string(w))), llmtest.Reply(llmtest.Text("done")))
	r = e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--resume", "--base-url", srv.URL(), "--model", "m", "overwrite it")
	if got := toolResult(t, r.stdout, "w"); !strings.Contains(got, "read-only") {
		t.Fatalf("write into the session dir allowed: %q", got)
	}
	if b, _ := os.ReadFile(spill); string(b) != string(full) {
		t.Fatal("spill file changed")
	}

	ctx := e.run(dir, "", "context") // reads the stored session: no model needed
	if ctx.code != 0 || !strings.Contains(strings.ToLower(ctx.stdout), "cap") {
		t.Fatalf("zero context: %d %q %s", ctx.code, ctx.stdout, ctx.stderr)
	}
}

// TestHugeOutputSpillHoldsEverything: the spill file of a shell output
// past bash's 1 MiB in-memory cap holds the whole output, byte for byte
// (it used to hold the capped 1 MiB), while the model still gets a cut.
func TestHugeOutputSpillHoldsEverything(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("huge", "bash", `{"command":"seq 1 400000"}`)), llmtest.Reply(llmtest.Text("counted")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "count a lot")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	msgs := completions(srv)[1].Map()["messages"].([]any)
	content := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	spill := regexp.MustCompile(`/[^\s\]'"]+tool-output/[^\s\]'"]+\.txt`).FindString(content)
	if len(content) > 20000 || spill == "" {
		t.Fatalf("want a cut naming the spill file, got %d bytes: %.300q", len(content), content)
	}
	want, err := exec.Command("seq", "1", "400000").Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(spill)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) <= 1<<20 || !strings.HasPrefix(string(got), string(want)) {
		t.Fatalf("spill file holds %d bytes, the output is %d", len(got), len(want))
	}
}

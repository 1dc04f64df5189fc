package e2e

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestRequestsAreAppendOnly: every request of a multi-turn run, tool calls
// and results included, and the first request after `--resume`, is the
// previous request plus new messages, with every other field the same, so
// a local server's prompt cache is reused (SPEC §11; a compaction is the
// one allowed break, and none happens here).
func TestRequestsAreAppendOnly(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("l1", "list_dir", `{"path":"."}`), llmtest.Usage(900, 10)),
		llmtest.Reply(tc("b1", "bash", `{"command":"echo hi"}`), llmtest.Usage(950, 10)),
		llmtest.Reply(llmtest.Text("listed and echoed"), llmtest.Usage(1000, 5)),
	)
	if r := e.run(dir, "", "exec", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "look around"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("still here")))
	if r := e.run(dir, "", "exec", "--resume", "--base-url", srv.URL(), "--model", "m", "and now?"); r.code != 0 {
		t.Fatalf("resume: exit %d %s", r.code, r.stderr)
	}
	reqs := completions(srv)
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		prev, cur := reqs[i-1].Map(), reqs[i].Map()
		pm, cm := prev["messages"].([]any), cur["messages"].([]any)
		if len(cm) <= len(pm) || !reflect.DeepEqual(pm, cm[:len(pm)]) {
			a, _ := json.Marshal(pm)
			b, _ := json.Marshal(cm)
			t.Fatalf("request %d does not extend request %d:\n%s\n%s", i+1, i, a, b)
		}
		if !reflect.DeepEqual(without(prev, "messages"), without(cur, "messages")) {
			a, _ := json.Marshal(prev)
			b, _ := json.Marshal(cur)
			t.Fatalf("request %d changed more than its messages:\n%s\n%s", i+1, a, b)
		}
	}
}

// without returns a copy of m less key.
func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// A GPT-5 run edits with apply_patch: two files in one call, CRLF kept,
// and the diff of both in the tool result.
func TestApplyPatchThroughExec(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\r\ntwo\r\n"), 0o644)
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+deux\n*** Add File: b.txt\n+new file\n*** End Patch\n"
	args, _ := json.Marshal(map[string]string{"patch": patch})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("p1", "apply_patch", string(args))),
		llmtest.Reply(llmtest.Text("Patched.")),
	)
	evs, r := execStream(t, newEnv(t), dir, "--auto-approve", "--base-url", srv.URL(), "--model", "gpt-5", "patch it")
	if r.code != 0 || final(evs) != "Patched." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	if a, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(a) != "one\r\ndeux\r\n" {
		t.Errorf("a.txt = %q", a)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "new file\n" {
		t.Errorf("b.txt = %q", b)
	}
	res := toolResults(evs)
	if len(res) != 1 || res[0]["isError"] == true || !strings.Contains(res[0]["diff"].(string), "+deux") || !strings.Contains(res[0]["diff"].(string), "+new file") {
		t.Fatalf("tool result %v", res)
	}
	names := strings.Join(requestTools(t, srv), " ")
	if !strings.Contains(names, "apply_patch") || strings.Contains(names, "edit_file") {
		t.Fatalf("tools offered to gpt-5: %s", names)
	}
}

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// Shell commands run inside the sandbox: even with --auto-approve a
// command cannot write outside the workspace, and the model is told why.
func TestShellRunsSandboxed(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Fatalf("bubblewrap is required (.ci/run installs it): %v", err)
	}
	dir := t.TempDir()
	e := newEnv(t)
	// Temp directories are writable in the sandbox, so the target lives
	// beside the test instead (removed afterwards).
	outDir, err := os.MkdirTemp(".", ".sandbox-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outDir) })
	outside, _ := filepath.Abs(filepath.Join(outDir, "outside.txt"))
	// A script that was already in the repository: the guard lets it run
	// (it cannot see inside), so only the sandbox stands in its way.
	os.WriteFile(filepath.Join(dir, "build.sh"), []byte("echo inside > in.txt\necho escaped > "+outside+"\n"), 0o755)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("s1", "bash", `{"command":"sh build.sh"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "write files")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "in.txt")); err != nil || string(b) != "inside\n" {
		t.Fatalf("workspace write failed: %v %q", err, b)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("a shell command wrote outside the workspace")
	}
	var result string
	for _, ev := range parseStream(t, r.stdout) {
		if ev["type"] == "tool_result" {
			result = ev["result"].(map[string]any)["content"].(string)
		}
	}
	if !strings.Contains(strings.ToLower(result), "read-only") || !strings.Contains(result, "sandbox") {
		t.Fatalf("the model is not told the sandbox refused the write: %q", result)
	}
}

package e2e

import (
	"fmt"
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
	// A system directory: read-only inside the sandbox wherever the test
	// itself runs (removed afterwards should the sandbox ever fail).
	outside := filepath.Join("/usr/local/share", fmt.Sprintf("zero-e2e-probe-%d.txt", os.Getpid()))
	t.Cleanup(func() { os.Remove(outside) })
	// A script that was already in the repository: the guard lets it run
	// (it cannot see inside), so only the sandbox stands in its way.
	// Another project under /tmp: temp directories are private to each
	// command, so it cannot be reached through /tmp either.
	neighbour := filepath.Join(t.TempDir(), "other-project.txt")
	os.WriteFile(filepath.Join(dir, "build.sh"), []byte("echo inside > in.txt\necho tmp > "+neighbour+"\necho escaped > "+outside+"\n"), 0o755)
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
	if _, err := os.Stat(neighbour); err == nil {
		t.Fatal("a shell command wrote into another directory under /tmp")
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

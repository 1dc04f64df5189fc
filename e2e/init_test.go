package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestInitWritesAgentsMDWithoutAsking: `zero init` sends the built-in
// /init instructions; the model's write of AGENTS.md runs in normal mode
// without a question, and a write of any other file is still refused.
func TestInitWritesAgentsMDWithoutAsking(t *testing.T) {
	e := newEnv(t)
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "README.md"), []byte("# demo\n\nRun `make test`.\n"), 0o644)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "read_file", `{"path":"README.md"}`)),
		llmtest.Reply(tc("c2", "write_file", `{"path":"AGENTS.md","content":"# demo\n\nTest with `+"`make test`"+`.\n"}`)),
		llmtest.Reply(tc("c3", "write_file", `{"path":"other.txt","content":"not asked for"}`)),
		llmtest.Reply(llmtest.Text("Wrote AGENTS.md.")),
	)
	r := e.run(work, "", "init", "--base-url", srv.URL(), "--model", "m", "the test command")
	if r.code != 0 || !strings.Contains(r.stdout, "Wrote AGENTS.md.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(work, "AGENTS.md"))
	if err != nil || !strings.Contains(string(got), "make test") {
		t.Fatalf("AGENTS.md: %q %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(work, "other.txt")); !os.IsNotExist(err) {
		t.Errorf("a file other than AGENTS.md was written without a question")
	}
	first := string(completions(srv)[0].Body)
	if !strings.Contains(first, "Write the AGENTS.md of this repository") || !strings.Contains(first, "the test command") {
		t.Errorf("the first request does not carry the /init instructions and the focus")
	}
}

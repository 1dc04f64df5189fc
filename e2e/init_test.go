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
	if !strings.Contains(r.stderr, "zero: wrote ") || !strings.Contains(r.stderr, "AGENTS.md (3 lines)") {
		t.Errorf("init does not say it wrote AGENTS.md:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "other.txt")); !os.IsNotExist(err) {
		t.Errorf("a file other than AGENTS.md was written without a question")
	}
	first := string(completions(srv)[0].Body)
	if !strings.Contains(first, "Write the AGENTS.md of this repository") || !strings.Contains(first, "the test command") {
		t.Errorf("the first request does not carry the /init instructions and the focus")
	}
}

// TestInitThatWritesNoAgentsMDSaysSoAndFails: a turn that ends without
// AGENTS.md is not a silent success: init says the file was not written
// and exits 1; one that leaves an existing AGENTS.md as it was says so
// and exits 0.
func TestInitThatWritesNoAgentsMDSaysSoAndFails(t *testing.T) {
	e := newEnv(t)
	work := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("This project looks fine.")))
	r := e.run(work, "", "init", "--base-url", srv.URL(), "--model", "m")
	if r.code != 1 || !strings.Contains(r.stderr, "AGENTS.md was not written: the turn ended without writing it") {
		t.Fatalf("no AGENTS.md: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(work, "AGENTS.md"), []byte("# demo\n"), 0o644)
	srv.Script(llmtest.Reply(llmtest.Text("It is good as it is.")))
	r = e.run(work, "", "init", "--base-url", srv.URL(), "--model", "m")
	if r.code != 0 || !strings.Contains(r.stderr, "AGENTS.md is unchanged") {
		t.Fatalf("AGENTS.md left as it was: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

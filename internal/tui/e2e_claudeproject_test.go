package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestAppInARealClaudeCodeProject: the app in tmux, in a folder laid out
// as a Claude Code project (e2e/testdata/claude-project) the user
// trusted: /memory lists CLAUDE.md and its import, /skills the project's
// skill, /review runs the project's command, and its PreToolUse hook
// blocks `rm -rf` with the reason shown.
func TestAppInARealClaudeCodeProject(t *testing.T) {
	bin := buildZero(t)
	home := t.TempDir()
	work := testbin.Fixture(t, filepath.Join("..", "..", "e2e", "testdata", "claude-project"))
	trust := exec.Command(bin, "trust")
	trust.Dir = work
	trust.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ZERO_SESSION_DIR=" + filepath.Join(home, "sessions")}
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("zero trust: %v\n%s", err, out)
	}
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"rm -rf build"}`)),
		llmtest.Reply(llmtest.Text("I will not delete build.")),
	)
	x, _ := startAppIn(t, bin, home, work, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })
	x.typeLine("/memory")
	x.waitFor("the instruction files", func(l []string) bool { return contains(l, "CLAUDE.md") && contains(l, "docs/conventions.md") })
	x.typeLine("/skills")
	x.waitFor("the project's skill", func(l []string) bool { return contains(l, "/release-notes") && contains(l, "(project)") })
	x.typeLine("/review p.go")
	x.waitFor("the hook's block", func(l []string) bool {
		return contains(l, "PreToolUse hook blocked this call: no rm -rf here") && contains(l, "I will not delete build.") && contains(l, "ask anything")
	})
	if _, err := os.Stat(filepath.Join(work, "build", "out.txt")); err != nil {
		t.Errorf("the blocked command ran: %v", err)
	}
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestRealClaudeCodeProjectThroughExec drives zero exec through a folder
// laid out as a Claude Code project (testdata/claude-project): after
// `zero trust`, CLAUDE.md and its @import are in the system prompt with
// the skill listing, `/review FILE FOCUS` expands the project's command,
// the nested AGENTS.md joins the first read in its folder, the skill's
// body arrives through the skill tool, the PreToolUse hook blocks
// `rm -rf` with its reason, and the allow rule runs `go test` in normal
// mode.
func TestRealClaudeCodeProjectThroughExec(t *testing.T) {
	dir := testbin.Fixture(t, "testdata/claude-project")
	e := newEnv(t)
	if r := e.run(dir, "", "trust"); r.code != 0 {
		t.Fatalf("zero trust: %d %s", r.code, r.stderr)
	}
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("r1", "read_file", `{"path":"sub/data.txt"}`)),
		llmtest.Reply(tc("s1", "skill", `{"name":"release-notes"}`)),
		llmtest.Reply(tc("b1", "bash", `{"command":"rm -rf build"}`)),
		llmtest.Reply(tc("b2", "bash", `{"command":"go test ./..."}`)),
		llmtest.Reply(llmtest.Text("Reviewed.")),
	)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "/review p.go error handling")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	first := string(completions(srv)[0].Body)
	for _, want := range []string{
		"A tiny Go module used to test Zero",     // CLAUDE.md
		"exported functions carry a doc comment", // its @docs/conventions.md
		"release-notes",                          // the skill listing
		"Review p.go for bugs and for the conventions in CLAUDE.md. Focus on: p.go error handling", // /review
	} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q", want)
		}
	}
	if strings.Contains(first, "Group them into Added") {
		t.Errorf("the skill's body was sent before the skill tool was called")
	}
	if got := toolResult(t, r.stdout, "r1"); !strings.Contains(got, "regenerate them, never edit them by hand") {
		t.Errorf("the nested AGENTS.md did not join the read: %q", got)
	}
	if got := toolResult(t, r.stdout, "s1"); !strings.Contains(got, "Group them into Added, Changed and Fixed") {
		t.Errorf("the skill tool did not return the body: %q", got)
	}
	if got := toolResult(t, r.stdout, "b1"); !strings.Contains(got, "no rm -rf here: run make clean") {
		t.Errorf("the hook did not block rm -rf: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "out.txt")); err != nil {
		t.Errorf("the blocked command ran: %v", err)
	}
	if got := toolResult(t, r.stdout, "b2"); !strings.Contains(got, "ok") || strings.Contains(got, "needs approval") {
		t.Errorf("the allow rule did not run go test: %q", got)
	}

	// What Zero read, from where.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hooks", "list"}, ".claude/settings.json"},
		{[]string{"skills", "list"}, "release-notes"},
		{[]string{"commands"}, "review"},
		{[]string{"context"}, "CLAUDE.md"},
	} {
		if r := e.run(dir, "", c.args...); r.code != 0 || !strings.Contains(r.stdout, c.want) {
			t.Errorf("zero %s: exit %d, no %q:\n%s%s", strings.Join(c.args, " "), r.code, c.want, r.stdout, r.stderr)
		}
	}
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// claudeProject is a copy of testdata/claude-project, a folder laid out
// as a Claude Code project: a Go module with a passing test, a build
// folder, and .claude/settings.json with a PreToolUse hook that blocks
// `rm -rf` and permission rules (plus CLAUDE.md, skills and commands).
func claudeProject(t *testing.T) string {
	t.Helper()
	return testbin.Fixture(t, "testdata/claude-project")
}

func TestClaudeSettingsHookBlocksAndPermissionRulesDecide(t *testing.T) {
	dir := claudeProject(t)
	e := newEnv(t)
	srv := llmtest.NewServer(t)

	// Untrusted: neither the hook nor the rules load, and Zero says so.
	srv.Script(llmtest.Reply(tc("u1", "bash", `{"command":"echo hi"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "hi")
	if r.code != 0 || !strings.Contains(r.stderr, ".claude/settings.json") || !strings.Contains(r.stderr, "zero trust") {
		t.Fatalf("untrusted run: %d %s", r.code, r.stderr)
	}
	if got := toolResult(t, r.stdout, "u1"); !strings.Contains(got, "needs approval") {
		t.Fatalf("an untrusted project allow rule applied: %q", got)
	}
	if tr := e.run(dir, "", "trust"); tr.code != 0 {
		t.Fatalf("zero trust: %d %s", tr.code, tr.stderr)
	}

	// Trusted, normal mode: the hook blocks rm -rf with its reason, the
	// allow rule runs go test without asking, the deny rule beats the
	// allow rule for echo.
	srv.Script(
		llmtest.Reply(tc("h1", "bash", `{"command":"rm -rf build"}`)),
		llmtest.Reply(tc("h2", "bash", `{"command":"go test ./..."}`)),
		llmtest.Reply(tc("h3", "bash", `{"command":"echo secret stuff"}`)),
		llmtest.Reply(tc("h4", "bash", `{"command":"echo hello"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	r = e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "clean up and test")
	if r.code != 0 {
		t.Fatalf("trusted run: %d %s", r.code, r.stderr)
	}
	if got := toolResult(t, r.stdout, "h1"); !strings.Contains(got, "no rm -rf here: run make clean") || !strings.Contains(got, "PreToolUse hook") {
		t.Errorf("the hook did not block rm -rf: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "out.txt")); err != nil {
		t.Errorf("the blocked command ran: %v", err)
	}
	if got := toolResult(t, r.stdout, "h2"); !strings.Contains(got, "ok") || strings.Contains(got, "approval") {
		t.Errorf("Bash(go test:*) did not allow go test: %q", got)
	}
	if got := toolResult(t, r.stdout, "h3"); !strings.Contains(got, "denied by the permission rule Bash(echo secret:*)") {
		t.Errorf("the deny rule did not win over the allow rule: %q", got)
	}
	if got := toolResult(t, r.stdout, "h4"); !strings.Contains(got, "hello") {
		t.Errorf("Bash(echo:*) did not allow echo hello: %q", got)
	}
	reqs := completions(srv)
	if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, "no rm -rf here: run make clean") {
		t.Errorf("the model never saw the hook's reason")
	}
	if !strings.Contains(r.stdout, `"type":"hook"`) || !strings.Contains(r.stdout, `"decision":"block"`) || !strings.Contains(r.stdout, `"event":"PreToolUse"`) {
		t.Errorf("hook runs are not in stream-json:\n%s", r.stdout)
	}
	logs, _ := filepath.Glob(filepath.Join(e.sessionDir, "*", "events.jsonl"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.Write(b)
	}
	if !strings.Contains(all.String(), `"matcher":"Bash"`) || !strings.Contains(all.String(), `"decision":"block"`) {
		t.Errorf("hook runs are not in the session log")
	}

	// --disallowed-tools is a deny rule: it beats the project's allow.
	srv.Script(llmtest.Reply(tc("f1", "bash", `{"command":"go test ./..."}`)), llmtest.Reply(llmtest.Text("ok")))
	r = e.run(dir, "", "exec", "-o", "stream-json", "--disallowed-tools", "Bash(go test:*)", "--base-url", srv.URL(), "--model", "m", "test")
	if got := toolResult(t, r.stdout, "f1"); r.code != 0 || !strings.Contains(got, "--disallowed-tools") {
		t.Errorf("--disallowed-tools did not deny: %d %q %s", r.code, got, r.stderr)
	}

	// zero hooks list and test show the hook and what it decides.
	l := e.run(dir, "", "hooks", "list")
	if l.code != 0 || !strings.Contains(l.stdout, "PreToolUse") || !strings.Contains(l.stdout, "Bash(echo secret:*)") {
		t.Errorf("zero hooks list: %d %s %s", l.code, l.stdout, l.stderr)
	}
	ht := e.run(dir, "", "hooks", "test", "PreToolUse", "--tool", "Bash", "--input", `{"command":"rm -rf build"}`)
	if ht.code != 1 || !strings.Contains(ht.stdout, "decision block") || !strings.Contains(ht.stdout, "blocked: no rm -rf here") {
		t.Errorf("zero hooks test: %d %s %s", ht.code, ht.stdout, ht.stderr)
	}
}

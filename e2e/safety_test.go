package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// toolResult returns the content of the stream's tool_result for id.
func toolResult(t *testing.T, stdout, id string) string {
	t.Helper()
	for _, ev := range parseStream(t, stdout) {
		if ev["type"] == "tool_result" {
			r := ev["result"].(map[string]any)
			if r["callId"] == id {
				return r["content"].(string)
			}
		}
	}
	t.Fatalf("no tool_result for %s in %s", id, stdout)
	return ""
}

func TestHooksBlockAndAreAudited(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	cfgDir := filepath.Join(e.home, ".config", "zero")
	os.MkdirAll(cfgDir, 0o700)
	os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(`{
  // hooks from the user's own config run everywhere
  "hooks": {"beforeTool": [{"matcher": "bash", "command": "echo 'no shell today' >&2; exit 2"}]}
}`), 0o600)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("h1", "bash", `{"command":"echo hi"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "say hi")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if got := toolResult(t, r.stdout, "h1"); !strings.Contains(got, "no shell today") || !strings.Contains(got, "hook") {
		t.Fatalf("hook did not block: %q", got)
	}
	logs, _ := filepath.Glob(filepath.Join(e.sessionDir, "*", "events.jsonl"))
	b, _ := os.ReadFile(logs[0])
	if !strings.Contains(string(b), `"type":"hook"`) || !strings.Contains(string(b), `"blocked":true`) {
		t.Fatalf("hook run not audited in the session log:\n%s", b)
	}
}

func TestProjectRulesNeedTrustAndBlockInAutoAccept(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".zero"), 0o755)
	os.WriteFile(filepath.Join(dir, ".zero", "rules.json"), []byte(`{"rules": [
  {"id": "no-deploy", "on": "command", "match": "make deploy*", "action": "block", "reason": "deploys go through CI"}
]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte("deploy:\n\techo deployed > deployed.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ZERO.md"), []byte("# Rules\n- Always run gofmt before finishing.\n"), 0o644)
	e := newEnv(t)
	srv := llmtest.NewServer(t)

	// Untrusted: the project rule is ignored (and Zero says so).
	srv.Script(llmtest.Reply(tc("d1", "bash", `{"command":"make deploy"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "deploy")
	if r.code != 0 || !strings.Contains(r.stderr, "zero trust") {
		t.Fatalf("untrusted run: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "deployed.txt")); err != nil {
		t.Fatalf("untrusted project rule should not apply: %v", err)
	}
	os.Remove(filepath.Join(dir, "deployed.txt"))
	// ZERO.md prose is in the system prompt.
	sys := completions(srv)[0].Map()["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(sys, "Always run gofmt before finishing.") {
		t.Fatalf("ZERO.md not projected into the system prompt: %q", sys)
	}

	// Trusted: the block fires even in auto-accept.
	if tr := e.run(dir, "", "trust"); tr.code != 0 {
		t.Fatalf("zero trust: %d %s", tr.code, tr.stderr)
	}
	srv.Script(llmtest.Reply(tc("d2", "bash", `{"command":"make deploy"}`)), llmtest.Reply(llmtest.Text("ok")))
	r = e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "deploy")
	if r.code != 0 {
		t.Fatalf("trusted run: %d %s", r.code, r.stderr)
	}
	if got := toolResult(t, r.stdout, "d2"); !strings.Contains(got, "deploys go through CI") {
		t.Fatalf("rule did not block: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "deployed.txt")); err == nil {
		t.Fatal("blocked command ran")
	}
	st := e.run(dir, "", "rules", "status")
	if st.code != 0 || !strings.Contains(st.stdout, "no-deploy") || !strings.Contains(st.stdout, "trusted: true") {
		t.Fatalf("zero rules status: %q", st.stdout)
	}

	// Trust is pinned to content: a changed rules file (a git pull) is
	// ignored until the user trusts the folder again.
	os.WriteFile(filepath.Join(dir, ".zero", "rules.json"), []byte(`{"rules": []}`), 0o644)
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	r = e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "hi")
	if r.code != 0 || !strings.Contains(r.stderr, "changed since you trusted") {
		t.Fatalf("changed rules not flagged: %d %s", r.code, r.stderr)
	}
}

func TestGuardCommand(t *testing.T) {
	e := newEnv(t)
	r := e.run(t.TempDir(), "", "guard", "--json", "rm -rf ~")
	if r.code != 0 || !strings.Contains(r.stdout, `"verdict":"deny"`) || !strings.Contains(r.stdout, `"rule"`) {
		t.Fatalf("guard: %d %q", r.code, r.stdout)
	}
	r = e.run(t.TempDir(), "", "guard", `git commit -m "reset --hard"`)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "allow") {
		t.Fatalf("guard: %d %q", r.code, r.stdout)
	}
}

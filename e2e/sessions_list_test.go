package e2e

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestSessionsCountsPrompts: zero sessions' PROMPTS column counts prompts
// (one per exec here), while exec's summary counts turns as model
// requests; -h says which is which.
func TestSessionsCountsPrompts(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("s1", "list_dir", `{"path":"."}`)),
		llmtest.Reply(llmtest.Text("an empty folder")),
		llmtest.Reply(llmtest.Text("still empty")),
	)
	first := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "what is here?")
	if first.code != 0 || !strings.Contains(first.stderr, "· 2 turns · 1 tool call ·") {
		t.Fatalf("first exec: exit %d\n%s", first.code, first.stderr)
	}
	rows := func() [][]string {
		r := e.run(dir, "", "sessions")
		if r.code != 0 {
			t.Fatalf("zero sessions: exit %d %s", r.code, r.stderr)
		}
		var out [][]string
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			out = append(out, strings.Fields(l))
		}
		return out
	}
	// ID, UPDATED (date and time), PROMPTS, FIRST PROMPT
	if got := rows(); len(got) != 2 || strings.Join(got[0], " ") != "ID UPDATED PROMPTS FIRST PROMPT" || got[1][3] != "1" {
		t.Fatalf("after one prompt of two turns: %q", got)
	}
	second := e.run(dir, "", "exec", "--resume", "--base-url", srv.URL(), "--model", "m", "and now?")
	if second.code != 0 || !strings.Contains(second.stderr, "· 1 turn · 0 tool calls ·") {
		t.Fatalf("resumed exec: exit %d\n%s", second.code, second.stderr)
	}
	if got := rows(); len(got) != 2 || got[1][3] != "2" {
		t.Fatalf("after a second prompt: %q", got)
	}
	help := e.run(dir, "", "sessions", "-h")
	if help.code != 0 || !strings.Contains(help.stdout, "PROMPTS       prompts sent in the session") || !strings.Contains(help.stdout, "count model requests, not prompts") {
		t.Fatalf("zero sessions -h: exit %d\n%s", help.code, help.stdout)
	}
}

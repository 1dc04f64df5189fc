package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestEndToEndSubagentAsksPermissionLabelled: the real binary in tmux,
// normal mode, a 64K window (the task tool is offered from 32K). /agents
// lists the built-ins and the user's definition. The parent hands a write to the general sub-agent; while it runs its status
// line shows under the parent's, and its write asks in the app's ordinary
// prompt labelled with the agent's name; "y" lets it write, its answer
// returns as the task card's result naming its session, its status line
// goes, and the parent's reply ends the turn. The fake server tells
// parent and child apart by their requests: the child's holds the
// sub-agent brief, the parent's second the task result's note.
func TestEndToEndSubagentAsksPermissionLabelled(t *testing.T) {
	bin := buildZero(t)
	home := t.TempDir()
	testbin.WriteTree(t, home, map[string]string{
		".config/zero/config.json":   `{"contextWindow": 65536}`,
		".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews the diff\n---\nReview it.\n",
	})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: write notes.txt","agent":"general"}`)).When("PARENT-JOB"),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"from the child\n"}`)).When("You are a sub-agent"),
		llmtest.Reply(llmtest.Text("notes.txt written")).When("You are a sub-agent"),
		llmtest.Reply(llmtest.Text("the worker wrote the notes")).When("sub-agent, session"),
	)
	x, work := startAppWithHome(t, bin, home, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("/agents")
	x.waitFor("the agents list", func(l []string) bool {
		return contains(l, "explore  (built-in)") && contains(l, "reviewer  (user,") && contains(l, "Reviews the diff") &&
			contains(l, "the model runs one with the task tool")
	})
	x.typeLine("PARENT-JOB: take notes")
	x.waitFor("the sub-agent's labelled prompt", func(l []string) bool {
		return contains(l, "allow write_file?") && contains(l, "asked by the general sub-agent") && contains(l, "notes.txt") &&
			contains(l, "↳ general · write_file")
	})
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "y")
	x.waitFor("the parent's reply", func(l []string) bool { return contains(l, "the worker wrote the notes") && contains(l, "ask anything") })
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != "from the child\n" {
		t.Errorf("the allowed write did not happen: %q %v", b, err)
	}
	lines := x.screen()
	if !contains(lines, "⚙ task(agent=general") || !contains(lines, "[general sub-agent, session ") || contains(lines, "↳ general ·") {
		t.Errorf("the task card, its result naming the child's session, or a leftover status line:\n%s", strings.Join(lines, "\n"))
	}
	x.exit()
}

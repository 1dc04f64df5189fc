package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndSkillsAndCustomCommand: the real binary in tmux with a
// user's Claude Code skill and command. /skills lists the skill, /help the
// command, Tab completes "/gr" to "/greet " and shows its hint, and
// "/greet Ann" sends the command's template with its argument to the model.
func TestEndToEndSkillsAndCustomCommand(t *testing.T) {
	bin := buildZero(t)
	home := t.TempDir()
	for p, c := range map[string]string{
		".claude/skills/release-check/SKILL.md": "---\nname: release-check\ndescription: Check a release is ready to tag\n---\nRun the checklist.\n",
		".claude/commands/greet.md":             "---\ndescription: greet someone by name\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS, warmly.\n",
	} {
		full := filepath.Join(home, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("greeting sent")))
	x, _ := startAppWithHome(t, bin, home, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })

	x.typeLine("/skills")
	x.waitFor("the skills list", func(l []string) bool {
		return contains(l, "/release-check  (user)  Check a release is ready to tag")
	})
	x.typeLine("/help")
	x.waitFor("the custom commands in /help", func(l []string) bool {
		return contains(l, "custom commands and skills") && contains(l, "/greet NAME") && contains(l, "greet someone by name")
	})
	x.run("send-keys", "-t", "zero", "-l", "/gr")
	x.run("send-keys", "-t", "zero", "Tab")
	x.waitFor("the command's hint", func(l []string) bool { return contains(l, "NAME  greet someone by name") })
	// had Tab not completed the name, the line would be "/grAnn", an
	// unknown command, and no reply would come
	x.typeLine("Ann")
	x.waitFor("the reply", func(l []string) bool { return contains(l, "greeting sent") })

	var turns []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			turns = append(turns, r)
		}
	}
	if len(turns) != 1 {
		t.Fatalf("%d model requests, want 1", len(turns))
	}
	body, _ := json.Marshal(turns[0].Map()["messages"])
	if !strings.Contains(string(body), "Say hello to Ann, warmly.") {
		t.Errorf("the command was not expanded: %s", body)
	}
	x.exit()
}

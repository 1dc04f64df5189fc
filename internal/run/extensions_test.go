package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// userSkills writes n skills into home's ~/.claude/skills.
func userSkills(t *testing.T, home string, n int) {
	t.Helper()
	for i := range n {
		dir := filepath.Join(home, ".claude", "skills", fmt.Sprintf("skill-%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\ndescription: Does task number %d with care and attention to detail\n---\nBody %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSmallWindowListsASubsetAndKeepsTheSkillTool: with a window too small
// for every skill's line, the system prompt lists some and points to the
// skill tool's search, and the minimal profile still offers the tool; a
// roomy window lists them all.
func TestSmallWindowListsASubsetAndKeepsTheSkillTool(t *testing.T) {
	for _, tc := range []struct {
		window int
		all    bool
	}{{2048, false}, {200000, true}} {
		srv := llmtest.NewServer(t)
		home := isolate(t)
		userSkills(t, home, 40)
		t.Setenv("ZERO_CONTEXT_WINDOW", fmt.Sprint(tc.window))
		rt, _ := openIsolated(t, srv, Options{})
		sess := openSession(t, rt, Which{})
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		sess.Prompt(context.Background(), Turn{Prompt: "hi"})
		system := lastRequest(srv)["messages"].([]any)[0].(map[string]any)["content"].(string)
		listed := strings.Count(system, "\n- skill-")
		if tc.all != (listed == 40) || listed == 0 {
			t.Errorf("window %d: %d of 40 skills listed", tc.window, listed)
		}
		if pointer := strings.Contains(system, "more: call skill with"); pointer == tc.all {
			t.Errorf("window %d: search pointer %v:\n%s", tc.window, pointer, system)
		}
		if !strings.Contains(offered(srv), " skill ") {
			t.Errorf("window %d: skill tool not offered: %s", tc.window, offered(srv))
		}
		if want := fmt.Sprintf("(%d of 40 skills; /skills lists them)", listed); !strings.Contains(sess.ContextReport().String(), want) {
			t.Errorf("window %d: /context lacks %q:\n%s", tc.window, want, sess.ContextReport().String())
		}
	}
}

// TestCommandLineRefusedInPlanMode: a command's !`cmd` goes through the
// permission gate like the model's bash call, so plan mode refuses it,
// the prompt stops with the error, and no request is made.
func TestCommandLineRefusedInPlanMode(t *testing.T) {
	srv := llmtest.NewServer(t)
	home := isolate(t)
	dir := filepath.Join(home, ".claude", "commands")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "status.md"), []byte("State: !`touch made-by-command`\n"), 0o644)
	rt, _ := openIsolated(t, srv, Options{Mode: "plan"})
	sess := openSession(t, rt, Which{})
	var errs []string
	res := sess.Prompt(context.Background(), Turn{Prompt: "/status", Sink: event.SinkFunc(func(e event.Event) {
		if e.Type == event.Error {
			errs = append(errs, e.Text)
		}
	})})
	if res.StopReason != event.StopError || len(errs) != 1 || !strings.Contains(errs[0], "/status: !`touch made-by-command`: refused") {
		t.Fatalf("stop %s, errors %q", res.StopReason, errs)
	}
	if _, err := os.Stat(filepath.Join(rt.Workspace.Root(), "made-by-command")); err == nil {
		t.Error("the refused command ran")
	}
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			t.Errorf("a model request was made: %s", r.Path)
		}
	}
}

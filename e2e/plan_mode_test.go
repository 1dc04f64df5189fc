package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestPlanModeAndAutoApproveContradict: asking for plan mode and
// auto-approval at once is a usage error, before any request (issue 10
// item 7; it used to run in plan mode silently).
func TestPlanModeAndAutoApproveContradict(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	r := e.run(t.TempDir(), "", "exec", "--permission-mode", "plan", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "plan it")
	if r.code != 2 || !strings.Contains(r.stderr, "contradict") || len(completions(srv)) != 0 {
		t.Fatalf("exit %d, %d requests: %s", r.code, len(completions(srv)), r.stderr)
	}
}

// TestPlanModeIsReadOnlyAndSaysSo: plan mode offers read-only tools, its
// system prompt tells the model it is planning, and no file changes.
func TestPlanModeIsReadOnlyAndSaysSo(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("p1", "write_file", `{"path":"main.go","content":"changed\n"}`)), llmtest.Reply(llmtest.Text("plan: 1. change main.go")))
	r := e.run(dir, "", "exec", "--permission-mode", "plan", "--base-url", srv.URL(), "--model", "m", "plan it")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n" {
		t.Fatal("plan mode changed a file")
	}
	req := completions(srv)[0].Map()
	for _, tl := range req["tools"].([]any) {
		name := tl.(map[string]any)["function"].(map[string]any)["name"]
		if name == "write_file" || name == "edit_file" || name == "bash" {
			t.Fatalf("plan mode offered %v", name)
		}
	}
	system := req["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(system, "You are in plan mode") || !strings.Contains(system, "make no edits") {
		t.Fatalf("system prompt does not say plan mode:\n%s", system)
	}
	if user := req["messages"].([]any)[1].(map[string]any)["content"]; user != "plan it" {
		t.Fatalf("the prompt was changed: %v", user)
	}
}

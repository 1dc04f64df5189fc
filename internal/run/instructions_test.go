package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/rules"
)

// messages is the messages of the i-th chat completion request the fake
// server received (it also answers model lists).
func messages(srv *llmtest.Server, i int) []map[string]any {
	var chats []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			chats = append(chats, r)
		}
	}
	var out []map[string]any
	for _, m := range chats[i].Map()["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// TestSystemPromptWithOnlyZeroMDIsUnchanged: a workspace with only ZERO.md
// sends the system prompt Zero sent before AGENTS.md and CLAUDE.md were
// read, byte for byte (the prompt cache depends on it).
func TestSystemPromptWithOnlyZeroMDIsUnchanged(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := CanonicalDir(t.TempDir())
	prose := "# Rules\n\n- Always run gofmt before finishing.\n"
	os.WriteFile(filepath.Join(dir, rules.ProseFile), []byte(prose), 0o644)
	rt, _ := openTest(t, srv, Options{Workdir: dir})
	sess := openSession(t, rt, Which{})
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	sess.Prompt(context.Background(), Turn{Prompt: "hi"})
	want := agent.SystemPrompt(dir, sess.started, "Project rules (ZERO.md):\n"+rules.Project(prose, 0))
	if got := messages(srv, 0)[0]["content"]; got != want {
		t.Fatalf("system prompt:\n%q\nwant\n%q", got, want)
	}
}

// TestNestedAgentsMDJoinsTheFirstToolResultInItsFolder: the root's
// AGENTS.md is in the system prompt; pkg/AGENTS.md reaches the model with
// the first read in pkg/, once, and /memory's list shows it.
func TestNestedAgentsMDJoinsTheFirstToolResultInItsFolder(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := CanonicalDir(t.TempDir())
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Root rule: run go test.\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
	os.WriteFile(filepath.Join(dir, "pkg", "AGENTS.md"), []byte("Pkg rule: no globals.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pkg", "a.go"), []byte("package pkg\n"), 0o644)
	rt, _ := openTest(t, srv, Options{Workdir: dir})
	sess := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"pkg/a.go"}`)),
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"pkg/a.go"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	if res := sess.Prompt(context.Background(), Turn{Prompt: "read pkg/a.go twice"}); res.StopReason != event.StopCompleted {
		t.Fatalf("stop %s", res.StopReason)
	}
	msgs := messages(srv, 2)
	if sys := msgs[0]["content"].(string); !strings.Contains(sys, "Project instructions (AGENTS.md):\nRoot rule: run go test.") || strings.Contains(sys, "Pkg rule") {
		t.Fatalf("system prompt:\n%s", sys)
	}
	var results []string
	for _, m := range msgs {
		if m["role"] == "tool" {
			results = append(results, m["content"].(string))
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "package pkg") ||
		!strings.HasSuffix(results[0], "\n\nInstructions for this folder (pkg/AGENTS.md):\nPkg rule: no globals.") ||
		strings.Contains(results[1], "Pkg rule") {
		t.Fatalf("tool results: %q", results)
	}
	if r := sess.Instructions().Report(); !strings.Contains(r, "nested   pkg/AGENTS.md") || !strings.Contains(r, "project  AGENTS.md") {
		t.Fatalf("/memory list:\n%s", r)
	}
}

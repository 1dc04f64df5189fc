package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func TestVendorWithoutKeyFailsFast(t *testing.T) {
	e := newEnv(t)
	start := time.Now()
	r := e.run(t.TempDir(), "", "exec", "--provider", "openai", "--model", "gpt-4.1", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, "OPENAI_API_KEY") || time.Since(start) > 20*time.Second {
		t.Fatalf("exit %d after %s: %s", r.code, time.Since(start), r.stderr)
	}
}

func TestBaseURLAloneUsesTheServersFirstModel(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.SetModels("qwen3-coder-30b", "other")
	srv.Script(llmtest.Reply(llmtest.Text("hello")))
	r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "hi")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "hello" {
		t.Fatalf("exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	if m := completions(srv)[0].Map()["model"]; m != "qwen3-coder-30b" {
		t.Fatalf("model %v", m)
	}
}

// TestAppWithoutATerminalSaysSoAndKeepsNothing: `echo hi | zero` (no
// terminal) is a usage error that says what to run instead, not a raw
// TTY error, and leaves no session behind (issue 10 item 7).
func TestAppWithoutATerminalSaysSoAndKeepsNothing(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	r := e.run(t.TempDir(), "hi\n", "--base-url", srv.URL(), "--model", "m")
	if r.code != 2 || !strings.Contains(r.stderr, "needs a terminal") || !strings.Contains(r.stderr, "zero exec") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(e.sessionDir); len(entries) != 0 {
		t.Fatalf("a session was left: %v", entries)
	}
	if len(completions(srv)) != 0 {
		t.Fatal("the model was asked")
	}
}

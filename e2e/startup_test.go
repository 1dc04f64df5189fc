package e2e

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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

func TestTextModeNeutralisesEscapesAndShowsTheAnswerOnce(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Text("Looking.\x1b]0;TITLEHACK\x07"), tc("e1", "bash", `{"command":"printf '\\033[2J'; echo visible"}`)),
		llmtest.Reply(llmtest.Text("The answer is 42.")),
	)
	r := e.run(t.TempDir(), "", "exec", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "go")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("escape sequence reached the terminal: %q", r.stderr)
	}
	if !strings.Contains(r.stderr, "Looking.") || !strings.Contains(r.stderr, "visible") {
		t.Fatalf("progress lost text: %q", r.stderr)
	}
	if strings.Contains(r.stderr, "The answer is 42.") || strings.TrimSpace(r.stdout) != "The answer is 42." {
		t.Fatalf("final answer should be on stdout only: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestShellDoesNotSeeProviderKeys(t *testing.T) {
	e := newEnv(t)
	e.vars = append(e.vars, "OPENAI_API_KEY=sk-test-should-not-leak", "MY_SERVICE_TOKEN=tok-should-not-leak")
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("k1", "bash", `{"command":"env | rev"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(t.TempDir(), "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "env")
	out := toolResult(t, r.stdout, "k1")
	if strings.Contains(out, "kael-ton-dluohs") || strings.Contains(out, "tset-ks") || !strings.Contains(out, "HTAP") {
		t.Fatalf("bash environment: %q", out)
	}
}

func TestSIGTERMEndsTheRunCleanly(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("partial "), llmtest.Stall(time.Minute)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, zeroBin, "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "long")
	cmd.Dir, cmd.Env = dir, e.vars
	out, _ := cmd.StdoutPipe()
	cmd.Start()
	sc := bufio.NewScanner(out)
	var last string
	for sc.Scan() {
		last = sc.Text()
		if strings.Contains(last, `"type":"text"`) {
			cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("want exit 130, got %v", err)
	}
	if !strings.Contains(last, `"type":"run_end"`) || !strings.Contains(last, `"stopReason":"interrupted"`) {
		t.Fatalf("last line %s", last)
	}
}

func TestPermissionRequestCarriesRunID(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("w1", "write_file", `{"path":"a.txt","content":"x"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(t.TempDir(), "", "exec", "-i", "stream-json", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "write")
	evs := parseStream(t, r.stdout)
	runID := evs[0]["runId"]
	var seen bool
	for _, ev := range evs {
		if ev["type"] == "permission_request" {
			seen = true
			if ev["runId"] != runID || ev["turn"] != float64(1) || strings.HasPrefix(ev["time"].(string), "0001") {
				t.Fatalf("permission_request not stamped: %v", ev)
			}
		}
	}
	if !seen {
		t.Fatalf("no permission_request: %s", r.stdout)
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

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// The `zero acp` tests run the real binary as an editor's agent and drive
// it with the official TypeScript client from npm (e2e/acpclient,
// installed by .ci/run); the Go SDK's client drives it in internal/acp.

// acpRun is what e2e/acpclient/zero-acp-client.mjs printed.
type acpRun struct {
	Init struct {
		AgentCapabilities map[string]any   `json:"agentCapabilities"`
		AuthMethods       []map[string]any `json:"authMethods"`
	} `json:"init"`
	AuthErrors []struct {
		Step    string `json:"step"`
		OK      bool   `json:"ok"`
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	} `json:"authErrors"`
	SessionID   string           `json:"sessionId"`
	StopReason  string           `json:"stopReason"`
	Updates     []map[string]any `json:"updates"`
	Permissions []struct {
		ToolCall map[string]any   `json:"toolCall"`
		Options  []map[string]any `json:"options"`
	} `json:"permissions"`
	FSRequests       []struct{ Method, Path string } `json:"fsRequests"`
	Buffers          map[string]string               `json:"buffers"`
	TerminalRequests []map[string]any                `json:"terminalRequests"`
	OpenTerminals    int                             `json:"openTerminals"`
	ExitCode         int                             `json:"exitCode"`
	stderr           string
}

// acpClient runs the TypeScript client's scenario against `zero acp
// --base-url srv` in dir; answers are the permission options it picks,
// in order.
func acpClient(t *testing.T, e *env, dir string, srv *llmtest.Server, answers []string, scenario, arg string, env ...string) acpRun {
	t.Helper()
	return acpClientArgs(t, e, dir, []string{"--base-url", srv.URL(), "--model", "m"}, answers, scenario, arg, env...)
}

// acpClientArgs is acpClient with `zero acp`'s arguments.
func acpClientArgs(t *testing.T, e *env, dir string, zeroArgs, answers []string, scenario, arg string, env ...string) acpRun {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("acpclient", "zero-acp-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("acpclient", "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		t.Fatal("@agentclientprotocol/sdk is not installed: run `npm ci --prefix e2e/acpclient` (.ci/run does)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script, zeroBin, scenario, arg}, zeroArgs...)...)
	cmd.Dir, cmd.Env = dir, append(append(e.vars, "ZERO_ACP_ANSWERS="+strings.Join(answers, ",")), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var r acpRun
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("client output %q: %v\n%s", out, err, stderr.String())
	}
	r.stderr = stderr.String()
	if r.ExitCode != 0 {
		t.Fatalf("zero acp exited %d after its client closed stdin\n%s", r.ExitCode, r.stderr)
	}
	return r
}

// kinds lists updates as "sessionUpdate[:kind or status]".
func (r acpRun) kinds() []string {
	var out []string
	for _, u := range r.Updates {
		k, _ := u["sessionUpdate"].(string)
		switch {
		case u["kind"] != nil:
			k += ":" + u["kind"].(string)
		case u["status"] != nil:
			k += ":" + u["status"].(string)
		}
		out = append(out, k)
	}
	return out
}

func TestACPFixesABugWithPermissionRequestsThenLoadsInAFreshProcess(t *testing.T) {
	e := newEnv(t)
	dir, original := buggyModule(t)
	srv := llmtest.NewServer(t)
	srv.Script(fixScript()...)
	r := acpClient(t, e, dir, srv, []string{"allow_once", "allow_always"}, "prompt", "List.Back returns the wrong element; fix it")
	if r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "list.go")); string(got) != string(original) {
		t.Errorf("list.go not fixed")
	}
	if r.Init.AgentCapabilities["loadSession"] != true {
		t.Errorf("capabilities %v", r.Init.AgentCapabilities)
	}
	// The edit and go test ask (normal mode); grep and read_file do not.
	if len(r.Permissions) != 2 || len(r.Permissions[0].Options) != 4 {
		t.Fatalf("permission requests %+v", r.Permissions)
	}
	if r.Permissions[0].ToolCall["kind"] != "edit" || r.Permissions[1].ToolCall["kind"] != "execute" {
		t.Errorf("permission kinds %v, %v", r.Permissions[0].ToolCall["kind"], r.Permissions[1].ToolCall["kind"])
	}
	got := strings.Join(r.kinds(), " ")
	for _, want := range []string{"tool_call:search", "tool_call:read", "tool_call:edit", "tool_call:execute", "tool_call_update:completed", "agent_message_chunk"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in %s", want, got)
		}
	}
	var diff, testOutput bool
	for _, u := range r.Updates {
		b, _ := json.Marshal(u["content"])
		diff = diff || strings.Contains(string(b), `"type":"diff"`) && strings.Contains(string(b), "return l.root.prev")
		testOutput = testOutput || strings.Contains(string(b), "ok") && strings.Contains(string(b), "example.com/list")
	}
	if !diff || !testOutput {
		t.Errorf("diff content %v, go test output %v", diff, testOutput)
	}

	loaded := acpClient(t, e, dir, srv, nil, "load", r.SessionID)
	replay := strings.Join(loaded.kinds(), " ")
	for _, want := range []string{"user_message_chunk", "tool_call:edit", "tool_call_update:completed", "agent_message_chunk"} {
		if !strings.Contains(replay, want) {
			t.Errorf("session/load replayed no %s: %s", want, replay)
		}
	}
}

func TestACPEditsTheEditorsUnsavedBuffer(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte("saved text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "read_file", `{"path":"notes.txt"}`)),
		llmtest.Reply(tc("c2", "edit_file", `{"path":"notes.txt","old_string":"typed, not saved","new_string":"fixed"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	buffers, _ := json.Marshal(map[string]string{real: "typed, not saved\n"})
	r := acpClient(t, e, dir, srv, []string{"allow_once"}, "prompt", "fix notes.txt", "ZERO_ACP_BUFFERS="+string(buffers))
	if r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	if got := r.Buffers[real]; got != "fixed\n" {
		t.Errorf("the editor's buffer is %q (fs requests %+v)\n%s", got, r.FSRequests, r.stderr)
	}
	if disk, _ := os.ReadFile(path); string(disk) != "saved text\n" {
		t.Errorf("the file on disk changed: %q", disk)
	}
}

func TestACPCancelEndsTheRunningCommandAfterAModeSwitch(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	marker := "27.1828"
	srv.Script(llmtest.Reply(tc("c1", "bash", `{"command":"sleep `+marker+`"}`)), llmtest.Reply(llmtest.Text("never")))
	r := acpClient(t, e, dir, srv, nil, "cancel", "wait a while")
	if r.StopReason != "cancelled" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	if len(r.Permissions) != 0 {
		t.Errorf("auto-accept asked %d times", len(r.Permissions))
	}
	if got := strings.Join(r.kinds(), " "); !strings.Contains(got, "current_mode_update") || !strings.Contains(got, "tool_call_update:failed") {
		t.Errorf("updates %s", got)
	}
	// zero has exited; the sandbox's inner process dies with its parent.
	for end := time.Now().Add(10 * time.Second); processWith(marker); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the cancelled command outlived zero acp")
		}
	}
}

func TestACPSwitchToAutoAcceptSettlesTheWaitingPermissionRequest(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "write_file", `{"path":"a.txt","content":"a\n"}`)),
		llmtest.Reply(tc("c2", "write_file", `{"path":"b.txt","content":"b\n"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	// The client switches to auto-accept while the first write's request
	// shows, then answers it reject_once: the switch settled it first.
	r := acpClient(t, e, dir, srv, nil, "switch", "write a.txt and b.txt")
	if r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	if len(r.Permissions) != 1 {
		t.Errorf("asked %d times, want once (the write after the switch runs without asking)", len(r.Permissions))
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if got, err := os.ReadFile(filepath.Join(dir, f)); err != nil || len(got) != 2 {
			t.Errorf("%s = %q, %v", f, got, err)
		}
	}
	if got := strings.Join(r.kinds(), " "); !strings.Contains(got, "current_mode_update") {
		t.Errorf("no current_mode_update in %s", got)
	}
}

func TestACPAuthenticatesWithAnAPIKeyMethod(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("Hello through OpenAI's key.")))
	// Zero's config picks Anthropic, whose key is unset; OpenAI's key is
	// set, its base URL at the fake server.
	testbin.WriteTree(t, e.home, map[string]string{".config/zero/config.json": `{"activeProvider":"anthropic"}`})
	env := append(srv.Env(), "ZERO_ACP_AUTH_MISSING=anthropic-api-key")
	r := acpClientArgs(t, e, dir, nil, nil, "auth", "openai-api-key", env...)
	var ids []string
	for _, m := range r.Init.AuthMethods {
		ids = append(ids, fmt.Sprint(m["id"]))
	}
	if got := strings.Join(ids, " "); got != "zero-config openai-api-key anthropic-api-key gemini-api-key" {
		t.Errorf("auth methods the official client kept: %s", got)
	}
	// session/new and authenticate before the key's method, and
	// session/new after logout (the choice is the config's again).
	if len(r.AuthErrors) != 3 || r.AuthErrors[2].Step != "session/new after logout" {
		t.Fatalf("auth steps %+v", r.AuthErrors)
	}
	for _, a := range r.AuthErrors {
		if a.OK || a.Code != -32000 || !strings.Contains(fmt.Sprint(a.Data), "ANTHROPIC_API_KEY") {
			t.Errorf("%s without Anthropic's key: %+v, want auth_required naming ANTHROPIC_API_KEY", a.Step, a)
		}
	}
	if r.StopReason != "end_turn" || srv.Remaining() != 0 {
		t.Fatalf("after openai-api-key: stop reason %q, %d scripted replies left\n%s", r.StopReason, srv.Remaining(), r.stderr)
	}
}

// processWith reports whether a process has arg on its command line.
func processWith(arg string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), arg) {
			return true
		}
	}
	return false
}

func TestACPQuitEditorLeavesNoCommandRunning(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	marker := "23.1406"
	srv.Script(llmtest.Reply(tc("c1", "bash", `{"command":"sleep `+marker+`"}`)), llmtest.Reply(llmtest.Text("never")))
	// The editor closes zero's stdin once sleep runs, sending no cancel;
	// acpClient checks zero then exits 0.
	r := acpClient(t, e, dir, srv, nil, "hangup", "wait a while", `ZERO_ACP_HANGUP_ON=sleep\0`+marker)
	if r.StopReason != "zero exited" && r.StopReason != "cancelled" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	for end := time.Now().Add(10 * time.Second); processWith(marker); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the command outlived zero acp after its stdin closed")
		}
	}
}

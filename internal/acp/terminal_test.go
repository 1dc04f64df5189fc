package acp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// terminals are an editor's terminal/* for tests: each command runs as
// a child process of the test (outside any sandbox), as an editor's
// terminal would.
type terminals struct {
	mu      sync.Mutex
	next    int
	byID    map[string]*terminal
	created []acpsdk.CreateTerminalRequest
}

type terminal struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (ts *terminals) create(p acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	t := &terminal{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = t.out, t.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return acpsdk.CreateTerminalResponse{}, acpsdk.NewInternalError(err.Error())
	}
	go func() {
		_ = cmd.Wait()
		close(t.done)
	}()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.next++
	id := fmt.Sprintf("term-%d", ts.next)
	if ts.byID == nil {
		ts.byID = map[string]*terminal{}
	}
	ts.byID[id] = t
	ts.created = append(ts.created, p)
	return acpsdk.CreateTerminalResponse{TerminalId: id}, nil
}

func (ts *terminals) get(id string) (*terminal, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.byID[id]
	if t == nil {
		return nil, acpsdk.NewInvalidParams("no terminal " + id)
	}
	return t, nil
}

func (ts *terminals) wait(id string) (acpsdk.WaitForTerminalExitResponse, error) {
	t, err := ts.get(id)
	if err != nil {
		return acpsdk.WaitForTerminalExitResponse{}, err
	}
	<-t.done
	return t.status(), nil
}

func (t *terminal) status() acpsdk.WaitForTerminalExitResponse {
	ws := t.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return acpsdk.WaitForTerminalExitResponse{Signal: acpsdk.Ptr("SIG" + strings.ToUpper(strings.TrimPrefix(ws.Signal().String(), "signal ")))}
	}
	return acpsdk.WaitForTerminalExitResponse{ExitCode: acpsdk.Ptr(ws.ExitStatus())}
}

func (ts *terminals) output(id string) (acpsdk.TerminalOutputResponse, error) {
	t, err := ts.get(id)
	if err != nil {
		return acpsdk.TerminalOutputResponse{}, err
	}
	return acpsdk.TerminalOutputResponse{Output: t.out.String()}, nil
}

func (ts *terminals) kill(id string) error {
	t, err := ts.get(id)
	if err != nil {
		return err
	}
	return syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
}

func (ts *terminals) release(id string) error {
	t, err := ts.get(id)
	if err != nil {
		return err
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	ts.mu.Lock()
	delete(ts.byID, id)
	ts.mu.Unlock()
	return nil
}

func (ts *terminals) open() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.byID)
}

// terminalConfig opts in to the editor's terminal in the user's config.
func terminalConfig(t *testing.T, on bool) {
	t.Helper()
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"acp":{"terminal":%v}}`, on)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newTerminalSession opens a session for a client that offers terminal/*.
func (b *bridge) newTerminalSession(t *testing.T, dir string) acpsdk.SessionId {
	t.Helper()
	ctx := context.Background()
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber, ClientCapabilities: acpsdk.ClientCapabilities{Terminal: true}}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	b.autoAccept(t, resp.SessionId)
	return resp.SessionId
}

func TestOptedInCommandsRunInTheEditorsTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	terminalConfig(t, true)
	// Outside the sandbox the command can write where bubblewrap would
	// not let it: a directory outside the workspace.
	outside := filepath.Join(t.TempDir(), "outside.txt")
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("bash", fmt.Sprintf(`{"command":"echo in the terminal; touch %s; exit 3"}`, outside))),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{terminals: &terminals{}}
	b := startBridge(t, srv, c)
	id := b.newTerminalSession(t, dir)
	b.prompt(t, id, "run it")
	if len(c.terminals.created) != 1 || c.terminals.created[0].Command != "bash" || *c.terminals.created[0].Cwd != dir {
		t.Fatalf("terminal/create requests: %s", jsonOf(c.terminals.created))
	}
	if c.terminals.open() != 0 {
		t.Error("the terminal was not released")
	}
	if body := lastCompletion(srv); !strings.Contains(body, "in the terminal") || !strings.Contains(body, "[exit code 3]") {
		t.Errorf("the model did not get the terminal's output and exit code: %s", body)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the command did not run in the editor's (unsandboxed) terminal: %v", err)
	}
	var embedded, final bool
	for _, u := range c.seen() {
		if tu := u.ToolCallUpdate; tu != nil && len(tu.Content) == 1 && tu.Content[0].Terminal != nil && tu.Content[0].Terminal.TerminalId == "term-1" {
			embedded = true
			final = tu.Status != nil && *tu.Status == acpsdk.ToolCallStatusFailed
		}
	}
	if !embedded || !final {
		t.Errorf("the terminal in the call's content: while running %v, in the result %v", embedded, final)
	}
}

func TestCommandsStayInTheSandboxWithoutTheOptIn(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	terminalConfig(t, false)
	srv.Script(llmtest.Reply(llmtest.ToolCall("bash", `{"command":"echo in the sandbox"}`)), llmtest.Reply(llmtest.Text("Done.")))
	c := &client{terminals: &terminals{}}
	b := startBridge(t, srv, c)
	b.prompt(t, b.newTerminalSession(t, dir), "run it")
	if len(c.terminals.created) != 0 {
		t.Errorf("the editor's terminal was used without the opt-in: %s", jsonOf(c.terminals.created))
	}
	if body := lastCompletion(srv); !strings.Contains(body, "in the sandbox") {
		t.Errorf("the command did not run: %s", body)
	}
}

func TestCancelKillsTheCommandInTheEditorsTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	terminalConfig(t, true)
	marker := fmt.Sprintf("42.%d", os.Getpid())
	srv.Script(llmtest.Reply(llmtest.ToolCall("bash", `{"command":"sleep `+marker+`"}`)), llmtest.Reply(llmtest.Text("never")))
	c := &client{terminals: &terminals{}}
	b := startBridge(t, srv, c)
	id := b.newTerminalSession(t, dir)
	go func() {
		for end := time.Now().Add(30 * time.Second); !running("sleep\x00"+marker) && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		_ = b.conn.Cancel(context.Background(), acpsdk.CancelNotification{SessionId: id})
	}()
	if got := b.prompt(t, id, "sleep"); got != acpsdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", got)
	}
	if !gone(marker, 5*time.Second) {
		t.Error("the terminal's command survived the cancel")
	}
	if c.terminals.open() != 0 {
		t.Error("the terminal was not released")
	}
}

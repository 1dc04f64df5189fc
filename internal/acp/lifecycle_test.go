package acp

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// startSleeps has the model start two commands that outlive a turn
// unless something ends them: an exec_command process (it keeps running
// after its call returns) and a bash command that runs while the test
// ends the session. It returns their markers and a channel closed once
// the bash one runs.
func startSleeps(t *testing.T, srv *llmtest.Server, c *client) (markers []string, started chan struct{}) {
	t.Helper()
	bg, fg := fmt.Sprintf("41.%d1", os.Getpid()), fmt.Sprintf("41.%d2", os.Getpid())
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("exec_command", `{"cmd":"sleep `+bg+`","yield_time_ms":100}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"sleep `+fg+`"}`)),
		llmtest.Reply(llmtest.Text("never")),
	)
	started = make(chan struct{})
	go func() {
		for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			if running("sleep\x00"+fg) && running("sleep\x00"+bg) {
				close(started)
				return
			}
		}
	}()
	return []string{bg, fg}, started
}

func waitRunning(t *testing.T, ch chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("the commands did not start")
	}
}

func TestClosingASessionEndsItsCommands(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	c := &client{}
	markers, started := startSleeps(t, srv, c)
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	b.autoAccept(t, id)
	done := make(chan acpsdk.StopReason, 1)
	go func() { done <- b.prompt(t, id, "start them") }()
	waitRunning(t, started)
	if _, err := b.conn.CloseSession(context.Background(), acpsdk.CloseSessionRequest{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	// session/close answers once the session is closed and its commands
	// are killed (the kernel may take a moment to tear a sandbox down).
	for _, m := range markers {
		if !gone(m, 5*time.Second) {
			t.Errorf("sleep %s runs after session/close answered", m)
		}
	}
	if r := <-done; r != acpsdk.StopReasonCancelled {
		t.Errorf("the prompt under way ended with %q, want cancelled", r)
	}
}

func TestEndOfStdinEndsEverySessionsCommands(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	c := &client{}
	markers, started := startSleeps(t, srv, c)
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	b.autoAccept(t, id)
	go func() {
		_, _ = b.conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: id, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("start them")}})
	}()
	waitRunning(t, started)
	// The editor goes away: Serve returns once every session is closed.
	b.close()
	for _, m := range markers {
		if !gone(m, 5*time.Second) {
			t.Errorf("sleep %s runs after zero acp's input ended", m)
		}
	}
}

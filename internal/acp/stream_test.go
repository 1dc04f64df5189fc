package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// autoAccept switches session id to auto-accept (workspace commands run
// without asking).
func (b *bridge) autoAccept(t testing.TB, id acpsdk.SessionId) {
	t.Helper()
	if _, err := b.conn.SetSessionMode(context.Background(), acpsdk.SetSessionModeRequest{SessionId: id, ModeId: "auto-accept"}); err != nil {
		t.Fatal(err)
	}
}

// toolText is the text of a tool_call_update's content.
func toolText(u *acpsdk.SessionToolCallUpdate) string {
	var sb strings.Builder
	for _, c := range u.Content {
		if c.Content != nil && c.Content.Content.Text != nil {
			sb.WriteString(c.Content.Content.Text.Text)
		}
	}
	return sb.String()
}

func TestCommandOutputStreamsWhileItRuns(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	// The command prints, then waits for the test to see that output in
	// the editor before it prints the rest.
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"echo first part; while [ ! -e release ]; do sleep 0.02; done; echo second part"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{}
	streamed := make(chan string, 16)
	c.onUpdate = func(u acpsdk.SessionUpdate) {
		if tu := u.ToolCallUpdate; tu != nil && tu.Status != nil && *tu.Status == acpsdk.ToolCallStatusInProgress {
			streamed <- toolText(tu)
		}
	}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	b.autoAccept(t, id)
	done := make(chan acpsdk.StopReason, 1)
	go func() { done <- b.prompt(t, id, "run it") }()
	deadline := time.After(30 * time.Second)
wait:
	for {
		select {
		case text := <-streamed:
			if strings.Contains(text, "second part") {
				t.Fatalf("streamed %q before the command was released", text)
			}
			if strings.Contains(text, "first part") {
				break wait
			}
		case r := <-done:
			t.Fatalf("the prompt ended (%s) before any output streamed", r)
		case <-deadline:
			t.Fatal("no output streamed while the command ran")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", r)
	}
	// The result is the last update of the call, with the whole output.
	var last *acpsdk.SessionToolCallUpdate
	for _, u := range c.seen() {
		if u.ToolCallUpdate != nil {
			last = u.ToolCallUpdate
		}
	}
	if last == nil || last.Status == nil || *last.Status != acpsdk.ToolCallStatusCompleted || !strings.Contains(toolText(last), "first part\nsecond part") {
		t.Errorf("last tool_call_update = %s", jsonOf(last))
	}
}

// recorder is a notifier that hands each update to a channel.
type recorder chan acpsdk.SessionUpdate

func (r recorder) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	r <- n.Update
	return nil
}

func TestStreamedOutputKeepsItsTailInWholeCharacters(t *testing.T) {
	rec := make(recorder, 8)
	u := newUpdates(rec, "s", t.TempDir(), func(string) (string, bool) { return "", false })
	line := strings.Repeat("é", 1000) + "\n" // 2001 bytes
	for range 20 {
		u.ToolOutput("call", []byte(line))
	}
	u.ToolOutput("call", []byte("the end\n"))
	var text string
	select {
	case up := <-rec:
		text = toolText(up.ToolCallUpdate)
	case <-time.After(30 * time.Second):
		t.Fatal("no update")
	}
	body := strings.TrimSuffix(strings.TrimPrefix(text, "```\n…\n"), "\n```")
	if body == text || !strings.HasSuffix(body, "the end") || len(body) > streamKeep || !utf8.ValidString(body) || strings.HasPrefix(body, "\ufffd") {
		t.Errorf("streamed %d bytes: %.40q … %q", len(body), body, body[max(0, len(body)-20):])
	}
	u.endStream("call")
	u.ToolOutput("call", []byte("late"))
	if st := u.streams["call"]; st.pending || st.buf != nil {
		t.Errorf("output after the result is kept for the editor: %+v", st)
	}
}

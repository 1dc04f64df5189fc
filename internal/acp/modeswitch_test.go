package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// readSession opens a session of a client that offers fs/read_text_file
// (its buffers), so a read_file call is a point in the turn where the
// test acts (client.onRead).
func (b *bridge) readSession(t *testing.T, dir string) acpsdk.SessionId {
	t.Helper()
	ctx := context.Background()
	caps := acpsdk.ClientCapabilities{Fs: acpsdk.FileSystemCapabilities{ReadTextFile: true}}
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.SessionId
}

// switchOnRead has the client switch session id to mode while the turn
// reads (once); the returned channel has the switch's error.
func (b *bridge) switchOnRead(id acpsdk.SessionId, mode string) <-chan error {
	errs := make(chan error, 1)
	var once sync.Once
	b.client.onRead = func() {
		once.Do(func() {
			_, err := b.conn.SetSessionMode(context.Background(), acpsdk.SetSessionModeRequest{SessionId: id, ModeId: acpsdk.SessionModeId(mode)})
			errs <- err
		})
	}
	return errs
}

// switchErr is the error of the switch switchOnRead made.
func switchErr(t *testing.T, switched <-chan error) error {
	t.Helper()
	select {
	case err := <-switched:
		return err
	default:
		t.Fatal("the turn did not read through the editor, so nothing switched")
	}
	return nil
}

// writeA writes dir/a.txt, which the editor has open.
func writeA(t *testing.T, dir string) string {
	t.Helper()
	a := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(a, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return a
}

// completions are the chat completion requests srv got, decoded.
func completions(t *testing.T, srv *llmtest.Server) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			m, ok := r.JSON.(map[string]any)
			if !ok {
				t.Fatalf("request body %s", r.Body)
			}
			out = append(out, m)
		}
	}
	return out
}

func TestModeSwitchToAutoAcceptMidTurnRunsTheNextToolCallWithoutAsking(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.txt"}`)),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"b.txt","content":"b\n"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	a := writeA(t, dir)
	c := &client{answer: "reject_once", buffers: map[string]string{a: "a\n"}}
	b := startBridge(t, srv, c)
	id := b.readSession(t, dir)
	switched := b.switchOnRead(id, "auto-accept")
	if got := b.prompt(t, id, "copy a.txt to b.txt"); got != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if err := switchErr(t, switched); err != nil {
		t.Fatalf("session/set_mode during the prompt: %v", err)
	}
	if len(c.asked) != 0 {
		t.Errorf("the write after the switch asked: %+v", c.asked)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "b.txt")); err != nil || string(got) != "b\n" {
		t.Errorf("b.txt = %q, %v", got, err)
	}
	var update bool
	for _, u := range c.seen() {
		update = update || u.CurrentModeUpdate != nil && u.CurrentModeUpdate.CurrentModeId == "auto-accept"
	}
	if !update {
		t.Error("no current_mode_update for the switch")
	}
}

func TestPlanModeMidTurnRefusesTheNextWriteAndNarrowsTheToolsAtThePromptsEnd(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.txt"}`)),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"b.txt","content":"b\n"}`)),
		llmtest.Reply(llmtest.Text("Stopped.")),
		llmtest.Reply(llmtest.Text("A plan.")),
	)
	a := writeA(t, dir)
	c := &client{answer: "allow_once", buffers: map[string]string{a: "a\n"}}
	b := startBridge(t, srv, c)
	id := b.readSession(t, dir)
	switched := b.switchOnRead(id, "plan")
	b.prompt(t, id, "copy a.txt to b.txt")
	if err := switchErr(t, switched); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil || len(c.asked) != 0 {
		t.Errorf("the write after the switch to plan ran or asked (asked %d times)", len(c.asked))
	}
	b.prompt(t, id, "plan it")
	reqs := completions(t, srv)
	if len(reqs) != 4 {
		t.Fatalf("%d completion requests, want 4", len(reqs))
	}
	if !strings.Contains(jsonOf(reqs[2]["messages"]), "plan mode allows read-only tools only") {
		t.Errorf("the model was not told plan mode refused the write: %s", jsonOf(reqs[2]["messages"]))
	}
	// Within the prompt every request opens as the first did (the
	// provider's prompt cache holds); the next prompt has plan's tools.
	system := func(r map[string]any) string { return jsonOf(r["messages"].([]any)[0]) }
	for i := 1; i < 3; i++ {
		if jsonOf(reqs[i]["tools"]) != jsonOf(reqs[0]["tools"]) || system(reqs[i]) != system(reqs[0]) {
			t.Errorf("request %d of the prompt changed its tools or system prompt", i+1)
		}
	}
	if strings.Contains(jsonOf(reqs[3]["tools"]), `"write_file"`) || !strings.Contains(jsonOf(reqs[0]["tools"]), `"write_file"`) {
		t.Errorf("write_file offered in plan mode's prompt, or not before it")
	}
}

func TestSwitchToAutoAcceptSettlesAWaitingRequestButNotAGuardsQuestion(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"a.txt","content":"a\n"}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"git push --force"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	var mu sync.Mutex
	var cancelled []bool
	c.onAsk = func(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
		// The user clicks auto-accept while the editor shows the request.
		if _, err := b.conn.SetSessionMode(context.Background(), acpsdk.SetSessionModeRequest{SessionId: id, ModeId: "auto-accept"}); err != nil {
			t.Error(err)
		}
		if p.ToolCall.Kind != nil && *p.ToolCall.Kind == acpsdk.ToolKindEdit {
			select {
			case <-ctx.Done(): // zero's $/cancel_request
			case <-time.After(30 * time.Second):
			}
			mu.Lock()
			cancelled = append(cancelled, ctx.Err() != nil)
			mu.Unlock()
			return acpsdk.RequestPermissionResponse{}, ctx.Err()
		}
		// The guard's question is still the user's: they reject it.
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeSelected("reject_once")}, nil
	}
	if got := b.prompt(t, id, "write a.txt and push"); got != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if len(c.asked) != 2 {
		t.Fatalf("asked %d times, want the write and the push", len(c.asked))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(cancelled) != 1 || !cancelled[0] {
		t.Errorf("the editor's request for the write was not cancelled: %v", cancelled)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(got) != "a\n" {
		t.Errorf("the write settled by the switch did not run: %q, %v", got, err)
	}
	var results []string
	for _, m := range completions(t, srv)[2]["messages"].([]any) {
		if msg, ok := m.(map[string]any); ok && msg["role"] == "tool" {
			b, _ := json.Marshal(msg["content"])
			results = append(results, string(b))
		}
	}
	if len(results) != 2 || strings.Contains(results[0], "denied") || !strings.Contains(results[1], "the user denied this call") {
		t.Errorf("tool results %q: want the write run and the push denied by the user", results)
	}
}

func TestModelSwitchMidPromptAnswersAtOnceAndAppliesToTheNextPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.txt"}`)),
		llmtest.Reply(llmtest.Text("Read it.")),
		llmtest.Reply(llmtest.Text("On the other model.")),
	)
	c := &client{buffers: map[string]string{writeA(t, dir): "a\n"}}
	b := startBridge(t, srv, c)
	id := b.readSession(t, dir)
	var current string
	var setErr error
	c.onRead = func() {
		resp, err := b.conn.SetSessionConfigOption(context.Background(), acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: id, ConfigId: "model", Value: "other"}})
		setErr = err
		for _, o := range resp.ConfigOptions {
			if o.Select != nil && o.Select.Id == "model" {
				current = string(o.Select.CurrentValue)
			}
		}
	}
	b.prompt(t, id, "read a.txt")
	c.onRead = nil
	if setErr != nil || current != "other" {
		t.Fatalf("setting the model during the prompt: %v, current value %q", setErr, current)
	}
	b.prompt(t, id, "again")
	var models []any
	for _, r := range completions(t, srv) {
		models = append(models, r["model"])
	}
	if jsonOf(models) != `["m","m","other"]` {
		t.Errorf("models requested %s: the prompt under way keeps its model, the next uses the new one", jsonOf(models))
	}
}

package acp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	pngenc "image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/testbin"
)

// client is an editor for tests: it records every session/update and
// answers permission requests with answer.
type client struct {
	mu      sync.Mutex
	updates []acpsdk.SessionUpdate
	asked   []acpsdk.RequestPermissionRequest
	answer  acpsdk.PermissionOptionId
	// onUpdate, when set, sees each update as it arrives.
	onUpdate func(acpsdk.SessionUpdate)
	// buffers are the editor's open files (fs/read_text_file answers
	// them, and only them); written records fs/write_text_file.
	buffers map[string]string
	written map[string]string
	reads   []string
	// terminals, when set, are the editor's terminal/* (terminal_test.go).
	terminals *terminals
	// onAsk, when set, answers permission requests in answer's place
	// (ctx ends when zero cancels the request); onRead runs before a
	// read is answered (modeswitch_test.go).
	onAsk  func(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error)
	onRead func()
}

func (c *client) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n.Update)
	f := c.onUpdate
	c.mu.Unlock()
	if f != nil {
		f(n.Update)
	}
	return nil
}

func (c *client) RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, p)
	if f := c.onAsk; f != nil {
		c.mu.Unlock()
		defer c.mu.Lock()
		return f(ctx, p)
	}
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeSelected(c.answer)}, nil
}

func (c *client) seen() []acpsdk.SessionUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]acpsdk.SessionUpdate(nil), c.updates...)
}

func (c *client) ReadTextFile(_ context.Context, p acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	if c.onRead != nil {
		c.onRead()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, p.Path)
	text, ok := c.buffers[p.Path]
	if !ok {
		return acpsdk.ReadTextFileResponse{}, acpsdk.NewInvalidParams("not open: " + p.Path)
	}
	return acpsdk.ReadTextFileResponse{Content: text}, nil
}
func (c *client) WriteTextFile(_ context.Context, p acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.written == nil {
		return acpsdk.WriteTextFileResponse{}, acpsdk.NewMethodNotFound("fs/write_text_file")
	}
	c.written[p.Path] = p.Content
	c.buffers[p.Path] = p.Content
	return acpsdk.WriteTextFileResponse{}, nil
}
func (c *client) CreateTerminal(ctx context.Context, p acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	if c.terminals == nil {
		return acpsdk.CreateTerminalResponse{}, acpsdk.NewMethodNotFound("terminal/create")
	}
	return c.terminals.create(p)
}
func (c *client) KillTerminal(_ context.Context, p acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, c.terminals.kill(p.TerminalId)
}
func (c *client) TerminalOutput(_ context.Context, p acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return c.terminals.output(p.TerminalId)
}
func (c *client) ReleaseTerminal(_ context.Context, p acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, c.terminals.release(p.TerminalId)
}
func (c *client) WaitForTerminalExit(_ context.Context, p acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return c.terminals.wait(p.TerminalId)
}

// bridge is zero acp over pipes with an SDK client on the other end.
type bridge struct {
	conn   *acpsdk.ClientSideConnection
	client *client
	done   chan struct{}
	close  func()
}

// startBridge serves the bridge against the fake model server srv in
// the home the test isolated.
func startBridge(t testing.TB, srv *llmtest.Server, c *client) *bridge {
	t.Helper()
	return startBridgeWith(t, run.Options{Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}}, c)
}

// startBridgeWith serves the bridge with run options o.
func startBridgeWith(t testing.TB, o run.Options, c *client) *bridge {
	t.Helper()
	toAgent, agentIn := io.Pipe()
	agentOut, fromAgent := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(toAgent, fromAgent, Options{Run: o, Stderr: io.Discard})
		fromAgent.Close()
	}()
	b := &bridge{conn: acpsdk.NewClientSideConnection(c, agentIn, agentOut), client: c, done: done}
	b.close = sync.OnceFunc(func() {
		agentIn.Close()
		<-done
	})
	t.Cleanup(b.close)
	return b
}

func (b *bridge) newSession(t testing.TB, dir string) acpsdk.SessionId {
	t.Helper()
	ctx := context.Background()
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.SessionId
}

func (b *bridge) prompt(t *testing.T, id acpsdk.SessionId, text string) acpsdk.StopReason {
	t.Helper()
	resp, err := b.conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: id, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock(text)}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.StopReason
}

func workspace(t testing.TB) string {
	testbin.Isolate(t)
	return run.CanonicalDir(t.TempDir())
}

func TestInitializeAdvertisesWhatWorks(t *testing.T) {
	srv := llmtest.NewServer(t)
	b := startBridge(t, srv, &client{})
	workspace(t)
	resp, err := b.conn.Initialize(context.Background(), acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	caps := resp.AgentCapabilities
	if !caps.LoadSession || caps.SessionCapabilities.List == nil || caps.SessionCapabilities.Resume == nil || caps.SessionCapabilities.Close == nil {
		t.Errorf("session capabilities = %+v", caps)
	}
	if !caps.PromptCapabilities.Image || caps.PromptCapabilities.Audio || !caps.PromptCapabilities.EmbeddedContext {
		t.Errorf("prompt capabilities = %+v (images and embedded context work, audio does not)", caps.PromptCapabilities)
	}
	if !caps.McpCapabilities.Http || !caps.McpCapabilities.Sse || caps.McpCapabilities.Acp {
		t.Errorf("MCP capabilities %+v: HTTP and SSE servers from the client work, ACP-transport ones do not", caps.McpCapabilities)
	}
	// The local no-key method first; the API-key ones are auth_test.go's.
	if len(resp.AuthMethods) == 0 || resp.AuthMethods[0].Agent == nil || resp.AuthMethods[0].Agent.Id != "zero-config" {
		t.Fatalf("auth methods = %+v", resp.AuthMethods)
	}
	if _, err := b.conn.Authenticate(context.Background(), acpsdk.AuthenticateRequest{MethodId: resp.AuthMethods[0].Agent.Id}); err != nil {
		t.Errorf("authenticate with the advertised method: %v", err)
	}
	if _, err := b.conn.Authenticate(context.Background(), acpsdk.AuthenticateRequest{MethodId: "nope"}); err == nil {
		t.Error("authenticate with an unknown method succeeded")
	}
}

func TestPromptStreamsToolCallsPlanAndAsksPermission(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.Reasoning("Planning."), llmtest.Text("Writing it."),
			llmtest.ToolCall("update_plan", `{"plan":[{"step":"write a.txt","status":"in_progress"}]}`),
			llmtest.ToolCall("write_file", `{"path":"a.txt","content":"hi\n"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{answer: "allow_once"}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	if got := b.prompt(t, id, "write a.txt"); got != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("a.txt = %q, %v", b, err)
	}
	if len(c.asked) != 1 || len(c.asked[0].Options) != 4 || c.asked[0].ToolCall.Kind == nil || *c.asked[0].ToolCall.Kind != acpsdk.ToolKindEdit {
		t.Fatalf("permission requests = %+v", c.asked)
	}
	var thought, text, plan bool
	var edit *acpsdk.SessionUpdateToolCall
	var diff *acpsdk.ToolCallContentDiff
	for _, u := range c.seen() {
		switch {
		case u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text.Text == "Planning.":
			thought = true
		case u.AgentMessageChunk != nil && strings.Contains(u.AgentMessageChunk.Content.Text.Text, "Writing"):
			text = true
		case u.Plan != nil && len(u.Plan.Entries) == 1 && u.Plan.Entries[0].Status == acpsdk.PlanEntryStatusInProgress:
			plan = true
		case u.ToolCall != nil && u.ToolCall.Kind == acpsdk.ToolKindEdit:
			edit = u.ToolCall
		case u.ToolCallUpdate != nil && len(u.ToolCallUpdate.Content) > 0 && u.ToolCallUpdate.Content[0].Diff != nil:
			diff = u.ToolCallUpdate.Content[0].Diff
		}
	}
	if !thought || !text || !plan {
		t.Errorf("thought %v, text %v, plan %v in %d updates", thought, text, plan, len(c.seen()))
	}
	if edit == nil || len(edit.Locations) != 1 || edit.Locations[0].Path != filepath.Join(dir, "a.txt") {
		t.Fatalf("edit tool call = %+v", edit)
	}
	if diff == nil || diff.NewText != "hi\n" || diff.OldText != nil || diff.Path != filepath.Join(dir, "a.txt") {
		t.Fatalf("diff = %+v", diff)
	}
}

func TestRejectAlwaysIsSavedAndRefusesLaterIdenticalCallsWithoutAsking(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	call := llmtest.ToolCall("write_file", `{"path":"b.txt","content":"x"}`)
	srv.Script(llmtest.Reply(call), llmtest.Reply(call), llmtest.Reply(llmtest.Text("Gave up.")))
	c := &client{answer: "reject_always"}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	b.prompt(t, id, "write b.txt")
	if len(c.asked) != 1 {
		t.Errorf("asked %d times, want once", len(c.asked))
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt written despite the rejection")
	}
	// The denial is saved as allow_always's grants are: a fresh zero acp
	// refuses the same write without asking.
	b.close()
	srv.Script(llmtest.Reply(call), llmtest.Reply(llmtest.Text("Refused again.")))
	again := &client{answer: "allow_once"}
	b2 := startBridge(t, srv, again)
	b2.prompt(t, b2.newSession(t, dir), "write b.txt")
	if len(again.asked) != 0 {
		t.Errorf("a later session asked %d times about a call rejected always", len(again.asked))
	}
	if body := lastCompletion(srv); !strings.Contains(body, "rejected this always") {
		t.Errorf("the model was not told: %s", body)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("b.txt written in the later session")
	}
}

func TestCancelEndsRunningCommandAndTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	marker := "31.4159"
	srv.Script(llmtest.Reply(llmtest.ToolCall("bash", `{"command":"sleep `+marker+`"}`)), llmtest.Reply(llmtest.Text("never")))
	c := &client{answer: "allow_once"}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	if _, err := b.conn.SetSessionMode(context.Background(), acpsdk.SetSessionModeRequest{SessionId: id, ModeId: "auto-accept"}); err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 1)
	c.mu.Lock()
	c.onUpdate = func(u acpsdk.SessionUpdate) {
		if u.ToolCall != nil && u.ToolCall.Kind == acpsdk.ToolKindExecute {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	}
	c.mu.Unlock()
	go func() {
		<-started
		// Cancel once sleep itself runs: mid-command.
		for !running("sleep\x00" + marker) {
			time.Sleep(10 * time.Millisecond)
		}
		_ = b.conn.Cancel(context.Background(), acpsdk.CancelNotification{SessionId: id})
	}()
	if got := b.prompt(t, id, "sleep"); got != acpsdk.StopReasonCancelled {
		t.Fatalf("stop reason %q, want cancelled", got)
	}
	// A sandbox's pid namespace ends with its process group, a moment
	// after the kill.
	if !gone(marker, 10*time.Second) {
		t.Error("the command still runs after the turn was cancelled")
	}
	var modeUpdate bool
	for _, u := range c.seen() {
		if u.CurrentModeUpdate != nil && u.CurrentModeUpdate.CurrentModeId == "auto-accept" {
			modeUpdate = true
		}
	}
	if !modeUpdate {
		t.Error("no current_mode_update after session/set_mode")
	}
}

// gone waits until no process has arg on its command line, at most for d.
func gone(arg string, d time.Duration) bool {
	for end := time.Now().Add(d); running(arg); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// running reports whether a process has arg on its command line.
func running(arg string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), arg) && !strings.Contains(string(b), "go test") {
			return true
		}
	}
	return false
}

func TestLoadReplaysTheConversationInAFreshBridge(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"f.txt"}`)),
		llmtest.Reply(llmtest.Text("It says hello.")),
	)
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := startBridge(t, srv, &client{})
	id := first.newSession(t, dir)
	first.prompt(t, id, "what does f.txt say?")
	first.close()

	c := &client{}
	second := startBridge(t, srv, c)
	if _, err := second.conn.Initialize(context.Background(), acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	if _, err := second.conn.LoadSession(context.Background(), acpsdk.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []acpsdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, u := range c.seen() {
		switch {
		case u.UserMessageChunk != nil && strings.Contains(u.UserMessageChunk.Content.Text.Text, "what does f.txt say?"):
			kinds = append(kinds, "user")
		case u.ToolCall != nil && u.ToolCall.Kind == acpsdk.ToolKindRead:
			kinds = append(kinds, "read")
		case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil && *u.ToolCallUpdate.Status == acpsdk.ToolCallStatusCompleted:
			kinds = append(kinds, "result")
		case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text.Text == "It says hello.":
			kinds = append(kinds, "agent")
		}
	}
	if got := strings.Join(kinds, " "); got != "user read result agent" {
		t.Errorf("replayed %q, want %q", got, "user read result agent")
	}
	list, err := second.conn.ListSessions(context.Background(), acpsdk.ListSessionsRequest{Cwd: &dir})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != id {
		t.Errorf("session/list = %+v, %v", list, err)
	}
}

// initializedBridge is a bridge to the fake server past initialize, and
// a workspace for its sessions.
func initializedBridge(b *testing.B) (*bridge, string) {
	br := startBridge(b, llmtest.NewServer(b), &client{})
	if _, err := br.conn.Initialize(context.Background(), acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		b.Fatal(err)
	}
	return br, workspace(b)
}

// BenchmarkNewSession measures session/new over the protocol (the close
// after each is not timed): it must answer in well under 300 ms (MCP
// servers start in the background).
func BenchmarkNewSession(b *testing.B) {
	br, dir := initializedBridge(b)
	ctx := context.Background()
	for b.Loop() {
		resp, err := br.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := br.conn.CloseSession(ctx, acpsdk.CloseSessionRequest{SessionId: resp.SessionId}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkCloseSession measures session/close of an idle session over
// the protocol (the session/new before each is not timed).
func BenchmarkCloseSession(b *testing.B) {
	br, dir := initializedBridge(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		resp, err := br.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := br.conn.CloseSession(ctx, acpsdk.CloseSessionRequest{SessionId: resp.SessionId}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCommandsAreAdvertisedAndCompactRuns(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	cmdDir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "commands")
	if err := os.MkdirAll(cmdDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cmdDir, "greet.md"), []byte("---\ndescription: Say hello\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Script(llmtest.Reply(llmtest.Text("Hello, Ada."), llmtest.Usage(812, 12)))
	c := &client{}
	got := make(chan *acpsdk.SessionAvailableCommandsUpdate, 1)
	c.onUpdate = func(u acpsdk.SessionUpdate) {
		if u.AvailableCommandsUpdate != nil {
			got <- u.AvailableCommandsUpdate
		}
	}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	var cmds *acpsdk.SessionAvailableCommandsUpdate
	select {
	case cmds = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no available_commands_update after session/new")
	}
	names := map[string]acpsdk.AvailableCommand{}
	for _, ac := range cmds.AvailableCommands {
		names[ac.Name] = ac
	}
	if _, ok := names["compact"]; !ok {
		t.Errorf("no /compact in %+v", cmds.AvailableCommands)
	}
	if g, ok := names["greet"]; !ok || g.Description != "Say hello" || g.Input == nil || g.Input.Unstructured.Hint != "NAME" {
		t.Errorf("greet = %+v", g)
	}
	b.prompt(t, id, "/greet Ada")
	reqs := srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "Say hello to Ada.") {
		t.Errorf("the command was not expanded: %s", body)
	}
	var usage *acpsdk.SessionUsageUpdate
	for _, u := range c.seen() {
		if u.UsageUpdate != nil {
			usage = u.UsageUpdate
		}
	}
	if usage == nil || usage.Used != 824 || usage.Size <= 0 {
		t.Errorf("usage_update = %+v", usage)
	}
}

func TestFileToolsReadAndWriteThroughTheEditorsBuffers(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"f.txt"}`)),
		llmtest.Reply(llmtest.ToolCall("edit_file", `{"path":"f.txt","old_string":"unsaved","new_string":"edited"}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{answer: "allow_once", buffers: map[string]string{path: "unsaved buffer\n"}, written: map[string]string{}}
	b := startBridge(t, srv, c)
	ctx := context.Background()
	caps := acpsdk.ClientCapabilities{Fs: acpsdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.prompt(t, resp.SessionId, "edit f.txt"); got != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if body := lastCompletion(srv); !strings.Contains(body, "unsaved buffer") {
		t.Errorf("read_file did not read the editor's buffer: %s", body)
	}
	if got := c.written[path]; got != "edited buffer\n" {
		t.Errorf("the editor got %q", got)
	}
	if disk, _ := os.ReadFile(path); string(disk) != "on disk\n" {
		t.Errorf("the disk changed: %q", disk)
	}
	if len(c.asked) != 1 || !strings.Contains(jsonOf(c.asked[0].ToolCall.Content), "+edited buffer") || c.asked[0].ToolCall.Locations[0].Path != path {
		t.Errorf("the edit's permission request did not show the buffer's diff: %+v", c.asked)
	}
}

func TestEditorFilesStayConfinedToTheWorkspace(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", fmt.Sprintf(`{"path":%q}`, outside))),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{answer: "allow_once", buffers: map[string]string{outside: "secret"}, written: map[string]string{}}
	b := startBridge(t, srv, c)
	ctx := context.Background()
	caps := acpsdk.ClientCapabilities{Fs: acpsdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	b.prompt(t, resp.SessionId, "read it")
	if len(c.reads) != 0 {
		t.Errorf("the editor was asked for %v, outside the workspace", c.reads)
	}
	if body := lastCompletion(srv); !strings.Contains(body, "outside") {
		t.Errorf("the model was not told the file is outside the workspace: %s", body)
	}
}

// lastCompletion is the body of the last chat completion request srv got.
func lastCompletion(srv *llmtest.Server) string {
	body := ""
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			body = string(r.Body)
		}
	}
	return body
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestModelAndModeAreConfigOptions(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("m", "m2")
	dir := workspace(t)
	srv.Script(llmtest.Reply(llmtest.Text("Hi.")))
	c := &client{}
	listed := make(chan []acpsdk.SessionConfigOption, 4)
	c.onUpdate = func(u acpsdk.SessionUpdate) {
		if u.ConfigOptionUpdate != nil {
			listed <- u.ConfigOptionUpdate.ConfigOptions
		}
	}
	b := startBridge(t, srv, c)
	ctx := context.Background()
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ConfigOptions) != 2 || *resp.ConfigOptions[0].Select.Category != acpsdk.SessionConfigOptionCategoryMode || resp.ConfigOptions[1].Select.CurrentValue != "m" {
		t.Fatalf("config options %s", jsonOf(resp.ConfigOptions))
	}
	select {
	case opts := <-listed:
		if got := jsonOf(opts[1].Select.Options); !strings.Contains(got, `"m2"`) {
			t.Errorf("the model option lists %s, not the server's models", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no config_option_update with the provider's models")
	}
	set, err := b.conn.SetSessionConfigOption(ctx, acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: resp.SessionId, ConfigId: "model", Value: "m2"}})
	if err != nil || set.ConfigOptions[1].Select.CurrentValue != "m2" {
		t.Fatalf("set model: %s, %v", jsonOf(set), err)
	}
	b.prompt(t, resp.SessionId, "hi")
	if body := lastCompletion(srv); !strings.Contains(body, `"model":"m2"`) {
		t.Errorf("the prompt did not use the chosen model: %s", body)
	}
	set, err = b.conn.SetSessionConfigOption(ctx, acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: resp.SessionId, ConfigId: "mode", Value: "plan"}})
	if err != nil || set.ConfigOptions[0].Select.CurrentValue != "plan" {
		t.Fatalf("set mode: %s, %v", jsonOf(set), err)
	}
	if _, err := b.conn.SetSessionConfigOption(ctx, acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: resp.SessionId, ConfigId: "mode", Value: "yolo"}}); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

func TestPromptTakesImagesResourceLinksAndEmbeddedContext(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(llmtest.Reply(llmtest.Text("A red dot.")))
	b := startBridge(t, srv, &client{})
	id := b.newSession(t, dir)
	var png bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	if err := pngenc.Encode(&png, img); err != nil {
		t.Fatal(err)
	}
	prompt := []acpsdk.ContentBlock{
		acpsdk.TextBlock("What is in the picture? See "),
		acpsdk.ResourceLinkBlock("main.go", "file://"+filepath.Join(dir, "main.go")),
		acpsdk.ResourceBlock(acpsdk.EmbeddedResourceResource{TextResourceContents: &acpsdk.TextResourceContents{Uri: "file:///buf.go", Text: "package unsaved"}}),
		acpsdk.ImageBlock(base64.StdEncoding.EncodeToString(png.Bytes()), "image/png"),
	}
	resp, err := b.conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: id, Prompt: prompt})
	if err != nil || resp.StopReason != acpsdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	body := lastCompletion(srv)
	for _, want := range []string{filepath.Join(dir, "main.go"), "package unsaved", "/buf.go", base64.StdEncoding.EncodeToString(png.Bytes())} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q: %s", want, body)
		}
	}
	bad := []acpsdk.ContentBlock{acpsdk.ImageBlock(base64.StdEncoding.EncodeToString([]byte("not an image")), "image/png")}
	if _, err := b.conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: id, Prompt: bad}); err == nil || !strings.Contains(err.Error(), "not a PNG") {
		t.Errorf("a broken image: %v", err)
	}
}

// FuzzPromptText: any prompt an editor sends either reads or is refused
// with an error, never a panic.
func FuzzPromptText(f *testing.F) {
	f.Add(`[{"type":"text","text":"hi"}]`)
	f.Add(`[{"type":"resource_link","name":"a","uri":"file:///a%20b"}]`)
	f.Add(`[{"type":"resource","resource":{"uri":"x","text":"t"}}]`)
	f.Add(`[{"type":"resource","resource":{"uri":"x","blob":"AA=="}}]`)
	f.Add(`[{"type":"image","data":"!!","mimeType":"image/png"}]`)
	f.Add(`[{"type":"audio","data":"AA==","mimeType":"audio/wav"}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var blocks []acpsdk.ContentBlock
		if json.Unmarshal([]byte(in), &blocks) != nil {
			return
		}
		text, imgs, err := promptText(blocks)
		if err == nil && strings.TrimSpace(text) == "" && len(imgs) == 0 {
			t.Errorf("an empty prompt was accepted: %q", in)
		}
	})
}

func TestEditorMCPServersOverStdioHTTPAndSSE(t *testing.T) {
	srv := llmtest.NewServer(t)
	bin, err := mcptest.Binary() // before the home is isolated: the build uses the Go cache
	if err != nil {
		t.Fatal(err)
	}
	dir := workspace(t)
	getServer := func(*http.Request) *mcp.Server { return mcptest.NewServer(mcptest.Options{}) }
	// Closed after the bridge (cleanups run last first): an SSE stream
	// stays open until its client goes.
	httpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(getServer, nil))
	t.Cleanup(httpSrv.Close)
	sseSrv := httptest.NewServer(mcp.NewSSEHandler(getServer, nil))
	t.Cleanup(sseSrv.Close)
	srv.Script(
		// Three servers' tools are many: the model reaches them through
		// mcp_call.
		llmtest.Reply(llmtest.ToolCall("mcp_call", `{"name":"mcp__local__echo","arguments":{"text":"from stdio"}}`),
			llmtest.ToolCall("mcp_call", `{"name":"mcp__remote__echo","arguments":{"text":"from http"}}`),
			llmtest.ToolCall("mcp_call", `{"name":"mcp__legacy__echo","arguments":{"text":"from sse"}}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	c := &client{answer: "allow_once"}
	b := startBridge(t, srv, c)
	ctx := context.Background()
	if _, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	servers := []acpsdk.McpServer{
		{Stdio: &acpsdk.McpServerStdio{Name: "local", Command: bin, Args: []string{}, Env: []acpsdk.EnvVariable{}}},
		{Http: &acpsdk.McpServerHttpInline{Name: "remote", Type: "http", Url: httpSrv.URL, Headers: []acpsdk.HttpHeader{}}},
		{Sse: &acpsdk.McpServerSseInline{Name: "legacy", Type: "sse", Url: sseSrv.URL, Headers: []acpsdk.HttpHeader{}}},
	}
	resp, err := b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: servers})
	if err != nil {
		t.Fatal(err)
	}
	b.prompt(t, resp.SessionId, "echo")
	body := lastCompletion(srv)
	for _, want := range []string{"from stdio", "from http", "from sse"} {
		if strings.Count(body, want) < 2 { // the call's arguments and its result
			t.Errorf("no result %q: %s", want, body)
		}
	}
}

// TestMain removes the MCP test server the MCP test built.
func TestMain(m *testing.M) {
	code := m.Run()
	mcptest.Cleanup()
	os.Exit(code)
}

// After its first prompt the editor learns the session's title (that
// prompt, as session/list gives it), once; every prompt updates its
// last activity (session_info_update).
func TestSessionInfoGivesTheTitleOnce(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("Looking.")), llmtest.Reply(llmtest.Text("Done.")))
	c := &client{}
	b := startBridge(t, srv, c)
	id := b.newSession(t, workspace(t))
	b.prompt(t, id, "fix the failing test")
	b.prompt(t, id, "and the other one")
	var infos []*acpsdk.SessionSessionInfoUpdate
	for _, u := range c.seen() {
		if u.SessionInfoUpdate != nil {
			infos = append(infos, u.SessionInfoUpdate)
		}
	}
	if len(infos) != 2 || infos[0].Title == nil || *infos[0].Title != "fix the failing test" || infos[1].Title != nil {
		t.Fatalf("session_info_update: %+v", infos)
	}
	for _, in := range infos {
		if in.UpdatedAt == nil {
			t.Errorf("no updatedAt in %+v", in)
		} else if _, err := time.Parse(time.RFC3339, *in.UpdatedAt); err != nil {
			t.Errorf("updatedAt %q: %v", *in.UpdatedAt, err)
		}
	}
}

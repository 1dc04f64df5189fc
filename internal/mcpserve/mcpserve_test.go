package mcpserve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/testbin"
)

// fixture is a server over a fake model in a fresh workspace holding
// hello.txt.
type fixture struct {
	srv *llmtest.Server
	dir string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	testbin.Isolate(t)
	dir := run.CanonicalDir(t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hi from the file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: llmtest.NewServer(t), dir: dir}
}

// connect starts a server with opts over the fixture and connects a
// client with copts to it (nil: a client that cannot elicit).
func (f *fixture) connect(t *testing.T, tools bool, mode string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectTo(t, f.server(t, tools, mode), copts)
}

// server is a server over the fixture (tools: --tools mode; mode: the
// permission mode, "" the config's).
func (f *fixture) server(t *testing.T, tools bool, mode string) *Server {
	t.Helper()
	s, err := New(Options{Tools: tools, Run: run.Options{
		Workdir: f.dir, Mode: mode, Overrides: config.Overrides{BaseURL: f.srv.URL() + "/v1", Model: "m"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connectTo connects a client with copts to s, closed at the end of the
// test.
func connectTo(t *testing.T, s *Server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	t.Cleanup(s.Close)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured output.
func call(t *testing.T, cs *mcp.ClientSession, p *mcp.CallToolParams) (*mcp.CallToolResult, Outcome) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var out Outcome
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return res, out
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func toolCall(id, name, args string) llmtest.Step {
	return llmtest.ToolCall(name, args).WithID(id)
}

// completions are the fake server's chat requests (not its model list).
func completions(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}

// requestText is every message of the fake server's chat request i, as
// JSON.
func requestText(t *testing.T, srv *llmtest.Server, i int) string {
	t.Helper()
	reqs := completions(srv)
	if len(reqs) <= i {
		t.Fatalf("%d requests, want more than %d", len(reqs), i)
	}
	b, _ := json.Marshal(reqs[i].Map()["messages"])
	return string(b)
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestAgentModeListsZeroAndZeroReply(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, false, "", nil)
	if got := toolNames(t, cs); !slices.Equal(got, []string{"zero", "zero_reply"}) {
		t.Fatalf("tools %v", got)
	}
}

func TestZeroRunsAPromptAndZeroReplyContinuesItsThread(t *testing.T) {
	f := newFixture(t)
	f.srv.Script(
		llmtest.Reply(toolCall("c1", "read_file", `{"path":"hello.txt"}`)),
		llmtest.Reply(llmtest.Text("The file says hi.")),
		llmtest.Reply(llmtest.Text("Still hi.")),
	)
	cs := f.connect(t, false, "", nil)
	res, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "what does hello.txt say?"}})
	if res.IsError || out.ThreadID == "" || out.Answer != "The file says hi." || out.Status != "completed" || len(out.ChangedFiles) != 0 {
		t.Fatalf("result %q, outcome %+v", text(res), out)
	}
	if text(res) != "The file says hi." {
		t.Fatalf("text content %q", text(res))
	}
	if got := requestText(t, f.srv, 1); !strings.Contains(got, "hi from the file") {
		t.Fatalf("the read's result did not reach the model: %s", got)
	}
	_, next := call(t, cs, &mcp.CallToolParams{Name: "zero_reply", Arguments: map[string]any{"threadId": out.ThreadID, "prompt": "and now?"}})
	if next.ThreadID != out.ThreadID || next.Answer != "Still hi." || next.Status != "completed" {
		t.Fatalf("reply outcome %+v", next)
	}
	third := requestText(t, f.srv, 2)
	for _, want := range []string{"what does hello.txt say?", "The file says hi.", "and now?"} {
		if !strings.Contains(third, want) {
			t.Fatalf("the reply's request lacks %q: %s", want, third)
		}
	}
}

func TestZeroReplyToAnUnknownThreadIsAnError(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, false, "", nil)
	res, _ := call(t, cs, &mcp.CallToolParams{Name: "zero_reply", Arguments: map[string]any{"threadId": "nope", "prompt": "hi"}})
	if !res.IsError || !strings.Contains(text(res), "session not found") || len(completions(f.srv)) != 0 {
		t.Fatalf("result %q, %d requests", text(res), len(completions(f.srv)))
	}
}

func TestWriteInNormalModeIsDeniedWhenTheClientCannotElicit(t *testing.T) {
	f := newFixture(t)
	f.scriptWrite("I could not write it.")
	cs := f.connect(t, false, "", nil)
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "write out.txt"}})
	if out.Status != "completed" || len(out.ChangedFiles) != 0 {
		t.Fatalf("outcome %+v", out)
	}
	f.notWritten(t)
	if got := requestText(t, f.srv, 1); !strings.Contains(got, "the client cannot elicit") {
		t.Fatalf("the model was not told why: %s", got)
	}
}

func TestWriteRunsWhenTheElicitingClientAccepts(t *testing.T) {
	f := newFixture(t)
	f.scriptWrite("Written.")
	var asked []string
	cs := f.connect(t, false, "", &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}})
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "write out.txt"}})
	if out.Answer != "Written." || !slices.Equal(out.ChangedFiles, []string{"out.txt"}) {
		t.Fatalf("outcome %+v", out)
	}
	if b, err := os.ReadFile(filepath.Join(f.dir, "out.txt")); err != nil || string(b) != "new\n" {
		t.Fatalf("out.txt: %q, %v", b, err)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "write_file") || !strings.Contains(asked[0], "out.txt") {
		t.Fatalf("elicitations %q", asked)
	}
}

func TestWriteIsRefusedWhenTheElicitingClientDeclines(t *testing.T) {
	f := newFixture(t)
	f.scriptWrite("Refused.")
	cs := f.connect(t, false, "", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}})
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "write out.txt"}})
	if len(out.ChangedFiles) != 0 {
		t.Fatalf("outcome %+v", out)
	}
	f.notWritten(t)
	if got := requestText(t, f.srv, 1); !strings.Contains(got, "declined") {
		t.Fatalf("the model was not told: %s", got)
	}
}

func TestAutoAcceptModeWritesWithoutAsking(t *testing.T) {
	f := newFixture(t)
	f.srv.Script(
		llmtest.Reply(toolCall("c1", "write_file", `{"path":"sub/out.txt","content":"new\n"}`)),
		llmtest.Reply(llmtest.Text("Written.")),
	)
	cs := f.connect(t, false, "", nil)
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "write it", "permission_mode": "auto-accept", "cwd": f.dir}})
	if !slices.Equal(out.ChangedFiles, []string{"sub/out.txt"}) {
		t.Fatalf("outcome %+v", out)
	}
}

func TestProgressNotificationsFollowTheRun(t *testing.T) {
	f := newFixture(t)
	f.srv.Script(
		llmtest.Reply(toolCall("c1", "read_file", `{"path":"hello.txt"}`)),
		llmtest.Reply(llmtest.Text("The file says hi.").Split(4)),
	)
	got := make(chan string, 16)
	cs := f.connect(t, false, "", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		if req.Params.ProgressToken == "tok" {
			got <- req.Params.Message
		}
	}})
	p := &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "read hello.txt"}}
	p.SetProgressToken("tok")
	call(t, cs, p)
	var msgs []string
	for len(msgs) < 2 {
		select {
		case m := <-got:
			msgs = append(msgs, m)
		case <-time.After(10 * time.Second):
			t.Fatalf("progress so far: %q", msgs)
		}
	}
	if !strings.HasPrefix(msgs[0], "tool read_file") || msgs[1] != "The file says hi." {
		t.Fatalf("progress %q", msgs)
	}
}

func TestToolsModeServesCoreToolsUnderTheGate(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, true, "", nil)
	names := toolNames(t, cs)
	for _, want := range []string{"read_file", "grep", "write_file", "edit_file", "bash"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools %v lack %s", names, want)
		}
	}
	res, _ := call(t, cs, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "hello.txt"}})
	if res.IsError || !strings.Contains(text(res), "hi from the file") {
		t.Fatalf("read: %q", text(res))
	}
	res, _ = call(t, cs, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "out.txt", "content": "x"}})
	if !res.IsError || !strings.Contains(text(res), "the client cannot elicit") {
		t.Fatalf("write: %q", text(res))
	}
	f.notWritten(t)
}

func TestToolsModeWriteRunsWhenTheClientApproves(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, true, "", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow_once"}}, nil
	}})
	res, _ := call(t, cs, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "out.txt", "content": "x"}})
	if res.IsError {
		t.Fatalf("write: %q", text(res))
	}
	if b, err := os.ReadFile(filepath.Join(f.dir, "out.txt")); err != nil || string(b) != "x" {
		t.Fatalf("out.txt: %q, %v", b, err)
	}
}

func TestPlanModeServesReadOnlyToolsOnly(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, true, "plan", nil)
	names := toolNames(t, cs)
	if !slices.Contains(names, "read_file") || slices.Contains(names, "write_file") || slices.Contains(names, "bash") {
		t.Fatalf("tools %v", names)
	}
}

func TestStoppingTheServerInterruptsARunInFlight(t *testing.T) {
	// The SDK lets a handler run on after its connection closes: Run's
	// context ending must still interrupt the run, so Close returns and
	// the session is left resumable instead of waiting out the model.
	f := newFixture(t)
	f.srv.Script(
		llmtest.Reply(toolCall("c1", "read_file", `{"path":"hello.txt"}`)),
		llmtest.Reply(llmtest.Stall(10*time.Minute), llmtest.Text("too late")),
	)
	s := f.server(t, false, "")
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, st) }()
	toolRan := make(chan struct{}, 1)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { toolRan <- struct{}{} },
	}).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "read hello.txt"}}
	p.SetProgressToken("tok")
	go cs.CallTool(context.Background(), p)
	<-toolRan // the read ran; the next request stalls
	cancel()
	select {
	case <-ran:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after its context ended")
	}
	cs.Close()
	s.Close()
	ids := sessionIDs(t)
	if len(ids) != 1 {
		t.Fatalf("sessions %v", ids)
	}
}

// sessionIDs are the stored sessions.
func sessionIDs(t *testing.T) []string {
	t.Helper()
	st, err := run.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	return ids
}

func TestASilentRunSendsHeartbeatProgress(t *testing.T) {
	f := newFixture(t)
	f.srv.Script(llmtest.Reply(llmtest.Stall(10*time.Minute), llmtest.Text("too late")))
	s := f.server(t, false, "")
	s.heartbeat = 10 * time.Millisecond
	beats := make(chan string, 1)
	cs := connectTo(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		select {
		case beats <- req.Params.Message:
		default:
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	p := &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "think hard"}}
	p.SetProgressToken("tok")
	done := make(chan error, 1)
	go func() { _, err := cs.CallTool(ctx, p); done <- err }()
	if msg := <-beats; !strings.HasPrefix(msg, "still working") {
		t.Fatalf("progress %q", msg)
	}
	cancel() // the client gives up: the run is interrupted
	if err := <-done; err == nil {
		t.Fatal("the cancelled call returned no error")
	}
}

func TestAThreadClosedPastTheLimitIsReopenedByItsReply(t *testing.T) {
	f := newFixture(t)
	var turns []llmtest.Turn
	for i := 0; i <= maxThreads; i++ {
		turns = append(turns, llmtest.Reply(llmtest.Text("answer "+string(rune('a'+i)))))
	}
	f.srv.Script(append(turns, llmtest.Reply(llmtest.Text("reopened")))...)
	s := f.server(t, false, "")
	cs := connectTo(t, s, nil)
	var first string
	for i := 0; i <= maxThreads; i++ {
		_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "task " + string(rune('a'+i))}})
		if i == 0 {
			first = out.ThreadID
		}
	}
	s.mu.Lock()
	_, open := s.threads[first]
	n := len(s.threads)
	s.mu.Unlock()
	if open || n != maxThreads {
		t.Fatalf("%d threads open, the first among them: %v", n, open)
	}
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero_reply", Arguments: map[string]any{"threadId": first, "prompt": "again"}})
	if out.ThreadID != first || out.Answer != "reopened" {
		t.Fatalf("reply outcome %+v", out)
	}
	last := requestText(t, f.srv, maxThreads+1)
	if !strings.Contains(last, "task a") || !strings.Contains(last, "answer a") || strings.Contains(last, "task b") {
		t.Fatalf("the reopened thread's request: %s", last)
	}
}

func TestAClientMayTightenButNotLoosenTheServersMode(t *testing.T) {
	f := newFixture(t)
	f.srv.Script(llmtest.Reply(llmtest.Text("planned")))
	cs := f.connect(t, false, "normal", nil)
	res, _ := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "go", "permission_mode": "auto-accept"}})
	if !res.IsError || !strings.Contains(text(res), "a client may only tighten it") || len(completions(f.srv)) != 0 {
		t.Fatalf("auto-accept over normal: %q", text(res))
	}
	_, out := call(t, cs, &mcp.CallToolParams{Name: "zero", Arguments: map[string]any{"prompt": "go", "permission_mode": "plan"}})
	if out.Answer != "planned" {
		t.Fatalf("plan under normal: %+v", out)
	}
}

// scriptWrite scripts the fake model to write out.txt, then answer.
func (f *fixture) scriptWrite(answer string) {
	f.srv.Script(
		llmtest.Reply(toolCall("c1", "write_file", `{"path":"out.txt","content":"new\n"}`)),
		llmtest.Reply(llmtest.Text(answer)),
	)
}

// notWritten fails the test if out.txt exists in the workspace.
func (f *fixture) notWritten(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(f.dir, "out.txt")); !os.IsNotExist(err) {
		t.Fatalf("out.txt was written (%v)", err)
	}
}

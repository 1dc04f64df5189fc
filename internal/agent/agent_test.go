package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// scripted is a fake llm.Provider that replays one event list per request
// and records each request.
type scripted struct {
	mu    sync.Mutex
	turns [][]llm.Event
	reqs  []llm.Request
	// hold, when set, blocks each stream until ctx is done (interrupts).
	hold bool
}

func (s *scripted) Name() string { return "fake" }

func (s *scripted) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	if len(s.turns) == 0 {
		return nil, &llm.ProviderError{Kind: llm.ErrBadRequest, Message: "script exhausted"}
	}
	evs := s.turns[0]
	s.turns = s.turns[1:]
	ch := make(chan llm.Event, len(evs)+1)
	go func() {
		defer close(ch)
		for _, e := range evs {
			ch <- e
		}
		if s.hold {
			<-ctx.Done()
			ch <- llm.Event{Type: llm.EventError, Err: ctx.Err()}
		}
	}()
	return ch, nil
}

func text(s string) llm.Event { return llm.Event{Type: llm.EventTextDelta, Text: s} }
func call(i int, id, name, args string) llm.Event {
	return llm.Event{Type: llm.EventToolCallEnd, Index: i, ToolCall: &llm.ToolCall{ID: id, Name: name, Arguments: args}}
}
func finish() llm.Event { return llm.Event{Type: llm.EventFinish, FinishReason: llm.FinishStop} }
func usage(in, out int) llm.Event {
	return llm.Event{Type: llm.EventUsage, Usage: &llm.Usage{InputTokens: in, OutputTokens: out}}
}

// fakeTool is a tool whose behaviour a test sets.
type fakeTool struct {
	name string
	side tools.SideEffect
	run  func(ctx context.Context, args json.RawMessage) (tools.Result, error)
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "test tool " + f.name }
func (f *fakeTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
}
func (f *fakeTool) SideEffect() tools.SideEffect { return f.side }
func (f *fakeTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	return f.run(ctx, args)
}

type recorder struct {
	mu  sync.Mutex
	evs []event.Event
}

func (r *recorder) Emit(e event.Event) { r.mu.Lock(); r.evs = append(r.evs, e); r.mu.Unlock() }
func (r *recorder) types() []event.Type {
	var out []event.Type
	for _, e := range r.evs {
		out = append(out, e.Type)
	}
	return out
}
func (r *recorder) texts(t event.Type) string {
	var b strings.Builder
	for _, e := range r.evs {
		if e.Type == t {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func echoTool(name string, side tools.SideEffect) *fakeTool {
	return &fakeTool{name: name, side: side, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: name + ":" + string(args)}, nil
	}}
}

func TestFinalAnswerOnly(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{{text("Hel"), text("lo"), usage(10, 2), finish()}}}
	rec := &recorder{}
	a := New(Options{Provider: p, Model: "m", Sink: rec})
	res := a.Run(context.Background(), "hi")
	if res.StopReason != event.StopCompleted || res.Final != "Hello" {
		t.Fatalf("got %+v", res)
	}
	want := []event.Type{event.RunStart, event.Message, event.Text, event.Text, event.Usage, event.Message, event.Final, event.RunEnd}
	if got := rec.types(); !equalTypes(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if res.Totals.Usage.InputTokens != 10 || res.Totals.Turns != 1 {
		t.Fatalf("totals %+v", res.Totals)
	}
	for _, e := range rec.evs {
		if e.RunID == "" || e.SchemaVersion != event.SchemaVersion {
			t.Fatalf("event without run id or schema: %+v", e)
		}
	}
}

func equalTypes(a, b []event.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestToolCallThenAnswer(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{text("Reading."), call(0, "c1", "read_file", `{"path":"a.go"}`), finish()},
		{text("Done."), finish()},
	}}
	rec := &recorder{}
	a := New(Options{Provider: p, Model: "m", Sink: rec, Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	res := a.Run(context.Background(), "go")
	if res.StopReason != event.StopCompleted || res.Final != "Done." {
		t.Fatalf("got %+v", res)
	}
	if len(p.reqs) != 2 {
		t.Fatalf("requests %d", len(p.reqs))
	}
	second := p.reqs[1].Messages
	if len(second) != 3 || second[1].ToolCalls()[0].ID != "c1" || second[2].ToolResults()[0].Content != `read_file:{"path":"a.go"}` {
		t.Fatalf("second request history wrong: %+v", second)
	}
	if len(p.reqs[0].Tools) != 1 || p.reqs[0].Tools[0].Name != "read_file" {
		t.Fatalf("tools not offered: %+v", p.reqs[0].Tools)
	}
}

func TestMalformedArgumentsGetActionableError(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		// Cut inside a string: not repairable (an object left open after
		// a complete value is closed by textcalls.RepairArguments).
		{call(0, "c1", "read_file", `{"path": "a.go`), finish()},
		{call(0, "c2", "read_file", `{"path": "a.go"}`), finish()},
		{text("ok"), finish()},
	}}
	ran := 0
	tool := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		ran++
		return tools.Result{Content: "content"}, nil
	}}
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(tool)})
	res := a.Run(context.Background(), "go")
	if res.StopReason != event.StopCompleted || ran != 1 {
		t.Fatalf("got %+v ran=%d", res, ran)
	}
	r := p.reqs[1].Messages[2].ToolResults()[0]
	if !r.IsError || !strings.Contains(r.Content, "not a valid JSON object") || !strings.Contains(r.Content, `"path"`) {
		t.Fatalf("error result not actionable: %+v", r)
	}
}

func TestUnknownToolAndDeniedWrite(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{call(0, "c1", "nope", `{}`), call(1, "c2", "write_file", `{"path":"x"}`), finish()},
		{text("ok"), finish()},
	}}
	wrote := false
	w := &fakeTool{name: "write_file", side: tools.SideWrite, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		wrote = true
		return tools.Result{}, nil
	}}
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(w, echoTool("read_file", tools.SideRead))})
	a.Run(context.Background(), "go")
	if wrote {
		t.Fatal("write ran without approval")
	}
	msgs := p.reqs[1].Messages
	r1, r2 := msgs[2].ToolResults()[0], msgs[3].ToolResults()[0]
	if !strings.Contains(r1.Content, `unknown tool "nope"`) || !strings.Contains(r1.Content, "read_file") {
		t.Fatalf("unknown tool result: %q", r1.Content)
	}
	if !r2.IsError || !strings.Contains(r2.Content, "--auto-approve") {
		t.Fatalf("denied write result: %q", r2.Content)
	}
}

func TestEmptyTurnNudgedOnce(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{{finish()}, {text("answer"), finish()}}}
	a := New(Options{Provider: p, Model: "m"})
	res := a.Run(context.Background(), "go")
	if res.StopReason != event.StopCompleted || res.Final != "answer" {
		t.Fatalf("got %+v", res)
	}
	// The empty turn is recorded (a marker, never an empty message), so
	// the nudge does not sit right after the prompt.
	sent := p.reqs[1].Messages
	if len(sent) != 3 || sent[0].Text() != "go" || sent[1].Role != llm.RoleAssistant || sent[1].Text() != emptyReply ||
		sent[2].Role != llm.RoleUser || sent[2].Text() != emptyTurnNudge {
		t.Fatalf("request after the empty turn: %+v", sent)
	}
	p2 := &scripted{turns: [][]llm.Event{{finish()}, {finish()}}}
	res = New(Options{Provider: p2, Model: "m"}).Run(context.Background(), "go")
	if res.StopReason != event.StopError || res.Err == nil {
		t.Fatalf("two empty turns: %+v", res)
	}
}

func TestRetryDoesNotRepeatText(t *testing.T) {
	overloaded := &llm.ProviderError{Kind: llm.ErrOverloaded, Message: "Overloaded"}
	p := &scripted{turns: [][]llm.Event{
		{text("Hello, "), text("wor"), {Type: llm.EventError, Err: overloaded}},
		{text("Hello, "), text("world!"), finish()},
	}}
	rec := &recorder{}
	a := New(Options{Provider: p, Model: "m", Sink: rec, RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "go")
	if res.StopReason != event.StopCompleted || res.Final != "Hello, world!" {
		t.Fatalf("got %+v", res)
	}
	if got := rec.texts(event.Text); got != "Hello, world!" {
		t.Fatalf("shown text %q: printed twice or lost", got)
	}
	if len(p.reqs) != 2 {
		t.Fatalf("want 2 requests, got %d", len(p.reqs))
	}
}

func TestNonRetryableErrorStops(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{{{Type: llm.EventError, Err: &llm.ProviderError{Kind: llm.ErrAuth, Message: "bad key"}}}}}
	res := New(Options{Provider: p, Model: "m", RetryBase: time.Millisecond}).Run(context.Background(), "go")
	if res.StopReason != event.StopProviderError || llm.KindOf(res.Err) != llm.ErrAuth || len(p.reqs) != 1 {
		t.Fatalf("got %+v after %d requests", res, len(p.reqs))
	}
}

func TestParallelReadsKeepCallOrder(t *testing.T) {
	var inflight, peak int32
	slow := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		n := atomic.AddInt32(&inflight, 1)
		for {
			p := atomic.LoadInt32(&peak)
			if n <= p || atomic.CompareAndSwapInt32(&peak, p, n) {
				break
			}
		}
		// wait until all three are in flight (or give up), proving parallelism
		deadline := time.Now().Add(2 * time.Second)
		for atomic.LoadInt32(&peak) < 3 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		atomic.AddInt32(&inflight, -1)
		return tools.Result{Content: string(args)}, nil
	}}
	p := &scripted{turns: [][]llm.Event{
		{call(0, "a", "read_file", `{"path":"1"}`), call(1, "b", "read_file", `{"path":"2"}`), call(2, "c", "read_file", `{"path":"3"}`), finish()},
		{text("ok"), finish()},
	}}
	New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(slow)}).Run(context.Background(), "go")
	if peak != 3 {
		t.Fatalf("reads ran with peak concurrency %d, want 3", peak)
	}
	msgs := p.reqs[1].Messages
	for i, id := range []string{"a", "b", "c"} {
		r := msgs[2+i].ToolResults()[0]
		if r.CallID != id {
			t.Fatalf("result %d is for %s, want %s", i, r.CallID, id)
		}
	}
}

func TestInterruptGivesEveryCallAResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	blocking := &fakeTool{name: "bash", side: tools.SideShell, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		close(started)
		<-ctx.Done()
		return tools.Result{Content: "partial output"}, nil
	}}
	p := &scripted{turns: [][]llm.Event{{call(0, "t1", "bash", `{"command":"sleep 100"}`), call(1, "t2", "bash", `{"command":"echo"}`), finish()}}}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(blocking), Gate: allow})
	go func() { <-started; cancel() }()
	res := a.Run(ctx, "go")
	if res.StopReason != event.StopInterrupted {
		t.Fatalf("got %+v", res)
	}
	h := a.History()
	if len(h) != 4 {
		t.Fatalf("history %d messages: %+v", len(h), h)
	}
	r1, r2 := h[2].ToolResults()[0], h[3].ToolResults()[0]
	if r1.CallID != "t1" || !r1.IsError || !strings.Contains(r1.Content, "partial output") || !strings.HasPrefix(r1.Content, "Interrupted by user after") {
		t.Fatalf("running call result: %+v", r1)
	}
	if r2.CallID != "t2" || !r2.IsError || r2.Content != cancelledResult {
		t.Fatalf("queued call result: %+v", r2)
	}
}

func TestInterruptMidStreamKeepsPartialText(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &scripted{hold: true, turns: [][]llm.Event{{text("partial ans")}}}
	rec := &recorder{}
	a := New(Options{Provider: p, Model: "m", Sink: event.SinkFunc(func(e event.Event) {
		rec.Emit(e)
		if e.Type == event.Text {
			cancel()
		}
	})})
	res := a.Run(ctx, "go")
	if res.StopReason != event.StopInterrupted {
		t.Fatalf("got %+v", res)
	}
	h := a.History()
	if len(h) != 2 || h[1].Text() != "partial ans" {
		t.Fatalf("partial text not kept: %+v", h)
	}
}

func TestMaxTurnsBackstop(t *testing.T) {
	var turns [][]llm.Event
	for i := 0; i < 5; i++ {
		// distinct calls: repeating one would be stuck detection's job
		turns = append(turns, []llm.Event{call(0, fmt.Sprint("c", i), "read_file", fmt.Sprintf(`{"path":"f%d"}`, i)), finish()})
	}
	p := &scripted{turns: turns}
	res := New(Options{Provider: p, Model: "m", MaxTurns: 3, Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))}).Run(context.Background(), "go")
	if res.StopReason != event.StopMaxTurns || len(p.reqs) != 3 {
		t.Fatalf("got %+v after %d", res, len(p.reqs))
	}
	if New(Options{}).opts.MaxTurns < 100 {
		t.Fatal("default backstop must be at least 100 turns")
	}
}

func TestResumeSeedsHistory(t *testing.T) {
	hist := []llm.Message{llm.TextMessage(llm.RoleUser, "first"), llm.TextMessage(llm.RoleAssistant, "reply")}
	p := &scripted{turns: [][]llm.Event{{text("second reply"), finish()}}}
	New(Options{Provider: p, Model: "m", History: hist}).Run(context.Background(), "second")
	msgs := p.reqs[0].Messages
	if len(msgs) != 3 || msgs[0].Text() != "first" || msgs[2].Text() != "second" {
		t.Fatalf("history not sent: %+v", msgs)
	}
}

func TestToolErrorBecomesResult(t *testing.T) {
	bad := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{}, errors.New("disk on fire")
	}}
	p := &scripted{turns: [][]llm.Event{{call(0, "c", "read_file", `{}`), finish()}, {text("ok"), finish()}}}
	New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(bad)}).Run(context.Background(), "go")
	r := p.reqs[1].Messages[2].ToolResults()[0]
	if !r.IsError || !strings.Contains(r.Content, "disk on fire") {
		t.Fatalf("got %+v", r)
	}
}

// TestHiddenToolSaysWhy: a tool plan mode does not offer is refused as not
// available now, not as unknown (QA: the model was told write_file does
// not exist).
func TestHiddenToolSaysWhy(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{call(0, "c1", "write_file", `{"path":"x"}`), finish()},
		{text("ok"), finish()},
	}}
	w := &fakeTool{name: "write_file", side: tools.SideWrite, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		t.Fatal("a hidden tool ran")
		return tools.Result{}, nil
	}}
	readOnly := func(t tools.Tool) bool { return t.SideEffect() == tools.SideRead }
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(w, echoTool("read_file", tools.SideRead)), Visible: readOnly})
	a.Run(context.Background(), "go")
	r := p.reqs[1].Messages[2].ToolResults()[0]
	if !r.IsError || !strings.Contains(r.Content, "write_file is not available now") || strings.Contains(r.Content, "unknown tool") || !strings.Contains(r.Content, "read_file") {
		t.Fatalf("hidden tool result: %q", r.Content)
	}
}

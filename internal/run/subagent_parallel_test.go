package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// threeTasks is a parent turn handing three jobs to explorers at once.
var threeTasks = llmtest.Reply(
	llmtest.ToolCall("task", `{"prompt":"job-A: survey internal/a"}`).WithID("call_a"),
	llmtest.ToolCall("task", `{"prompt":"job-B: survey internal/b"}`).WithID("call_b"),
	llmtest.ToolCall("task", `{"prompt":"job-C: survey internal/c"}`).WithID("call_c"),
).When("PARENT")

// Three task calls of one turn run at once (the fake server holds each
// child's answer until all three are in flight); the results reach the
// parent in call order; a failing child is an error result the others do
// not share; each child's events reach the parent's surface tagged with
// its task call; the run's totals carry the children's.
func TestTaskCallsOfOneTurnRunInParallel(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	hold := 20 * time.Second // only a broken build waits this long
	srv.Script(
		threeTasks,
		llmtest.Reply(llmtest.Text("A found a.go"), llmtest.Usage(100, 10)).When("job-A").Await(3, hold),
		llmtest.Reply(llmtest.Error(400, `{"error":{"message":"child B's request is bad"}}`)).When("job-B").Await(3, hold),
		llmtest.Reply(llmtest.Text("C found c.go"), llmtest.Usage(200, 20)).When("job-C").Await(3, hold),
		llmtest.Reply(llmtest.Text("Surveyed.")).When("sub-agent, session"),
	)
	var evs events
	res := s.Prompt(context.Background(), Turn{Prompt: "PARENT: survey the tree", Sink: &evs})
	if res.Final != "Surveyed." {
		t.Fatalf("parent: %+v", res)
	}
	if n := srv.MaxInFlight(); n != 3 {
		t.Errorf("%d children in flight at once, want 3", n)
	}
	chat := chatRequests(srv)
	back := string(chat[len(chat)-1].Body)
	a, b, c := strings.Index(back, "A found a.go"), strings.Index(back, "the explore sub-agent stopped (provider_error)"), strings.Index(back, "C found c.go")
	if a < 0 || b < 0 || c < 0 || !(a < b && b < c) {
		t.Fatalf("results not all there in call order (%d %d %d):\n%s", a, b, c, back)
	}
	tagged := map[string]int{}
	var end *event.Totals
	evs.mu.Lock()
	for _, e := range evs.all {
		if e.ParentToolCallID != "" && e.Type == event.RunStart {
			tagged[e.ParentToolCallID]++
			if e.Agent != "explore" {
				t.Errorf("child event agent %q", e.Agent)
			}
		}
		if e.Type == event.RunEnd && e.ParentToolCallID == "" {
			end = e.Totals
		}
	}
	evs.mu.Unlock()
	if tagged["call_a"] != 1 || tagged["call_b"] != 1 || tagged["call_c"] != 1 {
		t.Errorf("children's run_start events by parent call: %v", tagged)
	}
	if end == nil || end.Subagents == nil || end.Subagents.Usage.InputTokens != 300 || end.Subagents.Usage.OutputTokens != 30 {
		t.Fatalf("parent totals do not roll up the children: %+v", end)
	}
}

// A local server with one slot (llama.cpp /props total_slots 1) gets the
// children one at a time: each child's answer waits a moment for a second
// request that never comes while it is served.
func TestOneSlotServerRunsChildrenOneAtATime(t *testing.T) {
	isolate(t)
	const model = "qwen2.5-coder-0.5b-q8_0.gguf"
	l := llmtest.NewLlamaCpp(t, model, 65536)
	rt, _ := openIsolated(t, l.Server, Options{Overrides: config.Overrides{BaseURL: l.URL() + "/v1", Model: model}})
	if n := rt.ParallelAgents(); n != 1 {
		t.Fatalf("ParallelAgents = %d on a one-slot server", n)
	}
	s := openSession(t, rt, Which{})
	wait := 300 * time.Millisecond
	l.Script(
		threeTasks,
		llmtest.Reply(llmtest.Text("A")).When("job-A").Await(2, wait),
		llmtest.Reply(llmtest.Text("B")).When("job-B").Await(2, wait),
		llmtest.Reply(llmtest.Text("C")).When("job-C").Await(2, wait),
		llmtest.Reply(llmtest.Text("Surveyed.")).When("sub-agent, session"),
	)
	if res := s.Prompt(context.Background(), Turn{Prompt: "PARENT: survey"}); res.Final != "Surveyed." {
		t.Fatalf("parent: %+v", res)
	}
	if n := l.MaxInFlight(); n != 1 {
		t.Fatalf("%d requests in flight at once on a one-slot server", n)
	}
}

// Cancelling the parent's prompt cancels its running children: both end,
// the parent's run ends interrupted.
func TestCancellingTheParentCancelsItsChildren(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		threeTasks,
		llmtest.Reply(llmtest.Stall(time.Minute)).When("job-A"),
		llmtest.Reply(llmtest.Stall(time.Minute)).When("job-B"),
		llmtest.Reply(llmtest.Stall(time.Minute)).When("job-C"),
	)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan event.StopReason)
	go func() { done <- s.Prompt(ctx, Turn{Prompt: "PARENT: survey"}).StopReason }()
	deadline := time.Now().Add(20 * time.Second)
	for len(s.Children()) < 3 || len(chatRequests(srv)) < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("children never all started: %+v", s.Children())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if got := <-done; got != event.StopInterrupted {
		t.Fatalf("parent stopped %s", got)
	}
	if c := s.Children(); len(c) != 0 {
		t.Fatalf("children still listed after the cancel: %+v", c)
	}
}

package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// Cases B25 (testdata/B25; openclaw/openclaw#8525) and B26 (testdata/B26;
// anthropics/claude-code#1956) at the loop level: an old damaged history
// handed to the agent as Options.History resumes, and the next request on
// the real OpenAI wire is valid (every call answered once, no orphan
// result).

// loadCaseHistory reads a case's message array (Anthropic or OpenAI shape)
// into llm messages; entries with "event" (session events) are skipped.
func loadCaseHistory(t *testing.T, path string) []llm.Message {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct{ Name, Arguments string }
		} `json:"tool_calls"`
		Event string `json:"event"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	var out []llm.Message
	for _, w := range in {
		if w.Event != "" {
			continue
		}
		var s string
		var blocks []struct {
			Type, Text, ID, Name, Content string
			Input                         json.RawMessage
			ToolUseID                     string `json:"tool_use_id"`
			IsError                       bool   `json:"is_error"`
		}
		if json.Unmarshal(w.Content, &s) != nil {
			if err := json.Unmarshal(w.Content, &blocks); err != nil {
				t.Fatal(err)
			}
		}
		m := llm.Message{Role: llm.Role(w.Role)}
		if w.Role == "tool" {
			out = append(out, llm.ToolResultMessage(llm.ToolResult{CallID: w.ToolCallID, Content: s}))
			continue
		}
		if s != "" {
			m.Parts = append(m.Parts, llm.Part{Type: llm.PartText, Text: s})
		}
		var results []llm.Part
		for _, bl := range blocks {
			switch bl.Type {
			case "text":
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartText, Text: bl.Text})
			case "tool_use":
				var c bytes.Buffer
				_ = json.Compact(&c, bl.Input)
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: bl.ID, Name: bl.Name, Arguments: c.String()}})
			case "tool_result":
				results = append(results, llm.Part{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: bl.ToolUseID, Content: bl.Content, IsError: bl.IsError}})
			}
		}
		for _, c := range w.ToolCalls {
			m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}})
		}
		if results != nil {
			out = append(out, llm.Message{Role: llm.RoleTool, Parts: results})
		}
		if len(m.Parts) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// resumeOnce resumes hist, runs one prompt against a fake OpenAI server and
// returns the wire messages of the request, the agent and its events.
func resumeOnce(t *testing.T, hist []llm.Message, prompt string) ([]map[string]any, *Agent, *recorder) {
	t.Helper()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, History: hist,
		Tools: tools.NewRegistry(echoTool("edit_file", tools.SideWrite), echoTool("bash", tools.SideShell))})
	if res := a.Run(context.Background(), prompt); res.StopReason != event.StopCompleted {
		t.Fatalf("resumed run: %+v", res)
	}
	msgs := wireMessages(t, srv.Requests()[0])
	checkWireInvariant(t, msgs)
	return msgs, a, rec
}

// TestResumeAfterABadCompactionDropsTheOrphanResult: the orphan result is
// dropped with a logged repair, its fact folded into the summary, the kept
// pair intact, and nothing orphaned reaches the wire.
// Case B25 (testdata/B25/messages_after_compaction_BAD.json).
func TestResumeAfterABadCompactionDropsTheOrphanResult(t *testing.T) {
	bad := loadCaseHistory(t, "testdata/B25/messages_after_compaction_BAD.json")
	want := loadCaseHistory(t, "testdata/B25/messages_repaired.json")
	msgs, a, rec := resumeOnce(t, bad, "continue")
	if !strings.Contains(rec.texts(event.Warning), "history repaired") {
		t.Fatalf("repair not logged: %q", rec.texts(event.Warning))
	}
	// The repaired history is the expected one plus the new prompt: the
	// orphan toolu_A1 result is gone, its first line folded into the
	// summary, the toolu_B2 pair intact.
	h := a.History()
	if len(h) != len(want)+2 { // + prompt + answer
		t.Fatalf("history %d messages, want %d: %+v", len(h), len(want)+2, h)
	}
	for i, w := range want {
		if h[i].Role != w.Role || len(h[i].ToolCalls()) != len(w.ToolCalls()) || len(h[i].ToolResults()) != len(w.ToolResults()) {
			t.Fatalf("message %d: %+v, want %+v", i, h[i], w)
		}
	}
	summary := h[0].Text()
	if !strings.HasPrefix(summary, strings.TrimSuffix(want[0].Text()[:60], " ")) || !strings.Contains(summary, "FAIL: TestParse") {
		t.Fatalf("summary lost the orphan's fact: %q", summary)
	}
	if h[1].ToolCalls()[0].ID != "toolu_B2" || h[2].ToolResults()[0].CallID != "toolu_B2" || h[2].ToolResults()[0].Content != "ok" {
		t.Fatalf("kept pair changed: %+v %+v", h[1], h[2])
	}
	for _, m := range msgs {
		if m["tool_call_id"] == "toolu_A1" {
			t.Fatalf("orphan result sent: %v", msgs)
		}
	}
}

// TestResumeOfAnOpenAIShapeOrphanSendsNoOrphanResult: the same for a role
// "tool" message without its assistant call.
// Case B25 (testdata/B25/messages_after_compaction_BAD_openai.json).
func TestResumeOfAnOpenAIShapeOrphanSendsNoOrphanResult(t *testing.T) {
	bad := loadCaseHistory(t, "testdata/B25/messages_after_compaction_BAD_openai.json")
	msgs, _, _ := resumeOnce(t, bad, "continue")
	for _, m := range msgs {
		if m["tool_call_id"] == "call_A1" {
			t.Fatalf("orphan result sent: %v", msgs)
		}
	}
}

// TestResumeAfterACrashMidCallAnswersEveryCallFirst: a log that ends with
// two unanswered calls resumes with a cancelled error result for each, one
// role=tool message per call id, then the user's new text.
// Case B26 (testdata/B26/session_events.json).
func TestResumeAfterACrashMidCallAnswersEveryCallFirst(t *testing.T) {
	// The log ends with the assistant's two calls and no results (the
	// process died while go test ran); the user's next message follows.
	events := loadCaseHistory(t, "testdata/B26/session_events.json")
	want := loadCaseHistory(t, "testdata/B26/expected_next_request_messages.json")
	hist, prompt := events[:len(events)-1], events[len(events)-1].Text()
	msgs, a, _ := resumeOnce(t, hist, prompt)
	// Expected shape: user, assistant(C1, C2), results C1 and C2 (is_error),
	// then the new user text.
	h := a.History()[:len(want)]
	for i, w := range want {
		if h[i].Role != w.Role {
			t.Fatalf("message %d role %s, want %s: %+v", i, h[i].Role, w.Role, h)
		}
	}
	var ids []string
	for _, r := range h[2].ToolResults() {
		if !r.IsError || !strings.HasPrefix(r.Content, "Not run: cancelled") {
			t.Fatalf("synthetic result %+v", r)
		}
		ids = append(ids, r.CallID)
	}
	var wantIDs []string
	for _, r := range want[2].ToolResults() {
		wantIDs = append(wantIDs, r.CallID)
	}
	if strings.Join(ids, ",") != strings.Join(wantIDs, ",") || h[3].Text() != want[3].Text() {
		t.Fatalf("results %v then %q, want %v then %q", ids, h[3].Text(), wantIDs, want[3].Text())
	}
	// On the wire: one role=tool message per call id, then the user text.
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m["role"].(string))
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,tool,tool,user" && got != "user,assistant,tool,tool,user" {
		t.Fatalf("wire roles %s", got)
	}
}

// TestInterruptMidCallAnswersEveryCallBeforeTheNextPrompt: Esc while one
// call runs and another waits gives both an error result (the case's
// texts) before the user's next message.
// Case B26 (testdata/B26/expected_next_request_messages.json; tidyverse/ellmer#459).
func TestInterruptMidCallAnswersEveryCallBeforeTheNextPrompt(t *testing.T) {
	// The user presses Esc while toolu_C1 (go test) runs; toolu_C2 never
	// starts. The next request must match the case's expected messages:
	// both calls answered (is_error) before the user's new text.
	want := loadCaseHistory(t, "testdata/B26/expected_next_request_messages.json")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	bash := &fakeTool{name: "bash", side: tools.SideShell, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		if strings.Contains(string(args), "go test") {
			close(started)
			<-ctx.Done()
			return tools.Result{Content: "ok  \tzero/pkg/a\t0.2s\n"}, ctx.Err()
		}
		return tools.Result{Content: "vet ok"}, nil
	}}
	p := &scripted{turns: [][]llm.Event{
		{call(0, "toolu_C1", "bash", want[1].ToolCalls()[0].Arguments), call(1, "toolu_C2", "bash", want[1].ToolCalls()[1].Arguments), finish()},
		{text("ok"), finish()},
	}}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(bash), Gate: allow})
	go func() { <-started; cancel() }()
	if res := a.Run(ctx, want[0].Text()); res.StopReason != event.StopInterrupted {
		t.Fatalf("got %+v", res)
	}
	a.Run(context.Background(), want[3].Text())
	// One tool message per result (the loop) or one holding both (the
	// case's Anthropic shape) are the same request: merge them to compare.
	var got []llm.Message
	for _, m := range p.reqs[1].Messages {
		if n := len(got); n > 0 && m.Role == llm.RoleTool && got[n-1].Role == llm.RoleTool {
			got[n-1].Parts = append(append([]llm.Part(nil), got[n-1].Parts...), m.Parts...)
			continue
		}
		got = append(got, m)
	}
	if len(got) != len(want) {
		t.Fatalf("next request has %d messages, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Role != want[i].Role || got[i].Text() != want[i].Text() {
			t.Fatalf("message %d: %s %q, want %s %q", i, got[i].Role, got[i].Text(), want[i].Role, want[i].Text())
		}
	}
	gotR, wantR := got[2].ToolResults(), want[2].ToolResults()
	if len(gotR) != 2 {
		t.Fatalf("results %+v", gotR)
	}
	// The elapsed time is the run's own ("after 0s" here, "after 3s" in
	// the case); the rest of each result is the case's text.
	elapsed := regexp.MustCompile(`after \d+s\.`)
	for i := range wantR {
		g, w := gotR[i], wantR[i]
		if g.CallID != w.CallID || !g.IsError || elapsed.ReplaceAllString(g.Content, "after Ns.") != elapsed.ReplaceAllString(w.Content, "after Ns.") {
			t.Fatalf("result %d: %+v, want %+v", i, g, w)
		}
	}
}

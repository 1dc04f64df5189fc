package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// Round trips against the llmtest fake server speaking the Messages wire.

func fakeProvider(srv *llmtest.Server, idle time.Duration) *Provider {
	return New(Options{BaseURL: srv.URL(), APIKey: "sk-fake", Model: "claude-fake", IdleTimeout: idle})
}

func run(t *testing.T, p *Provider, req llm.Request) (*llm.Assembler, []llm.Event, error) {
	t.Helper()
	ch, err := p.Stream(context.Background(), req)
	if err != nil {
		return nil, nil, err
	}
	a := &llm.Assembler{}
	var evs []llm.Event
	for ev := range ch {
		a.Add(ev)
		evs = append(evs, ev)
	}
	return a, evs, nil
}

// TestFakeThinkingToolsReplay: thinking with a signature, text and two
// parallel calls split across chunks, usage; then the next request replays
// the signed thinking verbatim and answers both calls in one user turn.
func TestFakeThinkingToolsReplay(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(
			llmtest.Reasoning("Both files matter.").Split(3),
			llmtest.Text("Reading both.").Split(2),
			llmtest.ToolCall("read_file", `{"path":"a.go"}`).Split(4),
			llmtest.ToolCall("read_file", `{"path":"b.go"}`).Split(2),
			llmtest.Usage(1200, 87),
		),
		llmtest.Reply(llmtest.Text("Done."), llmtest.Usage(1400, 3)),
	)
	p := fakeProvider(srv, 0)
	user := llm.TextMessage(llm.RoleUser, "read a.go and b.go")
	a, _, err := run(t, p, llm.Request{Messages: []llm.Message{user}, ReasoningEffort: "low"})
	if err != nil || a.Err != nil {
		t.Fatal(err, a.Err)
	}
	m := a.Message()
	sig := llmtest.AnthropicSignature(0, 0)
	if m.Reasoning() != "Both files matter." || m.Parts[0].Signature != sig {
		t.Errorf("reasoning = %q sig %q, want signature %q", m.Reasoning(), m.Parts[0].Signature, sig)
	}
	if m.Text() != "Reading both." {
		t.Errorf("text = %q", m.Text())
	}
	calls := m.ToolCalls()
	want := []llm.ToolCall{
		{ID: "toolu_llmtest_0_0", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "toolu_llmtest_0_1", Name: "read_file", Arguments: `{"path":"b.go"}`},
	}
	if len(calls) != 2 || calls[0] != want[0] || calls[1] != want[1] {
		t.Errorf("calls = %+v", calls)
	}
	if a.Usage == nil || *a.Usage != (llm.Usage{InputTokens: 1200, OutputTokens: 87}) {
		t.Errorf("usage = %+v", a.Usage)
	}
	if a.Finish != llm.FinishToolCalls {
		t.Errorf("finish = %s", a.Finish)
	}

	history := []llm.Message{user, m,
		llm.ToolResultMessage(llm.ToolResult{CallID: calls[0].ID, Name: "read_file", Content: "package a"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: calls[1].ID, Name: "read_file", Content: "package b"}),
	}
	a, _, err = run(t, p, llm.Request{Messages: history, ReasoningEffort: "low"})
	if err != nil || a.Err != nil || a.Message().Text() != "Done." {
		t.Fatalf("second turn: %v %v %q", err, a.Err, a.Message().Text())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Path != "/v1/messages" {
		t.Fatalf("requests = %d", len(reqs))
	}
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	wantAssistant := `{"content":[{"signature":"` + sig + `","thinking":"Both files matter.","type":"thinking"},` +
		`{"text":"Reading both.","type":"text"},` +
		`{"id":"toolu_llmtest_0_0","input":{"path":"a.go"},"name":"read_file","type":"tool_use"},` +
		`{"id":"toolu_llmtest_0_1","input":{"path":"b.go"},"name":"read_file","type":"tool_use"}],"role":"assistant"}`
	wantResults := `{"content":[{"tool_use_id":"toolu_llmtest_0_0","content":[{"text":"package a","type":"text"}],"type":"tool_result"},` +
		`{"tool_use_id":"toolu_llmtest_0_1","cache_control":{"type":"ephemeral"},"content":[{"text":"package b","type":"text"}],"type":"tool_result"}],"role":"user"}`
	if len(body.Messages) != 3 || string(body.Messages[1]) != wantAssistant || string(body.Messages[2]) != wantResults {
		t.Errorf("replayed messages:\n%s\nwant assistant\n%s\nand results\n%s", body.Messages, wantAssistant, wantResults)
	}
	if got := reqs[1].Header.Get("Authorization"); got != "Bearer sk-fake" {
		t.Errorf("authorization = %q", got)
	}
}

// TestFakeErrorKinds: every error kind, before and during the stream.
func TestFakeErrorKinds(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tests := []struct {
		name  string
		turn  llmtest.Turn
		kind  llm.ErrorKind
		retry time.Duration
		// early is true when Stream itself returns the error.
		early bool
	}{
		{"auth", llmtest.Reply(llmtest.Error(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)), llm.ErrAuth, 0, true},
		{"rate limit", llmtest.Reply(llmtest.Error(429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`).WithHeader("retry-after", "3")), llm.ErrRateLimit, 3 * time.Second, true},
		{"overloaded 529", llmtest.Reply(llmtest.Error(529, overloaded)), llm.ErrOverloaded, 0, true},
		{"overflow", llmtest.Reply(llmtest.Error(400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210118 tokens > 200000 maximum"}}`)), llm.ErrContextOverflow, 0, true},
		{"bad request", llmtest.Reply(llmtest.Error(400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`)), llm.ErrBadRequest, 0, true},
		{"server", llmtest.Reply(llmtest.Error(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)), llm.ErrServer, 0, true},
		{"overloaded mid-stream", llmtest.Reply(llmtest.Text("I'll start"), llmtest.Error(200, overloaded)), llm.ErrOverloaded, 0, false},
		{"drop", llmtest.Reply(llmtest.Text("Hel"), llmtest.Drop()), llm.ErrStreamBroken, 0, false},
		{"stall mid-stream", llmtest.Reply(llmtest.Text("Hel"), llmtest.Stall(time.Minute)), llm.ErrStreamStall, 0, false},
		{"stall before headers", llmtest.Reply(llmtest.Stall(time.Minute), llmtest.Text("late")), llm.ErrStreamStall, 0, true},
		{"B09 raw overloaded", llmtest.Reply(llmtest.Raw(readCase(t, "B09/stream_overloaded.sse"))), llm.ErrOverloaded, 0, false},
		{"B09 raw eof mid tool_use", llmtest.Reply(llmtest.Raw(readCase(t, "B09/stream_eof_mid_tool_use.sse"))), llm.ErrStreamBroken, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.turn)
			// Only the stall cases get a short idle timeout, so a slow
			// machine cannot turn another case into a stall.
			idle := time.Duration(0)
			if tc.kind == llm.ErrStreamStall {
				idle = 250 * time.Millisecond
			}
			a, evs, err := run(t, fakeProvider(srv, idle), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
			if tc.early != (err != nil) {
				t.Fatalf("early error = %v, want early %v (events %+v)", err, tc.early, evs)
			}
			if err == nil {
				err = a.Err
				if last := evs[len(evs)-1]; last.Type != llm.EventError {
					t.Fatalf("last event = %s", last.Type)
				}
				for _, ev := range evs {
					if ev.Type == llm.EventFinish || ev.Type == llm.EventToolCallEnd {
						t.Errorf("failed stream emitted %s", ev.Type)
					}
				}
			}
			var pe *llm.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T)", err, err)
			}
			if pe.Kind != tc.kind || pe.RetryAfter != tc.retry {
				t.Errorf("kind = %s retry = %v, want %s %v (%v)", pe.Kind, pe.RetryAfter, tc.kind, tc.retry, pe)
			}
			if pe.Provider != "anthropic" || pe.Model != "claude-fake" {
				t.Errorf("provider/model = %q/%q", pe.Provider, pe.Model)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests: the adapter must not retry", n)
			}
		})
	}
}

// TestFakeRetryNoDuplicateText: after a mid-stream overload, a retry of the
// whole request yields the full text once; the failed attempt's partial
// text belongs to a stream that ended in EventError and is discarded by
// the caller (the agent loop).
func TestFakeRetryNoDuplicateText(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Text("I'll start by reading"), llmtest.Error(200, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)),
		llmtest.Reply(llmtest.Text("I'll start by reading go.mod.")),
	)
	p := fakeProvider(srv, 0)
	req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "go version?")}}
	var final *llm.Assembler
	for attempt := 0; attempt < 3; attempt++ {
		a, _, err := run(t, p, req)
		if err != nil {
			t.Fatal(err)
		}
		if a.Err != nil {
			if !llm.IsRetryable(a.Err) {
				t.Fatalf("attempt %d: non-retryable %v", attempt, a.Err)
			}
			continue
		}
		final = a
		break
	}
	if final == nil || final.Message().Text() != "I'll start by reading go.mod." {
		t.Fatalf("final = %+v", final)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || string(reqs[0].Body) != string(reqs[1].Body) {
		t.Errorf("the retry must resend the identical request (%d requests)", len(reqs))
	}
}

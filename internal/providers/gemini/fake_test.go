package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// Round trips against the llmtest fake server speaking the Gemini alt=sse
// wire.

func fakeProvider(srv *llmtest.Server, idle time.Duration) *Provider {
	return New(Options{BaseURL: srv.URL(), APIKey: "g-fake", Model: "gemini-fake", IdleTimeout: idle})
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

// TestFakeThoughtsCallsReplay: signed thoughts, split text, parallel
// calls (the first signed), usage; the next request replays both
// signatures verbatim and answers the calls by name.
func TestFakeThoughtsCallsReplay(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(
			llmtest.Reasoning("Both files matter.").Split(3),
			llmtest.Text("Reading both.").Split(2),
			llmtest.ToolCall("read_file", `{"path":"a.go"}`),
			llmtest.ToolCall("read_file", `{"path":"b.go"}`),
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
	thoughtSig, callSig := llmtest.GeminiSignature(0, 0), llmtest.GeminiSignature(0, 1)
	if m.Reasoning() != "Both files matter." || m.Parts[0].Signature != thoughtSig {
		t.Errorf("reasoning = %q sig %q", m.Reasoning(), m.Parts[0].Signature)
	}
	if m.Text() != "Reading both." {
		t.Errorf("text = %q", m.Text())
	}
	calls := m.ToolCalls()
	if len(calls) != 2 {
		t.Fatalf("calls = %+v", calls)
	}
	if calls[0].ID == "" || calls[0].ID == calls[1].ID {
		t.Errorf("call ids %q %q: want unique, non-empty", calls[0].ID, calls[1].ID)
	}
	if calls[0].Arguments != `{"path": "a.go"}` || calls[0].Signature != callSig || calls[1].Signature != "" {
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
	a, _, err = run(t, p, llm.Request{Messages: history})
	if err != nil || a.Err != nil || a.Message().Text() != "Done." {
		t.Fatalf("second turn: %v %v", err, a.Err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Path != "/v1beta/models/gemini-fake:streamGenerateContent" {
		t.Fatalf("requests = %+v", reqs)
	}
	var body struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	wantModel := `{"role":"model","parts":[{"text":"Both files matter.","thought":true,"thoughtSignature":"` + thoughtSig + `"},` +
		`{"text":"Reading both."},` +
		`{"thoughtSignature":"` + callSig + `","functionCall":{"name":"read_file","args":{"path":"a.go"}}},` +
		`{"functionCall":{"name":"read_file","args":{"path":"b.go"}}}]}`
	wantResults := `{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"package a"}}},` +
		`{"functionResponse":{"name":"read_file","response":{"output":"package b"}}}]}`
	if len(body.Contents) != 3 || string(body.Contents[1]) != wantModel || string(body.Contents[2]) != wantResults {
		t.Errorf("replayed contents:\n%s\nwant model\n%s\nand results\n%s", body.Contents, wantModel, wantResults)
	}
	if got := reqs[1].Header.Get("x-goog-api-key"); got != "g-fake" {
		t.Errorf("key = %q", got)
	}
}

// TestFakeErrorKinds: every error kind, before and during the stream, plus
// the finishes Gemini uses to refuse.
func TestFakeErrorKinds(t *testing.T) {
	tests := []struct {
		name     string
		turn     llmtest.Turn
		kind     llm.ErrorKind
		retry    time.Duration
		early    bool
		sentinel error
	}{
		{"auth", llmtest.Reply(llmtest.Error(403, `{"error": {"code": 403,"message": "Method doesn't allow unregistered callers.","status": "PERMISSION_DENIED"}}`)), llm.ErrAuth, 0, true, nil},
		{"rate limit", llmtest.Reply(llmtest.Error(429, `{"error": {"code": 429,"message": "Resource has been exhausted (e.g. check quota).","status": "RESOURCE_EXHAUSTED","details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo","retryDelay": "4s"}]}}`)), llm.ErrRateLimit, 4 * time.Second, true, nil},
		{"overloaded", llmtest.Reply(llmtest.Error(503, `{"error": {"code": 503,"message": "The model is overloaded. Please try again later.","status": "UNAVAILABLE"}}`)), llm.ErrOverloaded, 0, true, nil},
		{"overflow", llmtest.Reply(llmtest.Error(400, `{"error": {"code": 400,"message": "The input token count (1067544) exceeds the maximum number of tokens allowed (1048576).","status": "INVALID_ARGUMENT"}}`)), llm.ErrContextOverflow, 0, true, nil},
		{"bad request", llmtest.Reply(llmtest.Error(400, `{"error": {"code": 400,"message": "Invalid JSON payload received.","status": "INVALID_ARGUMENT"}}`)), llm.ErrBadRequest, 0, true, nil},
		{"server", llmtest.Reply(llmtest.Error(500, `{"error": {"code": 500,"message": "An internal error has occurred.","status": "INTERNAL"}}`)), llm.ErrServer, 0, true, nil},
		{"overloaded mid-stream", llmtest.Reply(llmtest.Text("Hel"), llmtest.Error(503, `{"error": {"code": 503,"message": "The model is overloaded.","status": "UNAVAILABLE"}}`)), llm.ErrOverloaded, 0, false, nil},
		{"malformed function call", llmtest.Reply(llmtest.Text("Let me"), llmtest.ToolCall("read_file", `{"path": "a`)), llm.ErrMalformedToolCall, 0, false, ErrMalformedFunctionCall},
		{"safety", llmtest.Reply(llmtest.Text("Sure"), llmtest.Finish("SAFETY")), llm.ErrBadRequest, 0, false, ErrBlocked},
		{"recitation", llmtest.Reply(llmtest.Text("Once"), llmtest.Finish("RECITATION")), llm.ErrBadRequest, 0, false, ErrBlocked},
		{"drop", llmtest.Reply(llmtest.Text("Hel"), llmtest.Drop()), llm.ErrStreamBroken, 0, false, nil},
		{"stall mid-stream", llmtest.Reply(llmtest.Text("Hel"), llmtest.Stall(time.Minute)), llm.ErrStreamStall, 0, false, nil},
		{"stall before headers", llmtest.Reply(llmtest.Stall(time.Minute), llmtest.Text("late")), llm.ErrStreamStall, 0, true, nil},
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
					if ev.Type == llm.EventFinish {
						t.Errorf("failed stream emitted finish")
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
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("err %v does not wrap %v", err, tc.sentinel)
			}
			if pe.Provider != "gemini" || pe.Model != "gemini-fake" {
				t.Errorf("provider/model = %q/%q", pe.Provider, pe.Model)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests: the adapter must not retry", n)
			}
		})
	}
}

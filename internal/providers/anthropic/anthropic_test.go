package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// replay is a 127.0.0.1 server that answers each request with the next
// scripted (status, body) pair and records the request bodies.
type replay struct {
	mu       sync.Mutex
	bodies   [][]byte
	paths    []string
	headers  []http.Header
	answers  []answer
	srv      *httptest.Server
	released chan struct{}
}

type answer struct {
	status int
	header map[string]string
	body   string
	// hang keeps the connection open after body until the test ends.
	hang bool
}

func newReplay(t *testing.T, answers ...answer) *replay {
	t.Helper()
	r := &replay{answers: answers, released: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		i := len(r.bodies)
		r.bodies = append(r.bodies, b)
		r.paths = append(r.paths, req.URL.Path)
		r.headers = append(r.headers, req.Header.Clone())
		r.mu.Unlock()
		if i >= len(r.answers) {
			http.Error(w, "no more answers", 500)
			return
		}
		a := r.answers[i]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		if a.status == 200 || a.status == 0 {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(max(a.status, 200))
		io.WriteString(w, a.body)
		w.(http.Flusher).Flush()
		if a.hang {
			select {
			case <-r.released:
			case <-req.Context().Done():
			}
		}
	}))
	t.Cleanup(func() { close(r.released); r.srv.Close() })
	return r
}

func (r *replay) body(i int) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bodies[i]
}

func testProvider(r *replay) *Provider {
	return New(Options{Name: "anthropic", BaseURL: r.srv.URL, APIKey: "sk-test", Model: "claude-test"})
}

func collect(t *testing.T, ch <-chan llm.Event) []llm.Event {
	t.Helper()
	var evs []llm.Event
	for ev := range ch {
		evs = append(evs, ev)
	}
	return evs
}

func readCase(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOverloadedErrorMidStreamIsRetryableAndEndsTheStream: HTTP 200,
// partial text, then `event: error` overloaded_error, then EOF. The stream
// ends with a retryable ErrOverloaded and nothing after it.
// Case B09 (testdata/B09/stream_overloaded.sse; anthropics/anthropic-sdk-go#200).
func TestOverloadedErrorMidStreamIsRetryableAndEndsTheStream(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: readCase(t, "B09/stream_overloaded.sse")})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, ch)
	var text strings.Builder
	for _, ev := range evs[:len(evs)-1] {
		if ev.Type == llm.EventError || ev.Type == llm.EventFinish {
			t.Fatalf("terminal event before the end: %+v", ev)
		}
		if ev.Type == llm.EventTextDelta {
			text.WriteString(ev.Text)
		}
	}
	if got := text.String(); got != "I'll start by reading" {
		t.Errorf("text = %q", got)
	}
	last := evs[len(evs)-1]
	if last.Type != llm.EventError {
		t.Fatalf("last event = %s, want error", last.Type)
	}
	var pe *llm.ProviderError
	if !errors.As(last.Err, &pe) {
		t.Fatalf("error %T is not a *llm.ProviderError", last.Err)
	}
	if pe.Kind != llm.ErrOverloaded || !pe.Retryable() || !llm.IsRetryable(last.Err) {
		t.Errorf("kind = %s retryable = %v, want overloaded and retryable", pe.Kind, pe.Retryable())
	}
	if pe.Provider != "anthropic" || pe.Model != "claude-test" {
		t.Errorf("provider/model = %q/%q", pe.Provider, pe.Model)
	}
	if pe.Message != "Overloaded" {
		t.Errorf("message = %q", pe.Message)
	}
}

// TestEOFMidToolUseIsATruncatedStreamNotACompletion: EOF with no
// message_stop and no error event is a truncated stream, never a
// completion, and the half call never ends.
// Case B09 (testdata/B09/stream_eof_mid_tool_use.sse; brainlid/langchain#193).
func TestEOFMidToolUseIsATruncatedStreamNotACompletion(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: readCase(t, "B09/stream_eof_mid_tool_use.sse")})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "clean")}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, ch)
	var a llm.Assembler
	for _, ev := range evs {
		if ev.Type == llm.EventToolCallEnd || ev.Type == llm.EventFinish {
			t.Fatalf("unexpected %s: the half tool call must not complete", ev.Type)
		}
		a.Add(ev)
	}
	if evs[len(evs)-1].Type != llm.EventError {
		t.Fatalf("last event = %s", evs[len(evs)-1].Type)
	}
	if k := llm.KindOf(a.Err); k != llm.ErrStreamBroken {
		t.Errorf("kind = %s, want stream_broken", k)
	}
	if !llm.IsRetryable(a.Err) {
		t.Error("a truncated stream should be retryable")
	}
	if !strings.Contains(a.Err.Error(), "bash") {
		t.Errorf("error should name the discarded call: %v", a.Err)
	}
}

const thinkingToolsStream = "event: message_start\n" +
	`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":1000,"output_tokens":1}}}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}` + "\n\n" +
	"event: ping\ndata: {\"type\": \"ping\"}\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two files"}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" to read."}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCkYIARgCKkA+sig=="}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":0}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Reading both."}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":1}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_A","name":"read_file","input":{}}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a."}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"go\"}"}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":2}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_B","name":"read_file","input":{}}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"b.go\"}"}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":3}` + "\n\n" +
	"event: message_delta\n" +
	`data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":87}}` + "\n\n" +
	"event: message_stop\n" +
	`data: {"type":"message_stop"}` + "\n\n"

func TestThinkingToolsUsage(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: thinkingToolsStream})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{
		Messages:        []llm.Message{llm.TextMessage(llm.RoleUser, "read a.go and b.go")},
		ReasoningEffort: "medium",
	})
	if err != nil {
		t.Fatal(err)
	}
	var a llm.Assembler
	evs := collect(t, ch)
	for _, ev := range evs {
		a.Add(ev)
	}
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	m := a.Message()
	if got := m.Reasoning(); got != "Two files to read." {
		t.Errorf("reasoning = %q", got)
	}
	if m.Parts[0].Type != llm.PartReasoning || m.Parts[0].Signature != "EqQBCkYIARgCKkA+sig==" {
		t.Errorf("first part = %+v, want signed reasoning", m.Parts[0])
	}
	if got := m.Text(); got != "Reading both." {
		t.Errorf("text = %q", got)
	}
	calls := m.ToolCalls()
	want := []llm.ToolCall{
		{ID: "toolu_A", Name: "read_file", Arguments: `{"path": "a.go"}`},
		{ID: "toolu_B", Name: "read_file", Arguments: `{"path": "b.go"}`},
	}
	if len(calls) != len(want) {
		t.Fatalf("calls = %+v", calls)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, calls[i], want[i])
		}
	}
	wantUsage := llm.Usage{InputTokens: 1210, OutputTokens: 87, CacheReadTokens: 1000, CacheWriteTokens: 200}
	if a.Usage == nil || *a.Usage != wantUsage {
		t.Errorf("usage = %+v, want %+v", a.Usage, wantUsage)
	}
	if a.Finish != llm.FinishToolCalls {
		t.Errorf("finish = %s", a.Finish)
	}
	// The request asked for budget thinking and kept the default temperature.
	var sent map[string]any
	if err := json.Unmarshal(r.body(0), &sent); err != nil {
		t.Fatal(err)
	}
	th, _ := sent["thinking"].(map[string]any)
	if th["type"] != "enabled" || th["budget_tokens"] != float64(thinkingBudget["medium"]) {
		t.Errorf("thinking = %v", sent["thinking"])
	}
	if sent["stream"] != true || sent["max_tokens"] != float64(DefaultMaxTokens+thinkingBudget["medium"]) {
		t.Errorf("stream/max_tokens = %v/%v", sent["stream"], sent["max_tokens"])
	}

	// Next turn: the signed thinking is replayed verbatim before the text
	// and the calls, and the results travel first in one user turn.
	history := []llm.Message{
		llm.TextMessage(llm.RoleUser, "read a.go and b.go"),
		m,
		llm.ToolResultMessage(llm.ToolResult{CallID: "toolu_A", Name: "read_file", Content: "package a"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: "toolu_B", Name: "read_file", Content: "no such file", IsError: true}),
	}
	r2 := newReplay(t, answer{status: 200, body: textStream("done")})
	ch, err = testProvider(r2).Stream(context.Background(), llm.Request{Messages: history, ReasoningEffort: "medium"})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, ch)
	var body struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(r2.body(0), &body); err != nil {
		t.Fatal(err)
	}
	wantMsgs := `[{"content":[{"text":"read a.go and b.go","type":"text"}],"role":"user"},` +
		`{"content":[{"signature":"EqQBCkYIARgCKkA+sig==","thinking":"Two files to read.","type":"thinking"},` +
		`{"text":"Reading both.","type":"text"},` +
		`{"id":"toolu_A","input":{"path":"a.go"},"name":"read_file","type":"tool_use"},` +
		`{"id":"toolu_B","input":{"path":"b.go"},"name":"read_file","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"tool_use_id":"toolu_A","content":[{"text":"package a","type":"text"}],"type":"tool_result"},` +
		`{"tool_use_id":"toolu_B","is_error":true,"cache_control":{"type":"ephemeral"},"content":[{"text":"no such file","type":"text"}],"type":"tool_result"}],"role":"user"}]`
	if got := string(body.Messages); got != wantMsgs {
		t.Errorf("messages =\n%s\nwant\n%s", got, wantMsgs)
	}
}

// textStream is a minimal good stream that says text.
func textStream(text string) string {
	q, _ := json.Marshal(text)
	return "event: message_start\n" +
		`data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}` + "\n\n" +
		"event: content_block_start\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + string(q) + `}}` + "\n\n" +
		"event: content_block_stop\n" +
		`data: {"type":"content_block_stop","index":0}` + "\n\n" +
		"event: message_delta\n" +
		`data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}` + "\n\n" +
		"event: message_stop\n" +
		`data: {"type":"message_stop"}` + "\n\n"
}

func TestRequestEncoding(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: textStream("ok")})
	temp := 0.2
	req := llm.Request{
		System: "You are Zero.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Parts: []llm.Part{
				{Type: llm.PartText, Text: "what is in this picture?"},
				{Type: llm.PartImage, Image: &llm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}},
			}},
			llm.TextMessage(llm.RoleUser, "and be brief"),
			// Reasoning from another provider has no signature: dropped.
			{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartReasoning, Text: "hmm"}, {Type: llm.PartText, Text: "A cat."}}},
			{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartReasoning, Redacted: true, Text: "opaque=="}}},
			llm.TextMessage(llm.RoleUser, "thanks"),
		},
		Tools: []llm.ToolSpec{
			{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
			{Name: "list", Description: "List files.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		},
		Temperature: &temp,
		MaxTokens:   1000,
	}
	ch, err := testProvider(r).Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, ch)
	var got struct {
		System      json.RawMessage `json:"system"`
		Tools       json.RawMessage `json:"tools"`
		Messages    json.RawMessage `json:"messages"`
		Temperature *float64        `json:"temperature"`
		MaxTokens   int             `json:"max_tokens"`
		Model       string          `json:"model"`
	}
	if err := json.Unmarshal(r.body(0), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"system", string(got.System), `[{"text":"You are Zero.","cache_control":{"type":"ephemeral"},"type":"text"}]`},
		{"tools", string(got.Tools), `[{"input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object","additionalProperties":false},"name":"read_file","description":"Read a file."},` +
			`{"input_schema":{"properties":{},"type":"object"},"name":"list","description":"List files.","cache_control":{"type":"ephemeral"}}]`},
		{"messages", string(got.Messages), `[{"content":[{"text":"what is in this picture?","type":"text"},{"source":{"data":"iVBORw==","media_type":"image/png","type":"base64"},"type":"image"},{"text":"and be brief","type":"text"}],"role":"user"},` +
			`{"content":[{"text":"A cat.","type":"text"},{"data":"opaque==","type":"redacted_thinking"}],"role":"assistant"},` +
			`{"content":[{"text":"thanks","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}]`},
		{"model", got.Model, "claude-test"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s =\n%s\nwant\n%s", tc.name, tc.got, tc.want)
		}
	}
	if got.Temperature == nil || *got.Temperature != 0.2 || got.MaxTokens != 1000 {
		t.Errorf("temperature/max_tokens = %v/%d", got.Temperature, got.MaxTokens)
	}
	h := r.headers[0]
	if h.Get("Authorization") != "Bearer sk-test" && h.Get("X-Api-Key") != "sk-test" {
		t.Errorf("no credential sent: %v", h)
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name   string
		a      answer
		kind   llm.ErrorKind
		retry  time.Duration
		inMsg  string
		status int
	}{
		{"overloaded 529", answer{status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, llm.ErrOverloaded, 0, "Overloaded", 529},
		{"rate limit with retry-after", answer{status: 429, header: map[string]string{"retry-after": "7"}, body: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`}, llm.ErrRateLimit, 7 * time.Second, "rate limit", 429},
		{"auth", answer{status: 401, body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}, llm.ErrAuth, 0, "invalid x-api-key", 401},
		{"server", answer{status: 500, body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`}, llm.ErrServer, 0, "Internal", 500},
		{"not found", answer{status: 404, body: `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}`}, llm.ErrBadRequest, 0, "claude-nope", 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newReplay(t, tc.a)
			_, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
			var pe *llm.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want *llm.ProviderError", err, err)
			}
			if pe.Kind != tc.kind || pe.Status != tc.status || pe.RetryAfter != tc.retry {
				t.Errorf("got kind=%s status=%d retry=%v, want %s %d %v", pe.Kind, pe.Status, pe.RetryAfter, tc.kind, tc.status, tc.retry)
			}
			if !strings.Contains(pe.Message, tc.inMsg) {
				t.Errorf("message %q lacks %q", pe.Message, tc.inMsg)
			}
			if pe.Provider != "anthropic" || pe.Model != "claude-test" {
				t.Errorf("provider/model = %q/%q", pe.Provider, pe.Model)
			}
			if len(r.bodies) != 1 {
				t.Errorf("%d requests sent; the SDK must not retry", len(r.bodies))
			}
		})
	}
}

// b10Expect is one entry of case B10's expected.json.
type b10Expect struct {
	Class        string `json:"class"`
	Subclass     string `json:"subclass"`
	PromptTokens int    `json:"prompt_tokens"`
	MaxTokens    int    `json:"max_tokens"`
	Limit        int    `json:"limit"`
}

// TestAnthropicContextOverflowBodiesCarryTheirNumbers feeds Anthropic's
// overflow bodies through the real path and checks class, subclass and
// numbers from expected.json.
// Case B10 (testdata/B10/error_02.json, error_03.json; anthropics/claude-code#820).
func TestAnthropicContextOverflowBodiesCarryTheirNumbers(t *testing.T) {
	var expect map[string]b10Expect
	if err := json.Unmarshal([]byte(readCase(t, "B10/expected.json")), &expect); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"error_02.json", "error_03.json"} {
		t.Run(name, func(t *testing.T) {
			var c struct {
				Status int             `json:"http_status"`
				Body   json.RawMessage `json:"body"`
			}
			if err := json.Unmarshal([]byte(readCase(t, "B10/"+name)), &c); err != nil {
				t.Fatal(err)
			}
			want := expect[name]
			r := newReplay(t, answer{status: c.Status, body: string(c.Body)})
			_, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
			if k := llm.KindOf(err); string(k) != want.Class {
				t.Errorf("kind = %s (%v), want %s", k, err, want.Class)
			}
			if llm.IsRetryable(err) {
				t.Error("an overflow must not be retried as-is")
			}
			o, ok := llm.AsOverflow(err)
			if !ok {
				t.Fatalf("no overflow numbers in %v", err)
			}
			if o.Subclass() != want.Subclass || o.PromptTokens != want.PromptTokens || o.MaxTokens != want.MaxTokens || o.Limit != want.Limit {
				t.Errorf("overflow = %+v (subclass %q), want %+v", o, o.Subclass(), want)
			}
		})
	}
}

func TestStallAndConnect(t *testing.T) {
	half := strings.SplitAfter(textStream("hi"), "\n\n")
	r := newReplay(t, answer{status: 200, body: half[0] + half[1], hang: true})
	p := New(Options{BaseURL: r.srv.URL, APIKey: "k", Model: "claude-test", IdleTimeout: 250 * time.Millisecond})
	ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, ch)
	if k := llm.KindOf(evs[len(evs)-1].Err); k != llm.ErrStreamStall {
		t.Errorf("stall kind = %s (%v)", k, evs[len(evs)-1].Err)
	}

	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	_, err = New(Options{BaseURL: url, Model: "claude-test"}).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if k := llm.KindOf(err); k != llm.ErrConnect {
		t.Errorf("connect kind = %s (%v)", k, err)
	}
}

func TestCancel(t *testing.T) {
	half := strings.SplitAfter(textStream("hi"), "\n\n")
	r := newReplay(t, answer{status: 200, body: half[0] + half[1], hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := testProvider(r).Stream(ctx, llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	evs := collect(t, ch)
	last := evs[len(evs)-1]
	if last.Type != llm.EventError || llm.KindOf(last.Err) != llm.ErrCanceled || !errors.Is(last.Err, context.Canceled) {
		t.Errorf("last = %+v, want canceled error", last)
	}
}

// TestIgnoresEnvironment: the SDK's environment defaults are off, so an
// ANTHROPIC_API_KEY in the environment is never sent to a base URL the
// profile names, and ANTHROPIC_BASE_URL does not redirect requests.
func TestIgnoresEnvironment(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: textStream("ok")})
	t.Setenv("ANTHROPIC_API_KEY", "sk-from-env")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "tok-from-env")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-Leak: yes")
	p := New(Options{BaseURL: r.srv.URL, Model: "claude-test"})
	ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, ch)
	h := r.headers[0]
	for _, k := range []string{"Authorization", "X-Api-Key", "X-Leak"} {
		if v := h.Get(k); v != "" {
			t.Errorf("%s sent from the environment: %q", k, v)
		}
	}
}

func TestBaseURLForms(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/"} {
		r := newReplay(t, answer{status: 200, body: textStream("ok")})
		p := New(Options{BaseURL: r.srv.URL + suffix, Model: "claude-test"})
		ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
		if err != nil {
			t.Fatalf("%q: %v", suffix, err)
		}
		collect(t, ch)
		if len(r.paths) != 1 || r.paths[0] != "/v1/messages" {
			t.Errorf("base %q: paths %q, want [/v1/messages]", suffix, r.paths)
		}
	}
}

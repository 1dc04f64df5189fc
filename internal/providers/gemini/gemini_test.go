package gemini

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
// scripted answer and records requests.
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
	hang   bool
}

func newReplay(t *testing.T, answers ...answer) *replay {
	t.Helper()
	r := &replay{answers: answers, released: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		i := len(r.bodies)
		r.bodies = append(r.bodies, b)
		r.paths = append(r.paths, req.URL.RequestURI())
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
		if a.status == 0 || a.status == 200 {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
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
	return New(Options{BaseURL: r.srv.URL, APIKey: "g-key", Model: "gemini-test"})
}

func collect(ch <-chan llm.Event) []llm.Event {
	var evs []llm.Event
	for ev := range ch {
		evs = append(evs, ev)
	}
	return evs
}

func assemble(evs []llm.Event) *llm.Assembler {
	a := &llm.Assembler{}
	for _, ev := range evs {
		a.Add(ev)
	}
	return a
}

// chunks joins alt=sse chunks the way the Gemini API frames them.
func chunks(data ...string) string {
	var b strings.Builder
	for _, d := range data {
		b.WriteString("data: " + d + "\r\n\r\n")
	}
	return b.String()
}

var userHi = []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}

func TestThoughtsCallsUsageAndReplay(t *testing.T) {
	stream := chunks(
		`{"candidates": [{"content": {"parts": [{"text": "Two files, ","thought": true}],"role": "model"},"index": 0}],"modelVersion": "gemini-test"}`,
		`{"candidates": [{"content": {"parts": [{"text": "read both.","thought": true,"thoughtSignature": "Cq0CAdHtim9sig/+=="}],"role": "model"},"index": 0}]}`,
		`{"candidates": [{"content": {"parts": [{"text": "Reading "}],"role": "model"},"index": 0}]}`,
		`{"candidates": [{"content": {"parts": [{"text": "both."},{"functionCall": {"name": "read_file","args": {"path": "a.go"}},"thoughtSignature": "CiIBcallsig=="},{"functionCall": {"name": "read_file","args": {"path": "b.go"}}}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 1200,"candidatesTokenCount": 40,"totalTokenCount": 1290,"cachedContentTokenCount": 1000,"thoughtsTokenCount": 50}}`,
	)
	r := newReplay(t, answer{body: stream}, answer{body: chunks(`{"candidates": [{"content": {"parts": [{"text": "done"}],"role": "model"},"finishReason": "STOP","index": 0}]}`)})
	p := testProvider(r)
	ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "read a.go and b.go")}, ReasoningEffort: "high"})
	if err != nil {
		t.Fatal(err)
	}
	a := assemble(collect(ch))
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	m := a.Message()
	if got := m.Reasoning(); got != "Two files, read both." {
		t.Errorf("reasoning = %q", got)
	}
	if m.Parts[0].Signature != "Cq0CAdHtim9sig/+==" {
		t.Errorf("reasoning signature = %q", m.Parts[0].Signature)
	}
	if got := m.Text(); got != "Reading both." {
		t.Errorf("text = %q", got)
	}
	calls := m.ToolCalls()
	if len(calls) != 2 {
		t.Fatalf("calls = %+v", calls)
	}
	if calls[0].ID == calls[1].ID || !strings.HasPrefix(calls[0].ID, "call_") {
		t.Errorf("ids not unique: %q %q", calls[0].ID, calls[1].ID)
	}
	wantArgs := []string{`{"path": "a.go"}`, `{"path": "b.go"}`}
	wantSig := []string{"CiIBcallsig==", ""}
	for i, c := range calls {
		if c.Name != "read_file" || c.Arguments != wantArgs[i] || c.Signature != wantSig[i] {
			t.Errorf("call %d = %+v", i, c)
		}
	}
	wantUsage := llm.Usage{InputTokens: 1200, OutputTokens: 90, CacheReadTokens: 1000, ReasoningTokens: 50}
	if a.Usage == nil || *a.Usage != wantUsage {
		t.Errorf("usage = %+v, want %+v", a.Usage, wantUsage)
	}
	if a.Finish != llm.FinishToolCalls {
		t.Errorf("finish = %s", a.Finish)
	}
	if got := r.paths[0]; got != "/v1beta/models/gemini-test:streamGenerateContent?alt=sse" {
		t.Errorf("path = %q", got)
	}
	if got := r.headers[0].Get("x-goog-api-key"); got != "g-key" {
		t.Errorf("key header = %q", got)
	}
	var first map[string]json.RawMessage
	json.Unmarshal(r.body(0), &first)
	if got := string(first["generationConfig"]); got != `{"thinkingConfig":{"includeThoughts":true,"thinkingBudget":24576}}` {
		t.Errorf("generationConfig = %s", got)
	}

	// Next turn: thought and call signatures go back verbatim, results by
	// name, in one user turn.
	history := []llm.Message{
		llm.TextMessage(llm.RoleUser, "read a.go and b.go"),
		m,
		llm.ToolResultMessage(llm.ToolResult{CallID: calls[0].ID, Name: "read_file", Content: "package a"}),
		llm.ToolResultMessage(llm.ToolResult{CallID: calls[1].ID, Content: "no such file", IsError: true}),
	}
	ch, err = p.Stream(context.Background(), llm.Request{Messages: history})
	if err != nil {
		t.Fatal(err)
	}
	if a := assemble(collect(ch)); a.Err != nil || a.Message().Text() != "done" {
		t.Fatalf("second turn: %v %q", a.Err, a.Message().Text())
	}
	want := `{"contents":[{"role":"user","parts":[{"text":"read a.go and b.go"}]},` +
		`{"role":"model","parts":[{"text":"Two files, read both.","thought":true,"thoughtSignature":"Cq0CAdHtim9sig/+=="},` +
		`{"text":"Reading both."},` +
		`{"thoughtSignature":"CiIBcallsig==","functionCall":{"name":"read_file","args":{"path":"a.go"}}},` +
		`{"functionCall":{"name":"read_file","args":{"path":"b.go"}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"package a"}}},` +
		`{"functionResponse":{"name":"read_file","response":{"error":"no such file"}}}]}]}`
	if got := string(r.body(1)); got != want {
		t.Errorf("second request =\n%s\nwant\n%s", got, want)
	}
}

func TestRequestEncoding(t *testing.T) {
	r := newReplay(t, answer{body: chunks(`{"candidates": [{"content": {"parts": [{"text": "ok"}],"role": "model"},"finishReason": "STOP","index": 0}]}`)})
	temp := 0.5
	req := llm.Request{
		Model:  "models/gemini-2.5-flash",
		System: "You are Zero.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: "look"}, {Type: llm.PartImage, Image: &llm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}},
			llm.TextMessage(llm.RoleUser, "briefly"),
			{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartReasoning, Signature: "textsig=="}, {Type: llm.PartText, Text: "A cat."}}},
			llm.TextMessage(llm.RoleUser, "thanks"),
		},
		Tools: []llm.ToolSpec{
			{Name: "fs.read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["path"],"additionalProperties":false}`)},
			{Name: "list", Description: "List.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		},
		Temperature: &temp,
		MaxTokens:   512,
	}
	ch, err := testProvider(r).Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(ch)
	var warnings []string
	for _, ev := range evs {
		if ev.Type == llm.EventWarning {
			warnings = append(warnings, ev.Text)
		}
	}
	if len(warnings) == 0 {
		t.Error("expected schema/name warnings for fs.read")
	}
	want := `{"contents":[{"role":"user","parts":[{"text":"look"},{"inlineData":{"mimeType":"image/png","data":"iVBORw=="}},{"text":"briefly"}]},` +
		`{"role":"model","parts":[{"text":"A cat.","thoughtSignature":"textsig=="}]},` +
		`{"role":"user","parts":[{"text":"thanks"}]}],` +
		`"systemInstruction":{"parts":[{"text":"You are Zero."}]},` +
		`"tools":[{"functionDeclarations":[{"name":"fs_read","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer","nullable":true}},"required":["path"]}},` +
		`{"name":"list","description":"List."}]}],` +
		`"generationConfig":{"maxOutputTokens":512,"temperature":0.5}}`
	if got := string(r.body(0)); got != want {
		t.Errorf("request =\n%s\nwant\n%s", got, want)
	}
	if got := r.paths[0]; got != "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" {
		t.Errorf("path = %q", got)
	}
}

// TestCalledNameMappedBack: a call to the wire name comes back under the
// real tool name.
func TestCalledNameMappedBack(t *testing.T) {
	r := newReplay(t, answer{body: chunks(`{"candidates": [{"content": {"parts": [{"functionCall": {"name": "fs_read","args": {"path": "x"}}}],"role": "model"},"finishReason": "STOP","index": 0}]}`)})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: userHi,
		Tools: []llm.ToolSpec{{Name: "fs.read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	calls := assemble(collect(ch)).Message().ToolCalls()
	if len(calls) != 1 || calls[0].Name != "fs.read" {
		t.Errorf("calls = %+v", calls)
	}
}

func TestFinishErrors(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		kind     llm.ErrorKind
		sentinel error
		inMsg    string
	}{
		{"malformed function call", chunks(`{"candidates": [{"content": {"parts": [{"text": "Let me "}],"role": "model"},"index": 0}]}`,
			`{"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL","finishMessage": "Malformed function call: print(default_api.read_file(path=))","index": 0}],"usageMetadata": {"promptTokenCount": 10,"totalTokenCount": 10}}`),
			llm.ErrMalformedToolCall, ErrMalformedFunctionCall, "MALFORMED_FUNCTION_CALL"},
		{"unexpected tool call", chunks(`{"candidates": [{"finishReason": "UNEXPECTED_TOOL_CALL","index": 0}]}`),
			llm.ErrBadRequest, ErrMalformedFunctionCall, "UNEXPECTED_TOOL_CALL"},
		{"safety", chunks(`{"candidates": [{"content": {"parts": [{"text": "Sure"}],"role": "model"},"finishReason": "SAFETY","index": 0,"safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT","probability": "HIGH","blocked": true}]}]}`),
			llm.ErrBadRequest, ErrBlocked, "SAFETY"},
		{"recitation", chunks(`{"candidates": [{"finishReason": "RECITATION","index": 0}]}`), llm.ErrBadRequest, ErrBlocked, "RECITATION"},
		{"prohibited", chunks(`{"candidates": [{"finishReason": "PROHIBITED_CONTENT","index": 0}]}`), llm.ErrBadRequest, ErrBlocked, "PROHIBITED_CONTENT"},
		{"prompt blocked", chunks(`{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},"usageMetadata": {"promptTokenCount": 7,"totalTokenCount": 7}}`),
			llm.ErrBadRequest, ErrBlocked, "prompt was blocked"},
		{"eof without finish", chunks(`{"candidates": [{"content": {"parts": [{"text": "half"}],"role": "model"},"index": 0}]}`),
			llm.ErrStreamBroken, nil, "finishReason"},
		{"error chunk mid-stream", chunks(`{"candidates": [{"content": {"parts": [{"text": "half"}],"role": "model"},"index": 0}]}`,
			`{"error": {"code": 503,"message": "The model is overloaded. Please try again later.","status": "UNAVAILABLE"}}`),
			llm.ErrOverloaded, nil, "overloaded"},
		{"garbage chunk", "data: {not json\r\n\r\n", llm.ErrStreamBroken, nil, "unreadable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newReplay(t, answer{body: tc.body})
			ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: userHi})
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(ch)
			last := evs[len(evs)-1]
			if last.Type != llm.EventError {
				t.Fatalf("last event = %s", last.Type)
			}
			for _, ev := range evs[:len(evs)-1] {
				if ev.Type == llm.EventError || ev.Type == llm.EventFinish {
					t.Fatalf("terminal %s before the end", ev.Type)
				}
			}
			var pe *llm.ProviderError
			if !errors.As(last.Err, &pe) {
				t.Fatalf("err %T", last.Err)
			}
			if pe.Kind != tc.kind {
				t.Errorf("kind = %s, want %s (%v)", pe.Kind, tc.kind, pe)
			}
			if tc.sentinel != nil && !errors.Is(last.Err, tc.sentinel) {
				t.Errorf("err does not wrap %v", tc.sentinel)
			}
			if !strings.Contains(pe.Error(), tc.inMsg) {
				t.Errorf("error %q lacks %q", pe.Error(), tc.inMsg)
			}
			if pe.Provider != "gemini" || pe.Model != "gemini-test" {
				t.Errorf("provider/model = %q/%q", pe.Provider, pe.Model)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name  string
		a     answer
		kind  llm.ErrorKind
		retry time.Duration
	}{
		{"bad key", answer{status: 400, body: `{"error": {"code": 400,"message": "API key not valid. Please pass a valid API key.","status": "INVALID_ARGUMENT","details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo","reason": "API_KEY_INVALID","domain": "googleapis.com"}]}}`}, llm.ErrAuth, 0},
		{"quota with retry delay", answer{status: 429, body: `{"error": {"code": 429,"message": "Resource has been exhausted (e.g. check quota).","status": "RESOURCE_EXHAUSTED","details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo","retryDelay": "31s"}]}}`}, llm.ErrRateLimit, 31 * time.Second},
		{"overloaded", answer{status: 503, body: `{"error": {"code": 503,"message": "The model is overloaded. Please try again later.","status": "UNAVAILABLE"}}`}, llm.ErrOverloaded, 0},
		{"not found", answer{status: 404, body: `{"error": {"code": 404,"message": "models/gemini-nope is not found for API version v1beta","status": "NOT_FOUND"}}`}, llm.ErrBadRequest, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newReplay(t, tc.a)
			_, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: userHi})
			var pe *llm.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v", err)
			}
			if pe.Kind != tc.kind || pe.RetryAfter != tc.retry || pe.Status != tc.a.status {
				t.Errorf("got %s retry=%v status=%d, want %s %v %d (%v)", pe.Kind, pe.RetryAfter, pe.Status, tc.kind, tc.retry, tc.a.status, pe)
			}
		})
	}
}

// TestGeminiContextOverflowBodyCarriesItsNumbers: Gemini's overflow body
// is a context overflow, not retried as-is, with the numbers expected.json
// gives.
// Case B10 (testdata/B10/error_04.json; google-gemini/gemini-cli#12115).
func TestGeminiContextOverflowBodyCarriesItsNumbers(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "B10", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var expect map[string]struct {
		Class        string `json:"class"`
		Subclass     string `json:"subclass"`
		PromptTokens int    `json:"prompt_tokens"`
		MaxTokens    int    `json:"max_tokens"`
		Limit        int    `json:"limit"`
	}
	if err := json.Unmarshal(read("expected.json"), &expect); err != nil {
		t.Fatal(err)
	}
	var c struct {
		Status int             `json:"http_status"`
		Body   json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(read("error_04.json"), &c); err != nil {
		t.Fatal(err)
	}
	want := expect["error_04.json"]
	r := newReplay(t, answer{status: c.Status, body: string(c.Body)})
	_, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: userHi})
	if k := llm.KindOf(err); string(k) != want.Class {
		t.Errorf("kind = %s (%v), want %s", k, err, want.Class)
	}
	if llm.IsRetryable(err) {
		t.Error("overflow must not be retried as-is")
	}
	o, ok := llm.AsOverflow(err)
	if !ok {
		t.Fatalf("no overflow numbers in %v", err)
	}
	if o.Subclass() != want.Subclass || o.PromptTokens != want.PromptTokens || o.MaxTokens != want.MaxTokens || o.Limit != want.Limit {
		t.Errorf("overflow = %+v, want %+v", o, want)
	}
}

func TestStallConnectCancel(t *testing.T) {
	half := chunks(`{"candidates": [{"content": {"parts": [{"text": "half"}],"role": "model"},"index": 0}]}`)
	r := newReplay(t, answer{body: half, hang: true}, answer{body: half, hang: true})
	p := New(Options{BaseURL: r.srv.URL, Model: "gemini-test", IdleTimeout: 250 * time.Millisecond})
	ch, err := p.Stream(context.Background(), llm.Request{Messages: userHi})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(ch)
	if k := llm.KindOf(evs[len(evs)-1].Err); k != llm.ErrStreamStall {
		t.Errorf("stall: kind = %s (%v)", k, evs[len(evs)-1].Err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	ch, err = testProvider(r).Stream(ctx, llm.Request{Messages: userHi})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	evs = collect(ch)
	if last := evs[len(evs)-1]; llm.KindOf(last.Err) != llm.ErrCanceled || !errors.Is(last.Err, context.Canceled) {
		t.Errorf("cancel: last = %+v", last)
	}

	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	_, err = New(Options{BaseURL: url, Model: "gemini-test"}).Stream(context.Background(), llm.Request{Messages: userHi})
	if k := llm.KindOf(err); k != llm.ErrConnect {
		t.Errorf("connect: kind = %s (%v)", k, err)
	}
}

func TestBaseURLWithVersion(t *testing.T) {
	ok := chunks(`{"candidates": [{"content": {"parts": [{"text": "ok"}],"role": "model"},"finishReason": "STOP","index": 0}]}`)
	tests := []struct{ suffix, version, want string }{
		{"", "", "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"},
		{"/", "", "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"},
		{"/v1beta", "", "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"},
		{"/v1/", "", "/v1/models/gemini-test:streamGenerateContent?alt=sse"},
		{"", "v1alpha", "/v1alpha/models/gemini-test:streamGenerateContent?alt=sse"},
	}
	for _, tc := range tests {
		r := newReplay(t, answer{body: ok})
		p := New(Options{BaseURL: r.srv.URL + tc.suffix, APIVersion: tc.version, Model: "gemini-test"})
		ch, err := p.Stream(context.Background(), llm.Request{Messages: userHi})
		if err != nil {
			t.Fatal(err)
		}
		collect(ch)
		if got := r.paths[0]; got != tc.want {
			t.Errorf("base %q version %q: path %q, want %q", tc.suffix, tc.version, got, tc.want)
		}
	}
}

package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// bytesTransport answers every request with HTTP 200 and a fixed
// event-stream body, without a network.
type bytesTransport []byte

func (b bytesTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(b)),
		Request:    req,
	}, nil
}

// FuzzStream feeds arbitrary bytes as an alt=sse body through the real
// path and checks the stream contract: one terminal event, last; every
// tool call starts once, ends once, with an id; errors are typed.
func FuzzStream(f *testing.F) {
	f.Add([]byte(chunks(`{"candidates": [{"content": {"parts": [{"text": "a","thought": true,"thoughtSignature": "s"},{"text": "b"},{"functionCall": {"name": "f","args": {"x": 1}},"thoughtSignature": "t"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 1,"candidatesTokenCount": 2,"thoughtsTokenCount": 3}}`)))
	f.Add([]byte(chunks(`{"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL","index": 0}]}`)))
	f.Add([]byte(chunks(`{"promptFeedback": {"blockReason": "SAFETY"}}`)))
	f.Add([]byte(chunks(`{"error": {"code": 503,"message": "overloaded","status": "UNAVAILABLE"}}`)))
	f.Add([]byte("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"half\"}]}}]}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p := New(Options{BaseURL: "http://127.0.0.1:1", Model: "m", IdleTimeout: -1,
			HTTPClient: &http.Client{Transport: bytesTransport(body)}})
		ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "x")}})
		if err != nil {
			t.Fatalf("a 200 response must open a stream: %v", err)
		}
		started, ended := map[int]bool{}, map[int]bool{}
		terminal := 0
		var last llm.Event
		for ev := range ch {
			if terminal > 0 {
				t.Fatalf("event %s after terminal event", ev.Type)
			}
			switch ev.Type {
			case llm.EventFinish:
				terminal++
			case llm.EventError:
				terminal++
				if llm.KindOf(ev.Err) == llm.ErrUnknown {
					t.Fatalf("untyped error: %v", ev.Err)
				}
			case llm.EventToolCallStart:
				if started[ev.Index] {
					t.Fatalf("call %d started twice", ev.Index)
				}
				started[ev.Index] = true
			case llm.EventToolCallEnd:
				if !started[ev.Index] || ended[ev.Index] || ev.ToolCall == nil || ev.ToolCall.ID == "" {
					t.Fatalf("bad end of call %d: %+v", ev.Index, ev.ToolCall)
				}
				if !json.Valid([]byte(ev.ToolCall.Arguments)) {
					t.Fatalf("call %d arguments not JSON: %q", ev.Index, ev.ToolCall.Arguments)
				}
				ended[ev.Index] = true
			}
			last = ev
		}
		if terminal != 1 || (last.Type != llm.EventFinish && last.Type != llm.EventError) {
			t.Fatalf("stream ended with %d terminal events, last %s", terminal, last.Type)
		}
	})
}

package anthropic

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

// FuzzStream feeds arbitrary bytes as a Messages event stream through the
// real path (SDK decoder and this package's event translation) and checks
// the stream contract: exactly one terminal event, last; a tool call ends
// only after it started, once; no event after an error.
func FuzzStream(f *testing.F) {
	for _, name := range []string{"B09/stream_overloaded.sse", "B09/stream_eof_mid_tool_use.sse"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(thinkingToolsStream))
	f.Add([]byte(textStream("hello")))
	f.Add([]byte(redactedStream))
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":5}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p := New(Options{BaseURL: "http://127.0.0.1:1", Model: "m", IdleTimeout: -1,
			HTTPClient: &http.Client{Transport: bytesTransport(body)}})
		ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "x")}})
		if err != nil {
			if llm.KindOf(err) == llm.ErrUnknown {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		started := map[int]bool{}
		ended := map[int]bool{}
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
					t.Fatalf("untyped stream error: %v", ev.Err)
				}
			case llm.EventToolCallStart:
				if started[ev.Index] {
					t.Fatalf("call %d started twice", ev.Index)
				}
				started[ev.Index] = true
			case llm.EventToolCallDelta:
				if !started[ev.Index] || ended[ev.Index] {
					t.Fatalf("delta for call %d outside start..end", ev.Index)
				}
			case llm.EventToolCallEnd:
				if !started[ev.Index] || ended[ev.Index] {
					t.Fatalf("call %d ended without start or twice", ev.Index)
				}
				if ev.ToolCall == nil || ev.ToolCall.ID == "" {
					t.Fatalf("call %d ended without an id", ev.Index)
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

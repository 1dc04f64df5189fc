package llmtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

func postTo(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

const anthropicReq = `{"model":"claude-test","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`

// TestAnthropicStreamBytes pins the exact Messages SSE bytes of a turn
// with thinking, split text, two split tool calls and usage.
func TestAnthropicStreamBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(
		Reasoning("Two files.").Split(2),
		Text("Reading both.").Split(2),
		ToolCall("read_file", `{"path":"a.go"}`).Split(3),
		ToolCall("read_file", `{"path":"b.go"}`).WithID("toolu_fixed"),
		Usage(1200, 87),
	))
	resp, body := postTo(t, srv.URL()+"/v1/messages", anthropicReq)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	golden(t, "anthropic_stream.golden", body)
	if got := srv.Requests()[0].Path; got != "/v1/messages" {
		t.Errorf("recorded path %q", got)
	}
}

func TestAnthropicWholeBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Reasoning("hm"), Text("Hi"), ToolCall("list", `{}`), Usage(3, 4)))
	_, body := postTo(t, srv.URL()+"/v1/messages", `{"model":"claude-test","max_tokens":10,"messages":[]}`)
	golden(t, "anthropic_whole.golden", body)
}

// TestAnthropicErrors: an error before the stream is an HTTP error; after
// it began it is an `event: error` frame (case B09's shape) and nothing
// follows it.
func TestAnthropicErrors(t *testing.T) {
	srv := NewServer(t)
	overloaded := `{"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}`
	srv.Script(
		Reply(Error(529, overloaded)),
		Reply(Text("I'll start by reading"), Error(529, overloaded), Text("never")),
	)
	resp, body := postTo(t, srv.URL()+"/v1/messages", anthropicReq)
	if resp.StatusCode != 529 || string(body) != overloaded {
		t.Errorf("http error: %d %s", resp.StatusCode, body)
	}
	resp, body = postTo(t, srv.URL()+"/v1/messages", anthropicReq)
	want := "event: error\ndata: " + overloaded + "\n\n"
	if resp.StatusCode != 200 || !bytes.HasSuffix(body, []byte(want)) || bytes.Contains(body, []byte("never")) {
		t.Errorf("mid-stream error: %d\n%s", resp.StatusCode, body)
	}
	if bytes.Contains(body, []byte("message_stop")) {
		t.Error("a failed stream must not end with message_stop")
	}
}

func TestAnthropicStopReasons(t *testing.T) {
	tests := []struct{ finish, want string }{
		{"", `"stop_reason":"end_turn"`},
		{"length", `"stop_reason":"max_tokens"`},
		{"content_filter", `"stop_reason":"refusal"`},
		{"pause_turn", `"stop_reason":"pause_turn"`},
	}
	for _, tc := range tests {
		srv := NewServer(t)
		steps := []Step{Text("x")}
		if tc.finish != "" {
			steps = append(steps, Finish(tc.finish))
		}
		srv.Script(Reply(steps...))
		_, body := postTo(t, srv.URL()+"/v1/messages", anthropicReq)
		if !bytes.Contains(body, []byte(tc.want)) {
			t.Errorf("finish %q: body lacks %s:\n%s", tc.finish, tc.want, body)
		}
	}
}

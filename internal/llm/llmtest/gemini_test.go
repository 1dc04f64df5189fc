package llmtest

import (
	"bytes"
	"testing"
)

const geminiPath = "/v1beta/models/gemini-test:streamGenerateContent"

// TestGeminiStreamBytes pins the exact alt=sse bytes of a turn with
// thoughts, split text, parallel calls and usage.
func TestGeminiStreamBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(
		Reasoning("Two files.").Split(2),
		Text("Reading both.").Split(2),
		ToolCall("read_file", `{"path":"a.go"}`),
		ToolCall("read_file", `{"path":"b.go"}`),
		Usage(1200, 87),
	))
	resp, body := postTo(t, srv.URL()+geminiPath+"?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	golden(t, "gemini_stream.golden", body)
}

func TestGeminiWholeBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Reasoning("hm"), Text("Hi"), ToolCall("list", `{}`), Usage(3, 4)))
	_, body := postTo(t, srv.URL()+"/v1beta/models/gemini-test:generateContent", `{"contents":[]}`)
	golden(t, "gemini_whole.golden", body)
}

func TestGeminiFinishes(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		want  string
		lacks string
	}{
		{"stop", []Step{Text("x")}, `"finishReason": "STOP"`, ""},
		{"length", []Step{Text("x"), Finish("length")}, `"finishReason": "MAX_TOKENS"`, ""},
		{"safety verbatim", []Step{Text("x"), Finish("SAFETY")}, `"finishReason": "SAFETY"`, ""},
		{"malformed call", []Step{Text("x"), ToolCall("read_file", `{"path": "a`)}, `"finishReason": "MALFORMED_FUNCTION_CALL"`, `functionCall`},
		{"mid-stream error", []Step{Text("x"), Error(503, "{\"error\": {\"code\": 503,\n\"message\": \"overloaded\", \"status\": \"UNAVAILABLE\"}}")},
			"data: {\"error\": {\"code\": 503,\"message\": \"overloaded\",\"status\": \"UNAVAILABLE\"}}\r\n\r\n", `finishReason`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(t)
			srv.Script(Reply(tc.steps...))
			_, body := postTo(t, srv.URL()+geminiPath+"?alt=sse", `{}`)
			if !bytes.Contains(body, []byte(tc.want)) {
				t.Errorf("body lacks %s:\n%s", tc.want, body)
			}
			if tc.lacks != "" && bytes.Contains(body, []byte(tc.lacks)) {
				t.Errorf("body has %s:\n%s", tc.lacks, body)
			}
		})
	}
}

func TestGoogleJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1,"b":[{"c":"x:y"}]}`, `{"a": 1,"b": [{"c": "x:y"}]}`},
		{`{"s":"q\":\\"}`, `{"s": "q\":\\"}`},
		{`[]`, `[]`},
	}
	for _, tc := range tests {
		if got := string(googleJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("googleJSON(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

package llmtest

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func post(t *testing.T, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

const streamReq = `{"model":"m1","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`

// TestOpenAIStreamBytes pins the exact wire bytes of a streamed turn.
func TestOpenAIStreamBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(
		Reasoning("think"),
		Text("Hello").Split(2),
		ToolCall("read_file", `{"path":"go.mod"}`).Split(3),
		ToolCall("list_dir", `{}`).WithID(""),
		Usage(12, 5),
	))
	resp, body, err := post(t, srv.URL(), streamReq)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	golden(t, "openai_stream.golden", body)
}

// TestOpenAIUsageOnlyWhenAsked: without include_usage no usage chunk is sent.
func TestOpenAIUsageOnlyWhenAsked(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Text("ok"), Usage(1, 1)))
	_, body, _ := post(t, srv.URL(), `{"model":"m","stream":true}`)
	if bytes.Contains(body, []byte(`"usage"`)) {
		t.Errorf("usage sent without stream_options.include_usage:\n%s", body)
	}
	if !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		t.Errorf("stream does not end with [DONE]:\n%s", body)
	}
}

func TestOpenAIWholeBytes(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Text("Hi"), ToolCall("read_file", `{"path":"a"}`), Usage(3, 4)))
	_, body, err := post(t, srv.URL(), `{"model":"m2","messages":[]}`)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "openai_whole.golden", body)
}

func TestErrorsAndExhaustion(t *testing.T) {
	srv := NewServer(t)
	errBody := `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`
	srv.Script(
		Reply(Error(429, errBody).WithHeader("Retry-After", "3")),
		Reply(Text("partial"), Error(500, `{"error":{"message":"boom",
"type":"server_error"}}`)),
	)
	resp, body, _ := post(t, srv.URL(), streamReq)
	if resp.StatusCode != 429 || string(body) != errBody || resp.Header.Get("Retry-After") != "3" {
		t.Errorf("error turn: %d %q %q", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	resp, body, _ = post(t, srv.URL(), streamReq)
	if resp.StatusCode != 200 || !bytes.HasSuffix(body, []byte("data: {\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}\n\n")) {
		t.Errorf("mid-stream error: %d\n%s", resp.StatusCode, body)
	}
	resp, body, _ = post(t, srv.URL(), streamReq)
	if resp.StatusCode != 500 || !bytes.Contains(body, []byte("script exhausted: request 3")) {
		t.Errorf("exhausted: %d %s", resp.StatusCode, body)
	}
	if srv.Remaining() != 0 {
		t.Errorf("Remaining = %d", srv.Remaining())
	}
}

func TestDropEndsBodyEarly(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Text("Hel"), Drop(), Text("lo")))
	_, body, err := post(t, srv.URL(), streamReq)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want unexpected EOF", err)
	}
	if !bytes.Contains(body, []byte(`"Hel"`)) || bytes.Contains(body, []byte(`"lo"`)) {
		t.Errorf("body = %s", body)
	}
}

func TestRawAndComment(t *testing.T) {
	srv := NewServer(t)
	raw := "data:{\"choices\":[]}\r\n\r\ndata:[DONE]\r\n\r\n"
	srv.Script(Reply(Comment("ping"), Raw(raw)))
	_, body, _ := post(t, srv.URL(), streamReq)
	if string(body) != ": ping\n\n"+raw {
		t.Errorf("body = %q", body)
	}
}

func TestRequestsAndModels(t *testing.T) {
	srv := NewServer(t)
	srv.SetModels("a", "b")
	srv.Script(Reply(Text("x")))
	post(t, srv.URL(), streamReq)
	resp, err := http.Get(srv.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(`"data":[{"id":"a","object":"model"`)) || !bytes.Contains(b, []byte(`{"id":"b"`)) {
		t.Errorf("models = %s", b)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/v1/chat/completions" || string(r.Body) != streamReq ||
		r.Map()["model"] != "m1" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request = %+v", r)
	}
	if reqs[1].Path != "/v1/models" || reqs[1].JSON != nil {
		t.Errorf("models request = %+v", reqs[1])
	}
}

func TestLoadScript(t *testing.T) {
	turns, err := LoadScript(filepath.Join("testdata", "script.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Turn{
		Reply(Reasoning("look at go.mod"), ToolCall("read_file", `{"path":"go.mod"}`).Split(3), Usage(120, 9)),
		Reply(Stall(5_000_000), Text("The module targets Go 1.22.").Split(2), Usage(160, 8)),
	}
	if !reflect.DeepEqual(turns, want) {
		t.Errorf("turns = %+v\nwant %+v", turns, want)
	}
	if _, err := LoadScript(filepath.Join("testdata", "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestPieces(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcde", 2, []string{"abc", "de"}},
		{"ab", 5, []string{"a", "b"}},
		{"héllo", 5, []string{"h", "é", "l", "l", "o"}},
		{"", 3, []string{""}},
		{"abc", 1, []string{"abc"}},
	}
	for _, tc := range tests {
		got := Pieces(tc.s, tc.n)
		if !reflect.DeepEqual(got, tc.want) || strings.Join(got, "") != tc.s {
			t.Errorf("Pieces(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestNewServerWithoutT: a server made outside a test (e.g. by an e2e
// harness) works and is closed by the caller.
func TestNewServerWithoutT(t *testing.T) {
	srv := NewServer(nil)
	defer srv.Close()
	turns, err := LoadScript(filepath.Join("testdata", "script.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(turns...)
	_, body, err := post(t, srv.URL(), streamReq)
	if err != nil || !bytes.Contains(body, []byte(`"name":"read_file"`)) || !bytes.Contains(body, []byte(`"prompt_tokens":120`)) {
		t.Errorf("err %v body %s", err, body)
	}
	if srv.Remaining() != 1 {
		t.Errorf("Remaining = %d, want 1", srv.Remaining())
	}
}

func TestEnvAndQuery(t *testing.T) {
	srv := NewServer(t)
	env := srv.Env()
	if len(env) != 2 || env[0] != "OPENAI_BASE_URL="+srv.URL()+"/v1" || !strings.HasPrefix(env[1], "OPENAI_API_KEY=") {
		t.Errorf("Env = %q", env)
	}
	srv.Script(Reply(Text("x")))
	http.Post(srv.URL()+"/v1/chat/completions?alt=sse", "application/json", strings.NewReader(`{}`))
	if q := srv.Requests()[0].Query; q != "alt=sse" {
		t.Errorf("Query = %q", q)
	}
}

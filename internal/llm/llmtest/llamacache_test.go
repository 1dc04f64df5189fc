package llmtest

import (
	"encoding/json"
	"strings"
	"testing"
)

// chunks returns the JSON payloads of an SSE body.
func chunks(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range strings.Split(string(body), "\n\n") {
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

func num(v any, keys ...string) int {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	f, _ := v.(float64)
	return int(f)
}

// The fake llama-server counts a prompt that extends the previous one as
// cached up to where they part, reports it as llama-server does (usage
// with cached_tokens and timings on the usage chunk; timings on the finish
// chunk when usage was not asked for), and never reports the whole prompt
// cached.
func TestLlamaServerCacheCountsCommonPrefix(t *testing.T) {
	srv := NewServer(t)
	srv.LlamaServerCache()
	srv.Script(Reply(ToolCall("read_file", `{"path":"a.go"}`)), Reply(Text("done")), Reply(Text("again")), Reply(Text("new")))
	sys := `{"role":"system","content":"` + strings.Repeat("You are a coding agent. ", 40) + `"}`
	user := `{"role":"user","content":"read a.go"}`
	tools := `"tools":[{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]`
	first := `{"model":"m","stream":true,"stream_options":{"include_usage":true},` + tools + `,"messages":[` + sys + `,` + user + `]}`
	second := `{"model":"m","stream":true,"max_tokens":99,` + tools + `,"messages":[` + sys + `,` + user +
		`,{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]},{"role":"tool","tool_call_id":"c","content":"package a"}]}`

	_, b1, _ := post(t, srv.URL(), first)
	c1 := chunks(t, b1)
	last := c1[len(c1)-1]
	if n := len(last["choices"].([]any)); n != 0 || last["timings"] == nil || last["usage"] == nil {
		t.Fatalf("want usage and timings on an empty-choices last chunk, got %v", last)
	}
	p1 := num(last, "usage", "prompt_tokens")
	if num(last, "usage", "prompt_tokens_details", "cached_tokens") != 0 || num(last, "timings", "cache_n") != 0 || num(last, "timings", "prompt_n") != p1 {
		t.Errorf("first request reports a cache hit: %v", last)
	}

	_, b2, _ := post(t, srv.URL(), second)
	c2 := chunks(t, b2)
	fin := c2[len(c2)-1]
	if fin["usage"] != nil || fin["timings"] == nil || fin["choices"].([]any)[0].(map[string]any)["finish_reason"] != "stop" {
		t.Fatalf("without include_usage want timings on the finish chunk, got %v", fin)
	}
	cached, processed := num(fin, "timings", "cache_n"), num(fin, "timings", "prompt_n")
	// The second prompt repeats the first up to its generation prompt.
	if cached < p1-8 || cached >= p1 || processed <= 0 {
		t.Errorf("cache_n %d prompt_n %d, want nearly all of the first prompt's %d tokens cached", cached, processed, p1)
	}

	post(t, srv.URL(), second) // the same prompt again
	post(t, srv.URL(), strings.Replace(second, "coding agent", "helpful bot", 1))
	counts := srv.PromptCounts()
	if len(counts) != 4 {
		t.Fatalf("counts %+v", counts)
	}
	if again := counts[2]; again.Cached != again.Tokens-1 {
		t.Errorf("an identical prompt: %+v, want all but one token cached", again)
	}
	if changed := counts[3]; changed.Cached > 10 {
		t.Errorf("a changed system prompt still hits the cache: %+v", changed)
	}
}

// A request the server refused never reached the slot: the next request
// is counted against the prompt before it.
func TestLlamaServerCacheKeptOverRefusedRequest(t *testing.T) {
	srv := NewServer(t)
	srv.LlamaServerCache()
	srv.Script(Reply(Text("a")), Reply(Error(400, `{"error":{"message":"bad"}}`)), Reply(Text("b")))
	body := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 400) + `"}]}`
	post(t, srv.URL(), body)
	post(t, srv.URL(), `{"model":"m","messages":[{"role":"user","content":"other"}]}`)
	_, b, _ := post(t, srv.URL(), body)
	var whole map[string]any
	if err := json.Unmarshal(b, &whole); err != nil {
		t.Fatal(err)
	}
	if c := num(whole, "timings", "cache_n"); c != num(whole, "usage", "prompt_tokens")-1 || c != num(whole, "usage", "prompt_tokens_details", "cached_tokens") {
		t.Errorf("after a refused request the cache was lost: %s", b)
	}
	if num(whole, "usage", "completion_tokens") != 1 || num(whole, "timings", "predicted_n") != 1 {
		t.Errorf("completion tokens of a one-byte reply: %s", b)
	}
}

// A usage step can report cached tokens without the llama-server mode.
func TestUsageStepReportsCachedTokens(t *testing.T) {
	srv := NewServer(t)
	srv.Script(Reply(Text("hi"), Usage(100, 5).Cached(80)))
	_, b, _ := post(t, srv.URL(), `{"model":"m","messages":[]}`)
	var whole map[string]any
	json.Unmarshal(b, &whole)
	if num(whole, "usage", "prompt_tokens_details", "cached_tokens") != 80 || whole["timings"] != nil {
		t.Errorf("body %s", b)
	}
}

package openai

import (
	"encoding/json"
	"testing"
)

func TestFastDelta(t *testing.T) {
	tests := []struct {
		in      string
		ok      bool
		content string
		finish  string
	}{
		{`{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`, true, "Hel", ""},
		{`{"choices":[{"index":0,"delta":{"content":"a\n\"b\" \u00e9"},"logprobs":null,"finish_reason":null}],"usage":null}`, true, "a\n\"b\" é", ""},
		{`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, true, "", "stop"},
		{` { "choices" : [ { "delta" : { "content" : "x" } } ] } `, true, "x", ""},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}`, false, "", ""},
		{`{"choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}`, false, "", ""},
		{`{"choices":[],"usage":{"prompt_tokens":1}}`, false, "", ""},
		{`{"choices":[{"index":1,"delta":{"content":"x"}}]}`, false, "", ""},
		{`{"Choices":[{"delta":{"content":"x"}}]}`, false, "", ""},
		{`{"choices":[{"delta":{"content":"x","content":"y"}}]}`, false, "", ""},
		{`{"choices":[{"delta":{"content":"x"}}]} trailing`, false, "", ""},
		{`{"error":{"message":"boom"}}`, false, "", ""},
		{`{"choices":[{"delta":{"content":"\ud800"}}]}`, false, "", ""},
		{`{"choices":[{"index":0.0,"delta":{"content":"x"}}]}`, false, "", ""},
	}
	for _, tc := range tests {
		c, f, ok := fastDelta([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("%s: ok = %v", tc.in, ok)
			continue
		}
		if !ok {
			continue
		}
		if got := deref(c); got != tc.content || deref(f) != tc.finish {
			t.Errorf("%s: content %q finish %q", tc.in, got, deref(f))
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// FuzzFastDelta: whenever the fast path answers, encoding/json reads the
// same chunk the same way.
func FuzzFastDelta(f *testing.F) {
	f.Add([]byte(`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":"a\n\"b\""},"logprobs":null,"finish_reason":"stop"}],"usage":null,"x":[1,-2.5e3,true,{"y":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, fin, ok := fastDelta(b)
		if !ok {
			return
		}
		var w wireChunk
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatalf("fast path accepted invalid chunk %q: %v", b, err)
		}
		if w.Usage != nil || (len(w.Error) > 0 && string(w.Error) != "null") || len(w.Choices) > 1 {
			t.Fatalf("fast path accepted %q with usage/error/choices", b)
		}
		var wc, wf *string
		if len(w.Choices) == 1 {
			ch := w.Choices[0]
			if ch.Index != 0 || ch.Message != nil {
				t.Fatalf("fast path accepted %q", b)
			}
			if ch.Delta != nil {
				if ch.Delta.ReasoningContent != nil || ch.Delta.Reasoning != nil || len(ch.Delta.ToolCalls) > 0 {
					t.Fatalf("fast path accepted %q with reasoning or tool calls", b)
				}
				wc = ch.Delta.Content
			}
			wf = ch.FinishReason
		}
		if (c == nil) != (wc == nil) || deref(c) != deref(wc) || (fin == nil) != (wf == nil) || deref(fin) != deref(wf) {
			t.Fatalf("%q: fast %q/%q, json %q/%q", b, deref(c), deref(fin), deref(wc), deref(wf))
		}
	})
}

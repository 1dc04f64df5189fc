package openai

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// sseOf frames JSON payloads as "data: ...\n\n" events.
func sseOf(payloads ...string) []byte {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return []byte(b.String())
}

// TestDecodeQuirks covers the compatible servers' variations one by one.
func TestDecodeQuirks(t *testing.T) {
	type call struct{ ID, Name, Args string }
	tests := []struct {
		name      string
		raw       []byte
		text      string
		reasoning string
		calls     []call // ID "*" means generated (call_ + 9 alnum)
		finish    llm.FinishReason
		usage     *llm.Usage
		warnings  int
	}{
		{
			name: "ollama reasoning field",
			raw: sseOf(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"think "}}]}`,
				`{"choices":[{"index":0,"delta":{"reasoning":"more"}}]}`,
				`{"choices":[{"index":0,"delta":{"content":"answer"},"finish_reason":"stop"}]}`, `[DONE]`),
			text: "answer", reasoning: "think more", finish: llm.FinishStop,
		},
		{
			name: "think tags in content",
			raw: sseOf(`{"choices":[{"delta":{"content":"<think>plan"}}]}`, `{"choices":[{"delta":{"content":"</think>done"}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"stop"}]}`),
			text: "done", reasoning: "plan", finish: llm.FinishStop,
		},
		{
			name: "name in pieces, args as object",
			raw: sseOf(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"file","arguments":{"path": "a.go"}}}]}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`, `[DONE]`),
			calls: []call{{"c1", "read_file", `{"path":"a.go"}`}}, finish: llm.FinishToolCalls,
		},
		{
			name: "index reused for a second call with a new id",
			raw: sseOf(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"y","arguments":"{\"k\":1}"}}]}}]}`,
				`[DONE]`),
			calls: []call{{"a", "x", "{}"}, {"b", "y", `{"k":1}`}}, finish: llm.FinishToolCalls,
		},
		{
			name: "no index, no id, name repeated",
			raw: sseOf(`{"choices":[{"delta":{"tool_calls":[{"function":{"name":"ls","arguments":"{\"p\":"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"function":{"name":"ls","arguments":"1}"}}]}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"stop"}]}`),
			// "stop" on a reply with calls is a tool-call reply (vLLM's quirk, testdata/vllm).
			calls: []call{{"*", "ls", `{"p":1}`}}, finish: llm.FinishToolCalls,
		},
		{
			name: "nameless entry dropped with a warning",
			raw: sseOf(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":"{}"}}]}}]}`,
				`{"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}]}`),
			text: "ok", finish: llm.FinishStop, warnings: 1,
		},
		{
			name: "length with usage details in the last chunk",
			raw:  sseOf(`{"choices":[{"delta":{"content":"cut"},"finish_reason":"length"}],"usage":{"prompt_tokens":10,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":6},"completion_tokens_details":{"reasoning_tokens":2}}}`),
			text: "cut", finish: llm.FinishLength,
			usage: &llm.Usage{InputTokens: 10, OutputTokens: 4, CacheReadTokens: 6, ReasoningTokens: 2},
		},
		{
			name: "malformed chunk skipped with a warning",
			raw:  sseOf(`{"choices":[{"delta":{"content":"a"}}]}`, `{"choices":[{"delta":`, `{"choices":[{"delta":{"content":"b"},"finish_reason":"stop"}]}`),
			text: "ab", finish: llm.FinishStop, warnings: 1,
		},
		{
			name: "other choices ignored",
			raw:  sseOf(`{"choices":[{"index":1,"delta":{"content":"no"}},{"index":0,"delta":{"content":"yes"},"finish_reason":"stop"}]}`),
			text: "yes", finish: llm.FinishStop,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := decodeBytes(Options{}, tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			a := assemble(evs)
			m := a.Message()
			if m.Text() != tc.text || m.Reasoning() != tc.reasoning || a.Finish != tc.finish || len(a.Warnings) != tc.warnings {
				t.Errorf("text %q reasoning %q finish %s warnings %q", m.Text(), m.Reasoning(), a.Finish, a.Warnings)
			}
			var got []call
			for _, c := range m.ToolCalls() {
				id := c.ID
				if strings.HasPrefix(id, "call_") && len(id) == 14 && isMistralID(id[5:]) {
					id = "*"
				}
				got = append(got, call{id, c.Name, c.Arguments})
			}
			if !reflect.DeepEqual(got, tc.calls) {
				t.Errorf("calls %+v, want %+v", got, tc.calls)
			}
			if tc.usage != nil && (a.Usage == nil || *a.Usage != *tc.usage) {
				t.Errorf("usage %+v, want %+v", a.Usage, tc.usage)
			}
			if tc.usage == nil && (a.Usage == nil || !a.Usage.Estimated) {
				t.Errorf("usage %+v, want an estimate", a.Usage)
			}
		})
	}
}

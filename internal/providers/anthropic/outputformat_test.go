package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// TestResponseSchemaIsSentAsOutputFormatToModelsThatTakeIt: zero exec
// --output-schema reaches output_config.format rewritten to Anthropic's
// rules (objects closed, unsupported constraints dropped), only for models
// with structured output; older ones get the prompt's instruction alone.
func TestResponseSchemaIsSentAsOutputFormatToModelsThatTakeIt(t *testing.T) {
	s := json.RawMessage(`{"type":"object","properties":{"bug":{"type":"string","maxLength":80}},"required":["bug"]}`)
	want := `{"format":{"schema":{"additionalProperties":false,"properties":{"bug":{"type":"string"}},"required":["bug"],"type":"object"},"type":"json_schema"}}`
	for _, tt := range []struct {
		model string
		sent  bool
	}{
		{"claude-sonnet-4-5-20250929", true},
		{"claude-haiku-4-5", true},
		{"claude-opus-4-1-20250805", true},
		{"claude-opus-4-6", true},
		{"claude-sonnet-5", true},
		{"claude-sonnet-4-20250514", false},
		{"claude-opus-4-20250514", false},
		{"claude-3-5-haiku-latest", false},
	} {
		r := newReplay(t, answer{status: 200, body: textStream(`{"bug":"x"}`)})
		p := New(Options{Name: "anthropic", BaseURL: r.srv.URL, APIKey: "sk-test", Model: tt.model})
		ch, err := p.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "find the bug")}, ResponseSchema: s})
		if err != nil {
			t.Fatal(err)
		}
		collect(t, ch)
		var got struct {
			OutputConfig json.RawMessage `json:"output_config"`
		}
		if err := json.Unmarshal(r.body(0), &got); err != nil {
			t.Fatal(err)
		}
		if sent := len(got.OutputConfig) > 0; sent != tt.sent || (sent && string(got.OutputConfig) != want) {
			t.Errorf("%s: output_config %s, want sent=%v %s", tt.model, got.OutputConfig, tt.sent, want)
		}
	}
}

package anthropic

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestFakeReplaysInvalidArguments: a call in the history whose arguments
// were not a JSON object goes back as tool_use.input
// {"_invalid_arguments": <raw text>} (input must be an object), so the
// model sees what it wrote; valid and empty arguments are unchanged.
func TestFakeReplaysInvalidArguments(t *testing.T) {
	tests := []struct {
		name, args string
		want       any
	}{
		{"truncated object", `{"path": "a.go", "old_string": "x`, map[string]any{llm.InvalidArgumentsKey: `{"path": "a.go", "old_string": "x`}},
		{"prose", `path=a.go`, map[string]any{llm.InvalidArgumentsKey: `path=a.go`}},
		{"array", `["a.go"]`, map[string]any{llm.InvalidArgumentsKey: `["a.go"]`}},
		{"null is no arguments", `null`, map[string]any{}},
		{"string", `"a.go"`, map[string]any{llm.InvalidArgumentsKey: `"a.go"`}},
		{"valid", `{"path":"a.go"}`, map[string]any{"path": "a.go"}},
		{"empty", ``, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.Text("Retrying.")))
			call := llm.ToolCall{ID: "toolu_1", Name: "edit_file", Arguments: tt.args}
			history := []llm.Message{
				llm.TextMessage(llm.RoleUser, "fix a.go"),
				{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &call}}},
				llm.ToolResultMessage(llm.ToolResult{CallID: "toolu_1", Name: "edit_file", Content: "invalid arguments", IsError: true}),
			}
			a, _, err := run(t, fakeProvider(srv, 0), llm.Request{Messages: history})
			if err != nil || a.Err != nil || a.Message().Text() != "Retrying." {
				t.Fatalf("request failed: %v %v", err, a.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			var body struct {
				Messages []struct {
					Role    string `json:"role"`
					Content []struct {
						Type  string `json:"type"`
						ID    string `json:"id"`
						Input any    `json:"input"`
					} `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Messages) != 3 || body.Messages[1].Role != "assistant" || len(body.Messages[1].Content) != 1 {
				t.Fatalf("messages = %s", reqs[0].Body)
			}
			blk := body.Messages[1].Content[0]
			if blk.Type != "tool_use" || blk.ID != "toolu_1" || !reflect.DeepEqual(blk.Input, tt.want) {
				t.Errorf("tool_use = %+v, want input %v", blk, tt.want)
			}
		})
	}
}

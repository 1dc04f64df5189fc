package gemini

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestFakeReplaysInvalidArguments: a call in the history whose arguments
// were not a JSON object goes back as functionCall.args
// {"_invalid_arguments": <raw text>} (args must be an object), so the
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
		{"number", `42`, map[string]any{llm.InvalidArgumentsKey: `42`}},
		{"valid", `{"path":"a.go"}`, map[string]any{"path": "a.go"}},
		{"empty", ``, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.Text("Retrying.")))
			call := llm.ToolCall{ID: "call_1", Name: "edit_file", Arguments: tt.args}
			history := []llm.Message{
				llm.TextMessage(llm.RoleUser, "fix a.go"),
				{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &call}}},
				llm.ToolResultMessage(llm.ToolResult{CallID: "call_1", Name: "edit_file", Content: "invalid arguments", IsError: true}),
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
				Contents []struct {
					Role  string `json:"role"`
					Parts []struct {
						FunctionCall *struct {
							Name string `json:"name"`
							Args any    `json:"args"`
						} `json:"functionCall"`
					} `json:"parts"`
				} `json:"contents"`
			}
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Contents) != 3 || body.Contents[1].Role != "model" || len(body.Contents[1].Parts) != 1 {
				t.Fatalf("contents = %s", reqs[0].Body)
			}
			fc := body.Contents[1].Parts[0].FunctionCall
			if fc == nil || fc.Name != "edit_file" || !reflect.DeepEqual(fc.Args, tt.want) {
				t.Errorf("functionCall = %+v, want args %v", fc, tt.want)
			}
		})
	}
}

package gemini

import (
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// TestResponseSchemaIsSentWhereGeminiTakesIt: zero exec --output-schema
// becomes generationConfig.responseSchema in Gemini's OpenAPI subset, with
// the JSON response type; next to tools only on Gemini 3 models.
func TestResponseSchemaIsSentWhereGeminiTakesIt(t *testing.T) {
	s := json.RawMessage(`{"type":"object","properties":{"bug":{"type":["string","null"]}},"required":["bug"]}`)
	tool := llm.ToolSpec{Name: "read_file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
	want := `{"responseMimeType":"application/json","responseSchema":{"type":"object","properties":{"bug":{"type":"string","nullable":true}},"required":["bug"]}}`
	for _, tt := range []struct {
		model string
		tools []llm.ToolSpec
		sent  bool
	}{
		{"gemini-3-pro-preview", []llm.ToolSpec{tool}, true},
		{"gemini-2.5-flash", nil, true},
		{"gemini-2.5-flash", []llm.ToolSpec{tool}, false},
	} {
		req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "find the bug")}, ResponseSchema: s}
		w, err := encodeRequest(tt.model, req, tt.tools, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if w.GenerationConfig != nil {
			got, _ = json.Marshal(w.GenerationConfig)
		}
		if sent := w.GenerationConfig != nil && w.GenerationConfig.ResponseSchema != nil; sent != tt.sent || (sent && string(got) != want) {
			t.Errorf("%s tools=%d: generationConfig %s, want sent=%v %s", tt.model, len(tt.tools), got, tt.sent, want)
		}
	}
}

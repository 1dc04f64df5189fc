package transport

import (
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

func TestServerToolParseFailureIsMalformedToolCall(t *testing.T) {
	body := []byte(`{"error":{"code":500,"message":"Failed to parse input at pos 37: <tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.mod\"","type":"server_error"}}`)
	e := Classify("llama.cpp", "qwen", 500, nil, body)
	if e.Kind != llm.ErrMalformedToolCall || e.Retryable() {
		t.Fatalf("got %v retryable=%v", e.Kind, e.Retryable())
	}
	plain := Classify("llama.cpp", "qwen", 500, nil, []byte(`{"error":{"code":500,"message":"Failed to parse the template","type":"server_error"}}`))
	if plain.Kind != llm.ErrServer {
		t.Fatalf("unrelated parse failure classified %v", plain.Kind)
	}
}

package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

func TestResponseSchemaIsSentAsResponseFormatToOpenAIOnly(t *testing.T) {
	req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}, ResponseSchema: json.RawMessage(`{"type":"object"}`)}
	want := []byte(`"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object"},"strict":false}}`)
	for base, sent := range map[string]bool{"https://api.openai.com/v1": true, "http://127.0.0.1:8080/v1": false} {
		p, err := New(Options{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		body, err := buildRequest(req, "m", &p.o, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(body, want); got != sent {
			t.Errorf("%s: response_format sent %v, want %v: %s", base, got, sent, body)
		}
		noSchema := req
		noSchema.ResponseSchema = nil
		if body, _ := buildRequest(noSchema, "m", &p.o, nil, true); bytes.Contains(body, []byte("response_format")) {
			t.Errorf("%s: response_format without a schema", base)
		}
	}
}

package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

func TestResponseSchemaIsSentAsResponseFormatToOpenAIOnly(t *testing.T) {
	req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}, ResponseSchema: json.RawMessage(`{"type":"object","properties":{"bug":{"type":"string"}},"required":["bug"]}`)}
	// a schema whose strict form means the same is sent strict (schema.ForOutput)
	want := []byte(`"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object","properties":{"bug":{"type":"string"}},"required":["bug"],"additionalProperties":false},"strict":true}}`)
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

// TestResponseSchemaWithOptionalPropertiesIsSentNonStrict: strict mode
// would make an optional property required and nullable, so the schema
// goes as it is, with strict false.
func TestResponseSchemaWithOptionalPropertiesIsSentNonStrict(t *testing.T) {
	s := `{"type":"object","properties":{"bug":{"type":"string"},"line":{"type":"integer"}},"required":["bug"]}`
	req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}, ResponseSchema: json.RawMessage(s)}
	p, err := New(Options{BaseURL: "https://api.openai.com/v1"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := buildRequest(req, "m", &p.o, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"json_schema":{"name":"answer","schema":` + s + `,"strict":false}`; !bytes.Contains(body, []byte(want)) {
		t.Errorf("body %s lacks %s", body, want)
	}
}

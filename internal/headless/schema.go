package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxSchemaRetries bounds how many times a final answer that does not
// validate against --output-schema is sent back to the model with the
// validation error before the run ends with subtype schema_failed.
const maxSchemaRetries = 2

// Schema is a compiled --output-schema: the final answer must be one JSON
// value that validates against it (draft 2020-12 or draft-07, validated
// by github.com/google/jsonschema-go, which the MCP SDK already links in).
type Schema struct {
	text     string
	resolved *jsonschema.Resolved
}

// LoadSchema reads and compiles the JSON Schema in path.
func LoadSchema(path string) (*Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--output-schema: %w", err)
	}
	return ParseSchema(b)
}

// ParseSchema compiles a JSON Schema document.
func ParseSchema(b []byte) (*Schema, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("--output-schema: not a JSON Schema: %w", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("--output-schema: %w", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		return nil, fmt.Errorf("--output-schema: %w", err)
	}
	return &Schema{text: compact.String(), resolved: r}, nil
}

// Raw is the schema as compact JSON, for providers with structured output.
func (s *Schema) Raw() json.RawMessage { return json.RawMessage(s.text) }

// Instruction is what is added to the prompt so the model answers in the
// schema's shape.
func (s *Schema) Instruction() string {
	return "\n\nGive your final answer as a single JSON value, with no other text and no code fence, that validates against this JSON Schema:\n" + s.text
}

// Check validates a final answer and returns it as clean JSON (a
// surrounding ```json fence, which models add anyway, is dropped).
func (s *Schema) Check(answer string) (string, error) {
	text := unfence(strings.TrimSpace(answer))
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return "", fmt.Errorf("the answer is not JSON: %v", err)
	}
	if err := s.resolved.Validate(v); err != nil {
		return "", err
	}
	return text, nil
}

// retryPrompt asks the model to answer again after err (the instruction
// follows it as the turn's notes).
func (s *Schema) retryPrompt(err error) string {
	return "Your final answer does not validate against the required JSON Schema: " + err.Error() +
		"\nAnswer again with only the corrected JSON value."
}

// unfence drops one ``` or ```json fence around text.
func unfence(text string) string {
	if !strings.HasPrefix(text, "```") || !strings.HasSuffix(text, "```") || len(text) < 6 {
		return text
	}
	body := strings.TrimSuffix(text[3:], "```")
	if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(body[:nl], "{[\"") {
		body = body[nl+1:]
	}
	return strings.TrimSpace(body)
}

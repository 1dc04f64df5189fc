package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestForOutputPerProvider: a final-answer schema is rewritten to each
// provider's structured-output rules (zero exec --output-schema).
func TestForOutputPerProvider(t *testing.T) {
	closed := `{"type":"object","properties":{"bug":{"type":"string","minLength":3},"line":{"type":"integer","minimum":1}},"required":["bug","line"]}`
	optional := `{"type":"object","properties":{"bug":{"type":"string"},"line":{"type":"integer"}},"required":["bug"]}`
	mapped := `{"type":"object","properties":{"files":{"type":"object","additionalProperties":{"type":"string"}}}}`
	tests := []struct {
		name, dialect, schema string
		want                  string // exact bytes; "" = nothing sent
		strict                bool
		note                  string // a note that must be present
	}{
		{"openai closed schema goes strict", "openai", closed,
			`{"type":"object","properties":{"bug":{"type":"string"},"line":{"type":"integer","minimum":1}},"required":["bug","line"],"additionalProperties":false}`,
			true, "dropped minLength"},
		{"openai optional property stays non-strict", "openai", optional, optional, false, ""},
		{"openai map stays non-strict", "openai", mapped, mapped, false, ""},
		{"anthropic closes objects and drops constraints", "anthropic", closed,
			`{"type":"object","properties":{"bug":{"type":"string"},"line":{"type":"integer"}},"required":["bug","line"],"additionalProperties":false}`,
			false, "dropped minimum"},
		{"anthropic keeps optional properties optional", "anthropic", optional,
			`{"type":"object","properties":{"bug":{"type":"string"},"line":{"type":"integer"}},"required":["bug"],"additionalProperties":false}`,
			false, ""},
		{"anthropic cannot send a map", "anthropic", mapped, "", false, "cannot express a map"},
		{"gemini gets its subset", "gemini", `{"type":"object","properties":{"bug":{"type":["string","null"],"minLength":3}},"$defs":{}}`,
			`{"type":"object","properties":{"bug":{"type":"string","minLength":3,"nullable":true}}}`,
			false, ""},
		{"a top level that is not an object is not sent", "openai", `{"type":"array","items":{"type":"string"}}`, "", false, "schema:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := ForOutput(Dialect(tt.dialect), json.RawMessage(tt.schema))
			if string(out.Schema) != tt.want || out.Strict != tt.strict {
				t.Errorf("got %s strict=%v, want %s strict=%v (notes %q)", out.Schema, out.Strict, tt.want, tt.strict, out.Notes)
			}
			if tt.note != "" && !strings.Contains(strings.Join(out.Notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", out.Notes, tt.note)
			}
		})
	}
}

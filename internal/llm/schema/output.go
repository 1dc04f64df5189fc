package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Output is a final-answer schema (zero exec --output-schema) rewritten
// for one provider's structured output. The answer is always validated
// locally against the user's own schema, so a rewrite may drop
// constraints (a weaker hint), never add ones the user's schema lacks.
type Output struct {
	// Schema is what to send; nil when the provider's structured output
	// cannot express the schema (the prompt still asks for it).
	Schema json.RawMessage
	// Strict is OpenAI's json_schema "strict": true, set only when the
	// strict rewrite keeps the schema's meaning (no optional property
	// had to become required and nullable).
	Strict bool
	// Notes name each rewrite, or why nothing is sent.
	Notes []string
}

// ForOutput rewrites a response schema for dialect: OpenAI (or
// OpenAIStrict) gets the strict form when it is lossless and the plain
// OpenAI form otherwise; Anthropic gets output_config.format's subset;
// Gemini its OpenAPI subset.
//
// Sources: OpenAI Structured Outputs guide, "Supported schemas"
// (https://platform.openai.com/docs/guides/structured-outputs); Anthropic
// structured outputs, "JSON Schema limitations"
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs);
// Gemini structured output (https://ai.google.dev/gemini-api/docs/structured-output).
func ForOutput(dialect Dialect, raw json.RawMessage) Output {
	switch dialect {
	case OpenAI, OpenAIStrict:
		if s, notes, err := Clean(OpenAIStrict, raw); err == nil && !slices.ContainsFunc(notes, widensOptional) {
			return Output{Schema: s, Strict: true, Notes: notes}
		}
		s, notes, err := Clean(OpenAI, raw)
		if err != nil {
			return Output{Notes: append(notes, err.Error())}
		}
		return Output{Schema: s, Notes: notes}
	case Anthropic:
		return anthropicOutput(raw)
	default:
		s, notes, err := Clean(dialect, raw)
		if err != nil {
			return Output{Notes: append(notes, err.Error())}
		}
		return Output{Schema: s, Notes: notes}
	}
}

// widensOptional is strict mode's note for an optional property it made
// required and nullable: the model could then answer null where the
// user's schema allows only a value, so such a schema is sent non-strict.
func widensOptional(note string) bool {
	return strings.HasSuffix(note, "optional property made required and nullable")
}

// anthropicUnsupported are the keywords Anthropic's structured output
// rejects ("JSON Schema limitations": numerical and string-length
// constraints, array constraints other than minItems 0 or 1).
var anthropicUnsupported = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "maxItems", "minProperties", "maxProperties",
	"patternProperties", "unevaluatedProperties", "uniqueItems", "contains", "propertyNames"}

func anthropicOutput(raw json.RawMessage) Output {
	s, notes, err := Clean(Anthropic, raw)
	if err != nil {
		return Output{Notes: append(notes, err.Error())}
	}
	root, err := parse(s)
	if err != nil {
		return Output{Notes: append(notes, err.Error())}
	}
	c := &cleaner{d: Anthropic, notes: notes}
	if err := c.closeObjects(root, "$"); err != nil {
		return Output{Notes: append(c.notes, "schema: "+err.Error())}
	}
	return Output{Schema: json.RawMessage(root.bytes()), Notes: c.notes}
}

// closeObjects sets additionalProperties false on every object schema
// (Anthropic accepts no other value) and drops the keywords Anthropic's
// structured output does not support.
func (c *cleaner) closeObjects(n *node, path string) error {
	if ap := n.get("additionalProperties"); ap != nil && ap.kind == kObject {
		return fmt.Errorf("%s: structured output cannot express a map (additionalProperties with a schema)", path)
	}
	var dropped []string
	for _, k := range anthropicUnsupported {
		if n.del(k) {
			dropped = append(dropped, k)
		}
	}
	if mi := n.get("minItems"); mi != nil && !(mi.kind == kNumber && (mi.s == "0" || mi.s == "1")) {
		n.del("minItems")
		dropped = append(dropped, "minItems")
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s (not supported in structured output)", strings.Join(dropped, ", "))
	}
	if hasType(n, "object") || n.has("properties") {
		n.set("additionalProperties", boolNode(false))
	}
	return forEachSubschema(n, path, false, func(s *node, p string) (*node, error) {
		return s, c.closeObjects(s, p)
	})
}

package ask

import (
	"encoding/json"
	"fmt"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// elicitSchema is the restricted JSON Schema an elicitation asks with:
// an object of flat properties, each a string (optionally an enum, a
// titled oneOf, a format), a number, an integer, a boolean, or an array
// of enum values (multi-select)
// (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema).
type elicitSchema struct {
	Type       string                    `json:"type"`
	Properties map[string]elicitProperty `json:"properties"`
	Required   []string                  `json:"required"`
}

type elicitProperty struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Format      string   `json:"format"`
	Enum        []string `json:"enum"`
	// EnumNames is the legacy titled enum, OneOf/AnyOf the current one
	// ({"const": value, "title": label}).
	EnumNames []string      `json:"enumNames"`
	OneOf     []titledValue `json:"oneOf"`
	AnyOf     []titledValue `json:"anyOf"`
	Items     *struct {
		Enum  []string      `json:"enum"`
		AnyOf []titledValue `json:"anyOf"`
		OneOf []titledValue `json:"oneOf"`
	} `json:"items"`
	Minimum  *float64 `json:"minimum"`
	Maximum  *float64 `json:"maximum"`
	MinItems *float64 `json:"minItems"`
	MaxItems *float64 `json:"maxItems"`
	Default  any      `json:"default"`
}

type titledValue struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// maxFields bounds a form: a server asking for more is refused rather
// than shown as a wall of prompts.
const maxFields = 30

// FromElicitation reads an elicitation's requested schema into fields,
// in the schema's order. A schema Zero cannot show (nested objects, an
// unknown type) is an error; the caller declines the request with it.
func FromElicitation(requested any) ([]event.QuestionField, error) {
	if requested == nil {
		return nil, nil
	}
	b, err := json.Marshal(requested)
	if err != nil {
		return nil, fmt.Errorf("requested schema: %v", err)
	}
	var s elicitSchema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("requested schema: %v", err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, fmt.Errorf("requested schema has type %q, not object", s.Type)
	}
	if len(s.Properties) > maxFields {
		return nil, fmt.Errorf("requested schema asks for %d values (at most %d)", len(s.Properties), maxFields)
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var fields []event.QuestionField
	for _, n := range propertyOrder(b) {
		p, ok := s.Properties[n]
		if !ok {
			continue
		}
		f, err := field(n, p)
		if err != nil {
			return nil, err
		}
		f.Required = required[n]
		fields = append(fields, f)
	}
	return fields, nil
}

// propertyOrder is the order of the keys of the schema's "properties"
// object as written.
func propertyOrder(raw []byte) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	return schema.ObjectKeys(top["properties"])
}

func field(name string, p elicitProperty) (event.QuestionField, error) {
	f := event.QuestionField{Name: name, Title: p.Title, Description: p.Description, Format: p.Format, Min: p.Minimum, Max: p.Maximum}
	switch p.Type {
	case "string":
		f.Kind = KindText
		f.Choices, f.Labels = choices(p.Enum, p.EnumNames, p.OneOf, p.AnyOf)
		if len(f.Choices) > 0 {
			f.Kind, f.Format = KindChoice, ""
		}
	case "number":
		f.Kind = KindNumber
	case "integer":
		f.Kind = KindInteger
	case "boolean":
		f.Kind = KindBoolean
	case "array":
		if p.Items == nil {
			return f, fmt.Errorf("requested schema: %s is a list without items", name)
		}
		f.Kind, f.Min, f.Max = KindChoices, p.MinItems, p.MaxItems
		f.Choices, f.Labels = choices(p.Items.Enum, nil, p.Items.OneOf, p.Items.AnyOf)
		if len(f.Choices) == 0 {
			return f, fmt.Errorf("requested schema: %s is a list of free values (Zero shows lists of choices)", name)
		}
	default:
		return f, fmt.Errorf("requested schema: %s has type %q (Zero shows text, numbers, yes/no and choices)", name, p.Type)
	}
	if p.Default != nil {
		if d, err := Value(f, p.Default); err == nil {
			f.Default = d // a default of the wrong kind is no default
		}
	}
	return f, nil
}

// choices are the values and labels of an enum in any of its spellings.
func choices(enum, names []string, oneOf, anyOf []titledValue) (values, labels []string) {
	titled := append(oneOf, anyOf...)
	if len(titled) > 0 {
		for _, t := range titled {
			values = append(values, t.Const)
			labels = append(labels, t.Title)
		}
		return values, labels
	}
	if len(names) == len(enum) {
		labels = names
	}
	return enum, labels
}

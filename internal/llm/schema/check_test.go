package schema

import (
	"encoding/json"
	"fmt"
	"slices"
)

// checkDialect verifies, independently of the cleaner, that out is a
// schema the dialect accepts: the rules of case B31 provider_errors.txt
// and expected.txt.
func checkDialect(d Dialect, out json.RawMessage) error {
	var root map[string]any
	if err := json.Unmarshal(out, &root); err != nil {
		return fmt.Errorf("output is not a JSON object: %v", err)
	}
	if root["type"] != "object" {
		return fmt.Errorf("$: top-level type is %v, want object", root["type"])
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if _, ok := root[k]; ok {
			return fmt.Errorf("$: top-level %s", k)
		}
	}
	return checkNode(d, root, "$")
}

func checkNode(d Dialect, s map[string]any, path string) error {
	for _, k := range []string{"$ref", "$defs", "definitions", "$schema", "$id", "title", "const"} {
		if _, ok := s[k]; ok {
			return fmt.Errorf("%s: %s left in", path, k)
		}
	}
	isArray := s["type"] == "array"
	if l, ok := s["type"].([]any); ok {
		isArray = slices.Contains(l, any("array"))
	}
	if isArray {
		if _, ok := s["items"].(map[string]any); !ok {
			return fmt.Errorf("%s: array schema missing items", path)
		}
	}
	switch d {
	case OpenAI:
		if _, ok := s["default"]; ok {
			return fmt.Errorf("%s: default left in", path)
		}
		if _, ok := s["additionalProperties"].(bool); ok {
			return fmt.Errorf("%s: boolean additionalProperties left in", path)
		}
	case OpenAIStrict:
		for k := range s {
			if !slices.Contains(strictKeys, k) {
				return fmt.Errorf("%s: %q is not supported in strict mode", path, k)
			}
		}
		_, hasType := s["type"]
		_, hasAny := s["anyOf"]
		if !hasType && !hasAny {
			return fmt.Errorf("%s: strict schema without type", path)
		}
		if props, ok := s["properties"].(map[string]any); ok {
			if s["additionalProperties"] != false {
				return fmt.Errorf("%s: strict object not closed", path)
			}
			req, _ := s["required"].([]any)
			if len(req) != len(props) {
				return fmt.Errorf("%s: strict object requires %d of %d properties", path, len(req), len(props))
			}
			for _, name := range req {
				if _, ok := props[name.(string)]; !ok {
					return fmt.Errorf("%s: required %q has no property", path, name)
				}
			}
		}
	case Gemini:
		for k := range s {
			if !slices.Contains(geminiKeys, k) {
				return fmt.Errorf("%s: %q is not a Gemini schema field", path, k)
			}
		}
		t, _ := s["type"].(string)
		if _, any := s["anyOf"]; !any && !slices.Contains(geminiTypes, t) {
			return fmt.Errorf("%s: type %v is not one Gemini type", path, s["type"])
		}
		if e, ok := s["enum"].([]any); ok {
			if t != "string" {
				return fmt.Errorf("%s: enum on type %q", path, t)
			}
			for _, v := range e {
				if _, ok := v.(string); !ok {
					return fmt.Errorf("%s: enum value %v is not a string", path, v)
				}
			}
		}
		props, _ := s["properties"].(map[string]any)
		if r, ok := s["required"].([]any); ok {
			for _, name := range r {
				if _, ok := props[name.(string)]; !ok {
					return fmt.Errorf("%s: required %q has no property", path, name)
				}
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties", "dependentSchemas"} {
		if m, ok := s[k].(map[string]any); ok {
			for name, v := range m {
				sub, ok := v.(map[string]any)
				if !ok {
					return fmt.Errorf("%s.%s.%s: schema is not an object", path, k, name)
				}
				if err := checkNode(d, sub, path+"."+k+"."+name); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range singleKeywords {
		if sub, ok := s[k].(map[string]any); ok {
			if err := checkNode(d, sub, path+"."+k); err != nil {
				return err
			}
		}
	}
	for _, k := range listKeywords {
		if l, ok := s[k].([]any); ok {
			for i, v := range l {
				sub, ok := v.(map[string]any)
				if !ok {
					return fmt.Errorf("%s.%s[%d]: schema is not an object", path, k, i)
				}
				if err := checkNode(d, sub, fmt.Sprintf("%s.%s[%d]", path, k, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

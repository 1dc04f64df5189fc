package textcalls

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// argKeys are the keys models use for a call's arguments, in preference
// order (B01: "parameters"; Llama 3.x: "parameters"; some: "args",
// Anthropic-trained: "input", LangChain-style: "tool_input"). nameKeys
// likewise for the tool's name ("function" as a string, not an object).
var (
	argKeys  = []string{"arguments", "parameters", "args", "input", "tool_input"}
	nameKeys = []string{"name", "tool_name", "tool", "function"}
)

// rawCall is a call found in text before ids and offer checks.
type rawCall struct {
	name string
	args string // repaired JSON object, "" when err is set
	raw  string // argument text as written
	err  error
	// short asks for a 9-alphanumeric id: the call came in Mistral
	// markup, whose chat templates reject other id shapes (B06).
	short bool
	// guessed: the markup was a call attempt whose body could not be
	// read; name is only what it seemed to mention, err says why.
	guessed bool
}

var nameRe = lazyregexp.New(`"(?:name|tool_name|tool|function)"\s*:\s*"([^"\\]{1,200})"`)

// callFromJSON reads one call object: {"name":..,"arguments":..} with any
// key of argKeys, or the OpenAI shape {"type":"function","function":{..}}.
// strict requires an argument key and no unknown keys, for untagged JSON
// where a data object must not pass for a call; there an unknown key
// written before any lenient syntax (strayKey) rules the text out even
// when it cannot be repaired, the rule StreamFilter applies while the
// object streams. ok is false when the text is not a call object at all.
func callFromJSON(text string, strict bool) (rawCall, bool) {
	if strict && strayKey(text) {
		return rawCall{}, false
	}
	fixed, err := RepairJSON(text)
	if err != nil {
		// Broken JSON that still names a tool is a call with bad
		// arguments: the model gets the parse error back.
		if m := nameRe.FindStringSubmatch(text); m != nil {
			return rawCall{name: m[1], raw: text, err: err}, true
		}
		return rawCall{}, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(fixed), &obj) != nil {
		return rawCall{}, false
	}
	if fn, ok := obj["function"]; ok && wrapper(obj, strict) {
		var inner map[string]json.RawMessage
		if json.Unmarshal(fn, &inner) == nil {
			obj = inner
		}
	}
	var name string
	for _, k := range nameKeys {
		if json.Unmarshal(obj[k], &name) == nil && name != "" {
			break
		}
	}
	if name == "" {
		return rawCall{}, false
	}
	var rawArgs json.RawMessage
	known := 1
	for _, k := range argKeys {
		if v, ok := obj[k]; ok {
			rawArgs = v
			known++
			break
		}
	}
	for _, k := range []string{"id", "type"} {
		if _, ok := obj[k]; ok {
			known++
		}
	}
	if strict && (rawArgs == nil || known != len(obj)) {
		return rawCall{}, false
	}
	c := rawCall{name: name, raw: string(rawArgs)}
	switch {
	case rawArgs == nil || string(rawArgs) == "null":
		c.args = "{}"
	default:
		c.args, c.err = RepairArguments(string(rawArgs))
	}
	return c, true
}

// wrapper reports whether obj, which has a "function" member, may be the
// OpenAI wrapper {"type":"function","function":{..},"id":..}: at most three
// members, and in strict mode no member but those.
func wrapper(obj map[string]json.RawMessage, strict bool) bool {
	if len(obj) > 3 {
		return false
	}
	if strict {
		for k := range obj {
			if k != "function" && k != "type" && k != "id" {
				return false
			}
		}
	}
	return true
}

// scanValue returns the end of the JSON-ish value (object or array) that
// starts at s[0], matching brackets outside double- and single-quoted
// strings. complete is false when the text ends first.
func scanValue(s string) (end int, complete bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			if c == '\'' && i > 0 && isWordByte(s[i-1]) {
				continue // an apostrophe in a bare word, not a quote
			}
			quote = c
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				return i + 1, true
			}
		}
	}
	return len(s), false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// jsonCallSequence parses s as one or more call objects separated by
// whitespace, ';' or ',' or as a JSON array of them (B01 expected.txt).
// It fails unless every value is a call object.
func jsonCallSequence(s string, strict bool) ([]rawCall, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		end, complete := scanValue(s)
		if complete && strings.TrimSpace(s[end:]) == "" {
			return jsonArrayCalls(s, strict)
		}
		return nil, false
	}
	var calls []rawCall
	for s != "" {
		if s[0] != '{' {
			return nil, false
		}
		end, _ := scanValue(s)
		c, ok := callFromJSON(s[:end], strict)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
		s = strings.TrimLeft(s[end:], " \t\r\n;,")
	}
	return calls, len(calls) > 0
}

func jsonArrayCalls(s string, strict bool) ([]rawCall, bool) {
	fixed, err := RepairJSON(s)
	if err != nil {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal([]byte(fixed), &items) != nil || len(items) == 0 {
		return nil, false
	}
	var calls []rawCall
	for _, it := range items {
		c, ok := callFromJSON(string(it), strict)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
	}
	return calls, true
}

// unfence returns the inside of a text that is exactly one fenced block
// (```json, ```JSON, ``` or ```tool_call ... ```), and whether it was one.
func unfence(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s, false
	}
	body := s[3 : len(s)-3]
	nl := strings.IndexByte(body, '\n')
	if nl < 0 {
		return s, false
	}
	if !callFenceInfo(body[:nl]) {
		return s, false
	}
	inner := body[nl+1:]
	if strings.Contains(inner, "```") {
		return s, false
	}
	return inner, true
}

// CanonicalArguments turns a structured call's arguments as a server sent
// them, a JSON string or a JSON object (B06: llama.cpp and LM Studio send
// either), into compact JSON object text, the form replayed to
// OpenAI-shaped servers as function.arguments. Sloppy text is repaired as
// by RepairArguments; failures are *ArgError.
func CanonicalArguments(raw json.RawMessage) (string, error) {
	s, err := RepairArguments(string(raw))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return "", &ArgError{Kind: ErrInvalid, Detail: err.Error()}
	}
	return b.String(), nil
}

// callFenceInfo reports whether a fence's info string (the rest of its
// opening line) is one a block of call objects comes under: none, json,
// jsonc, json5, tool_call or tool_calls, any case.
func callFenceInfo(info string) bool {
	switch strings.ToLower(strings.TrimSpace(info)) {
	case "", "json", "tool_call", "tool_calls", "jsonc", "json5":
		return true
	}
	return false
}

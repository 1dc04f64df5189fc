package textcalls

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Qwen3-Coder writes calls as XML-ish blocks (B02, llama.cpp PR#16932):
//
//	<function=NAME>
//	<parameter=P>
//	value
//	</parameter>
//	</function>
//
// A value is the raw text between the tags with exactly one leading and
// one trailing newline removed, never JSON-unescaped; it is typed only when
// the tool's schema says the parameter is not a string.

const (
	funcOpen   = "<function="
	funcClose  = "</function>"
	paramOpen  = "<parameter="
	paramClose = "</parameter>"
)

// parseFunction parses a block starting at s[0] == "<function=". It returns
// the call, the bytes consumed and warnings.
func parseFunction(s string, schemas func(string) json.RawMessage) (rawCall, int, []string) {
	gt := strings.IndexByte(s, '>')
	if gt < 0 {
		return rawCall{err: &ArgError{Kind: ErrTruncated, Detail: "function tag not closed"}}, len(s), nil
	}
	name := strings.TrimSpace(s[len(funcOpen):gt])
	pos := gt + 1
	type param struct{ name, value string }
	var params []param
	closed := false
	for {
		rest := s[pos:]
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		pos += len(rest) - len(trimmed)
		switch {
		case strings.HasPrefix(trimmed, funcClose):
			pos += len(funcClose)
			closed = true
		case strings.HasPrefix(trimmed, paramOpen):
			pgt := strings.IndexByte(trimmed, '>')
			if pgt < 0 {
				return rawCall{name: name, raw: s, err: &ArgError{Kind: ErrTruncated, Detail: "parameter tag not closed"}}, len(s), nil
			}
			pname := strings.TrimSpace(trimmed[len(paramOpen):pgt])
			body := trimmed[pgt+1:]
			vend, next, ok := paramEnd(body)
			if !ok {
				return rawCall{name: name, raw: s, err: &ArgError{Kind: ErrTruncated, Key: pname, Detail: fmt.Sprintf("parameter %q not closed", pname)}}, len(s), nil
			}
			params = append(params, param{pname, trimOneNewline(body[:vend])})
			pos += pgt + 1 + next
			continue
		}
		break
	}
	if !closed && strings.TrimSpace(s[pos:]) != "" && !strings.HasPrefix(strings.TrimSpace(s[pos:]), "</tool_call>") {
		return rawCall{name: name, raw: s[:pos], err: &ArgError{Kind: ErrInvalid, Detail: "unexpected text inside <function> block"}}, pos, nil
	}
	// Build the arguments object in parameter order.
	props := schemaProps(schemas(name))
	var warnings []string
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, p.name)
		b.WriteByte(':')
		v, warn := typedValue(p.value, props[p.name])
		if warn != "" {
			warnings = append(warnings, fmt.Sprintf("%s.%s: %s", name, p.name, warn))
		}
		b.WriteString(v)
	}
	b.WriteByte('}')
	return rawCall{name: name, args: b.String(), raw: s[:pos]}, pos, warnings
}

// paramEnd finds where a parameter value ends. A "</parameter>" counts only
// when what follows is another parameter, the end of the function, the end
// of the call or the text, so a value may itself contain "</parameter>".
// Without any closing tag the value runs to the next parameter or
// "</function>". next is the offset just past the closing tag.
func paramEnd(body string) (vend, next int, ok bool) {
	first := -1
	for off := 0; ; {
		k := strings.Index(body[off:], paramClose)
		if k < 0 {
			break
		}
		at := off + k
		if first < 0 {
			first = at
		}
		after := strings.TrimLeft(body[at+len(paramClose):], " \t\r\n")
		if after == "" || strings.HasPrefix(after, paramOpen) || strings.HasPrefix(after, funcClose) || strings.HasPrefix(after, "</tool_call>") {
			return at, at + len(paramClose), true
		}
		off = at + len(paramClose)
	}
	if first >= 0 {
		return first, first + len(paramClose), true
	}
	for _, stop := range []string{"\n" + paramOpen, "\n" + funcClose} {
		if k := strings.Index(body, stop); k >= 0 {
			return k + 1, k + 1, true
		}
	}
	return 0, 0, false
}

func trimOneNewline(v string) string {
	if strings.HasPrefix(v, "\r\n") {
		v = v[2:]
	} else if strings.HasPrefix(v, "\n") {
		v = v[1:]
	}
	if strings.HasSuffix(v, "\r\n") {
		v = v[:len(v)-2]
	} else if strings.HasSuffix(v, "\n") {
		v = v[:len(v)-1]
	}
	return v
}

// schemaProps returns property name -> allowed JSON types from a JSON
// Schema object; nil when there is no schema.
func schemaProps(schema json.RawMessage) map[string][]string {
	if len(schema) == 0 {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Type  json.RawMessage `json:"type"`
			AnyOf []struct {
				Type string `json:"type"`
			} `json:"anyOf"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := map[string][]string{}
	for name, p := range s.Properties {
		var one string
		var many []string
		if json.Unmarshal(p.Type, &one) == nil && one != "" {
			many = []string{one}
		} else {
			_ = json.Unmarshal(p.Type, &many)
		}
		for _, a := range p.AnyOf {
			if a.Type != "" {
				many = append(many, a.Type)
			}
		}
		out[name] = many
	}
	return out
}

// typedValue renders a raw parameter value as JSON for the given schema
// types. Strings stay strings; a value that does not fit a non-string type
// stays a string with a warning, for schema validation to report.
func typedValue(v string, types []string) (string, string) {
	var b strings.Builder
	has := func(t string) bool {
		for _, x := range types {
			if x == t {
				return true
			}
		}
		return false
	}
	if len(types) == 0 || has("string") {
		writeJSONString(&b, v)
		return b.String(), ""
	}
	t := strings.TrimSpace(v)
	for _, typ := range types {
		switch typ {
		case "integer":
			if _, err := strconv.ParseInt(t, 10, 64); err == nil {
				return t, ""
			}
		case "number":
			if f, err := strconv.ParseFloat(t, 64); err == nil && json.Valid([]byte(t)) {
				_ = f
				return t, ""
			}
		case "boolean":
			switch strings.ToLower(t) {
			case "true":
				return "true", ""
			case "false":
				return "false", ""
			}
		case "null":
			if t == "null" || t == "None" {
				return "null", ""
			}
		case "object", "array":
			if fixed, err := RepairJSON(t); err == nil {
				if (typ == "object") == strings.HasPrefix(fixed, "{") && (typ == "array") == strings.HasPrefix(fixed, "[") {
					return fixed, ""
				}
			}
		}
	}
	writeJSONString(&b, v)
	return b.String(), fmt.Sprintf("value %q does not fit schema type %v; kept as a string", clip(t, 40), types)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

package textcalls

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Some small models write a call inside <tool_call> in Python call syntax
// instead of JSON (QA report: `<tool_call>read_file(path="go.mod")
// </tool_call>`):
//
//	name(key="value", key2=1, flag=True, items=["a"])
//
// Only keyword arguments are accepted; values are Python string literals
// ('..' or ".." with backslash escapes), numbers, True/False/None, or a
// JSON-ish object or array (repaired as by RepairJSON).

var pyCallHead = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_.\-]*)\s*\(`)

var pyNumber = lazyregexp.New(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`)

var leadingNameRe = lazyregexp.New(`^\s*([A-Za-z_][A-Za-z0-9_.\-]*)`)

// leadingName returns the identifier s starts with (after spaces), or "".
func leadingName(s string) string {
	if m := leadingNameRe.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// parsePyCall parses s, the whole trimmed body of a tag, as a Python-style
// call. looks is false when s does not open like one ("name("); otherwise
// it returns the name and either the JSON-object arguments or the reason
// they could not be read.
func parsePyCall(s string) (name, args string, err error, looks bool) {
	m := pyCallHead.FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", nil, false
	}
	name = s[m[2]:m[3]]
	p := m[1]
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for {
		p = skipSpace(s, p)
		if p >= len(s) {
			return name, "", errors.New("missing closing parenthesis"), true
		}
		if s[p] == ')' {
			if strings.TrimSpace(s[p+1:]) != "" {
				return name, "", fmt.Errorf("unexpected text after the call: %q", clip(strings.TrimSpace(s[p+1:]), 40)), true
			}
			break
		}
		if n > 0 {
			if s[p] != ',' {
				return name, "", fmt.Errorf("expected ',' or ')' at %q", clip(s[p:], 20)), true
			}
			p = skipSpace(s, p+1)
			if p < len(s) && s[p] == ')' {
				continue // trailing comma
			}
		}
		key := leadingName(s[p:])
		if key == "" {
			return name, "", fmt.Errorf("expected key=value at %q (only keyword arguments are understood)", clip(s[p:], 20)), true
		}
		p = skipSpace(s, p+len(key))
		if p >= len(s) || s[p] != '=' {
			return name, "", fmt.Errorf("argument %q has no '=value' (only keyword arguments are understood)", key), true
		}
		p = skipSpace(s, p+1)
		v, used, verr := pyValue(s[p:])
		if verr != nil {
			return name, "", fmt.Errorf("argument %q: %v", key, verr), true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, key)
		b.WriteByte(':')
		b.WriteString(v)
		p += used
		n++
	}
	b.WriteByte('}')
	return name, b.String(), nil, true
}

func skipSpace(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r') {
		p++
	}
	return p
}

// pyValue reads one Python literal at the start of s and returns it as
// JSON text and the bytes used.
func pyValue(s string) (string, int, error) {
	if s == "" {
		return "", 0, errors.New("value missing")
	}
	switch c := s[0]; {
	case c == '"' || c == '\'':
		var out strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 >= len(s) {
					return "", 0, errors.New("unterminated string")
				}
				i++
				switch s[i] {
				case 'n':
					out.WriteByte('\n')
				case 't':
					out.WriteByte('\t')
				case 'r':
					out.WriteByte('\r')
				case '\\', '\'', '"':
					out.WriteByte(s[i])
				default:
					out.WriteByte('\\')
					out.WriteByte(s[i])
				}
			case c:
				var b strings.Builder
				writeJSONString(&b, out.String())
				return b.String(), i + 1, nil
			default:
				out.WriteByte(s[i])
			}
		}
		return "", 0, errors.New("unterminated string")
	case c == '{' || c == '[':
		end, complete := scanValue(s)
		if !complete {
			return "", 0, errors.New("unclosed " + string(c))
		}
		fixed, err := RepairJSON(s[:end])
		if err != nil {
			return "", 0, err
		}
		return fixed, end, nil
	}
	for lit, js := range map[string]string{"True": "true", "False": "false", "None": "null", "true": "true", "false": "false", "null": "null"} {
		if strings.HasPrefix(s, lit) && !identByte(s, len(lit)) {
			return js, len(lit), nil
		}
	}
	if num := pyNumber.FindString(s); num != "" && !identByte(s, len(num)) {
		if _, err := strconv.ParseFloat(num, 64); err == nil {
			return num, len(num), nil
		}
	}
	return "", 0, fmt.Errorf("unreadable value %q", clip(s, 20))
}

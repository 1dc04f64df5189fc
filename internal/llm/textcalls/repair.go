package textcalls

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ArgErrorKind classifies why argument text could not be repaired.
type ArgErrorKind string

// Kinds of ArgError.
const (
	// ErrTruncated: the text ends inside a string, after a key or colon,
	// inside a number, or before any member (B04 case 5).
	ErrTruncated ArgErrorKind = "truncated"
	// ErrUnescapedQuote: a string value is followed by more text where a
	// ',' or '}' must be, the shape of an unescaped inner '"' (B04 case 4).
	ErrUnescapedQuote ArgErrorKind = "unescaped_quote"
	// ErrInvalid: any other syntax error.
	ErrInvalid ArgErrorKind = "invalid"
	// ErrNotObject: valid JSON that is not an object (arguments only).
	ErrNotObject ArgErrorKind = "not_object"
)

// ArgError explains why arguments were refused. Its message is written for
// the model (sent back as an is_error tool result) and ends with "tool not
// executed"; the wording of the truncated and unescaped-quote messages is
// fixed by case B04's expected.json.
type ArgError struct {
	Kind ArgErrorKind
	// Key is the object key whose value broke, when known.
	Key string
	// Detail is a short description ("unterminated string").
	Detail string
}

func (e *ArgError) Error() string {
	switch e.Kind {
	case ErrTruncated:
		return fmt.Sprintf("arguments truncated (%s); tool not executed", e.Detail)
	case ErrUnescapedQuote:
		return fmt.Sprintf("arguments are not valid JSON (unescaped double quote inside %q); tool not executed", e.Key)
	case ErrNotObject:
		return fmt.Sprintf("arguments must be a JSON object, got %s; tool not executed", e.Detail)
	default:
		return fmt.Sprintf("arguments are not valid JSON (%s); tool not executed", e.Detail)
	}
}

// RepairArguments turns the raw argument text of one tool call into a JSON
// object. Empty text becomes "{}". Valid JSON objects are returned byte for
// byte; a JSON string holding an object (double-encoded arguments, seen
// from several servers) is unwrapped once. Otherwise RepairJSON applies.
// A result that is not an object is an *ArgError of kind ErrNotObject.
func RepairArguments(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "{}", nil
	}
	if strings.HasPrefix(s, `"`) {
		var inner string
		if err := json.Unmarshal([]byte(s), &inner); err == nil {
			s = strings.TrimSpace(inner)
			if s == "" {
				return "{}", nil
			}
		}
	}
	out, err := RepairJSON(s)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(out, "{") {
		return "", &ArgError{Kind: ErrNotObject, Detail: jsonKind(out)}
	}
	return out, nil
}

func jsonKind(s string) string {
	switch {
	case strings.HasPrefix(s, "["):
		return "an array"
	case strings.HasPrefix(s, `"`):
		return "a string"
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "a boolean"
	default:
		return "a number"
	}
}

// RepairJSON returns text as valid JSON without changing what it means.
// Order of attempts (B04 expected.txt): strict JSON, returned unchanged
// (leading and trailing space trimmed); then one lenient pass that accepts
// trailing commas, // and /* */ comments, single-quoted Python-style
// strings, True/False/None, bare identifier keys, invalid escapes such as \' and raw control
// characters inside strings, and closes objects and arrays left open at the
// end after a complete value. It never replaces quotes blindly: an
// apostrophe inside a double-quoted string stays as it is. The lenient
// output is compact JSON with keys in their original order. What it cannot
// repair without guessing is an *ArgError.
func RepairJSON(text string) (string, error) {
	s := strings.TrimSpace(text)
	if json.Valid([]byte(s)) {
		return s, nil
	}
	p := &lenient{s: s}
	p.ws()
	if p.eof() {
		return "", &ArgError{Kind: ErrTruncated, Detail: "empty input"}
	}
	if err := p.value("", 0); err != nil {
		return "", err
	}
	p.ws()
	if !p.eof() {
		return "", &ArgError{Kind: ErrInvalid, Detail: fmt.Sprintf("unexpected %q after the value at byte %d", p.peekRune(), p.i)}
	}
	out := p.out.String()
	if !json.Valid([]byte(out)) { // defensive: never hand out invalid JSON
		return "", &ArgError{Kind: ErrInvalid, Detail: "could not be repaired"}
	}
	return out, nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 200

type lenient struct {
	s   string
	i   int
	out strings.Builder
}

func (p *lenient) eof() bool { return p.i >= len(p.s) }

func (p *lenient) peekRune() rune {
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return r
}

// ws skips white space and // or /* */ comments (JSONC), which carry no
// meaning outside strings.
func (p *lenient) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		case '/':
			rest := p.s[p.i:]
			switch {
			case strings.HasPrefix(rest, "//"):
				if k := strings.IndexByte(rest, '\n'); k >= 0 {
					p.i += k + 1
				} else {
					p.i = len(p.s)
				}
			case strings.HasPrefix(rest, "/*"):
				if k := strings.Index(rest[2:], "*/"); k >= 0 {
					p.i += k + 4
				} else {
					return // unterminated comment: left for the caller to reject
				}
			default:
				return
			}
		default:
			return
		}
	}
}

// value parses one value; key names the member it belongs to (for errors).
// It reports whether the value ended in a way that makes closing an open
// container at EOF safe, via the returned error only.
func (p *lenient) value(key string, depth int) error {
	if depth > maxDepth {
		return &ArgError{Kind: ErrInvalid, Detail: "nesting too deep"}
	}
	p.ws()
	if p.eof() {
		return &ArgError{Kind: ErrTruncated, Key: key, Detail: valueMissing(key)}
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(key, depth)
	case c == '[':
		return p.array(key, depth)
	case c == '"' || c == '\'':
		str, err := p.str(c, key)
		if err != nil {
			return err
		}
		writeJSONString(&p.out, str)
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(key)
	default:
		for _, lit := range [][2]string{{"true", "true"}, {"false", "false"}, {"null", "null"}, {"True", "true"}, {"False", "false"}, {"None", "null"}} {
			if strings.HasPrefix(p.s[p.i:], lit[0]) && !identByte(p.s, p.i+len(lit[0])) {
				p.i += len(lit[0])
				p.out.WriteString(lit[1])
				return nil
			}
		}
		if rest := p.s[p.i:]; len(rest) < 5 && isLiteralPrefix(rest) {
			return &ArgError{Kind: ErrTruncated, Key: key, Detail: "literal cut off at end of input"}
		}
		return &ArgError{Kind: ErrInvalid, Key: key, Detail: fmt.Sprintf("unexpected %q at byte %d", p.peekRune(), p.i)}
	}
}

func valueMissing(key string) string {
	if key == "" {
		return "value missing at end of input"
	}
	return fmt.Sprintf("value of %q missing at end of input", key)
}

func isLiteralPrefix(s string) bool {
	for _, lit := range []string{"true", "false", "null", "True", "False", "None"} {
		if strings.HasPrefix(lit, s) {
			return true
		}
	}
	return false
}

func identByte(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *lenient) object(key string, depth int) error {
	p.i++ // '{'
	p.out.WriteByte('{')
	n := 0
	for {
		p.ws()
		if p.eof() {
			if n == 0 {
				return &ArgError{Kind: ErrTruncated, Key: key, Detail: "object not closed"}
			}
			p.out.WriteByte('}') // missing closing brace after a complete member
			return nil
		}
		if p.s[p.i] == '}' {
			p.i++
			p.out.WriteByte('}')
			return nil
		}
		if n > 0 {
			p.out.WriteByte(',')
		}
		k, err := p.key()
		if err != nil {
			return err
		}
		writeJSONString(&p.out, k)
		p.ws()
		if p.eof() {
			return &ArgError{Kind: ErrTruncated, Key: k, Detail: valueMissing(k)}
		}
		if p.s[p.i] != ':' {
			return &ArgError{Kind: ErrInvalid, Key: k, Detail: fmt.Sprintf("expected ':' after key %q", k)}
		}
		p.i++
		p.out.WriteByte(':')
		start := p.i
		if err := p.value(k, depth+1); err != nil {
			return err
		}
		if err := p.afterValue(k, start, '}'); err != nil {
			return err
		}
		n++
	}
}

// afterValue consumes the separator after a member or element: ',' or the
// closer (left for the caller), or EOF. Anything else is an error; after a
// string it is the shape of an unescaped inner quote.
func (p *lenient) afterValue(key string, start int, closer byte) error {
	p.ws()
	if p.eof() {
		if isNumberStart(p.s, start) {
			return &ArgError{Kind: ErrTruncated, Key: key, Detail: "number at end of input"}
		}
		return nil
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		return nil
	case closer:
		return nil
	}
	if c := firstNonSpace(p.s, start); c == '"' || c == '\'' {
		return &ArgError{Kind: ErrUnescapedQuote, Key: key}
	}
	return &ArgError{Kind: ErrInvalid, Key: key, Detail: fmt.Sprintf("expected ',' or %q at byte %d", closer, p.i)}
}

func firstNonSpace(s string, i int) byte {
	for ; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

func isNumberStart(s string, i int) bool {
	c := firstNonSpace(s, i)
	return c == '-' || c >= '0' && c <= '9'
}

func (p *lenient) key() (string, error) {
	c := p.s[p.i]
	if c == '"' || c == '\'' {
		return p.str(c, "")
	}
	start := p.i
	for identByte(p.s, p.i) {
		p.i++
	}
	if p.i == start {
		return "", &ArgError{Kind: ErrInvalid, Detail: fmt.Sprintf("expected a key at byte %d", p.i)}
	}
	return p.s[start:p.i], nil
}

func (p *lenient) array(key string, depth int) error {
	p.i++ // '['
	p.out.WriteByte('[')
	n := 0
	for {
		p.ws()
		if p.eof() {
			if n == 0 {
				return &ArgError{Kind: ErrTruncated, Key: key, Detail: "array not closed"}
			}
			p.out.WriteByte(']')
			return nil
		}
		if p.s[p.i] == ']' {
			p.i++
			p.out.WriteByte(']')
			return nil
		}
		if n > 0 {
			p.out.WriteByte(',')
		}
		start := p.i
		if err := p.value(key, depth+1); err != nil {
			return err
		}
		if err := p.afterValue(key, start, ']'); err != nil {
			return err
		}
		n++
	}
}

// str reads a string quoted by q and returns its decoded value. Double-
// quoted strings follow JSON escapes (an unknown escape keeps the escaped
// character); single-quoted ones follow Python's (\' and \" unescape).
func (p *lenient) str(q byte, key string) (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				p.i++
				continue // EOF handled below
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case '/', '\\', '"', '\'':
				b.WriteByte(e)
			case 'u':
				r, n := decodeU(p.s[p.i:])
				if n == 0 {
					b.WriteString(`\u`) // keep the text as written
					continue
				}
				b.WriteRune(r)
				p.i += n
			default:
				if q == '\'' {
					b.WriteByte('\\') // Python keeps unknown escapes
				}
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", &ArgError{Kind: ErrTruncated, Key: key, Detail: "unterminated string"}
}

// decodeU decodes the 4 hex digits after \u (and a following low surrogate
// escape); n is the bytes consumed after "\u", 0 when not valid hex.
func decodeU(s string) (rune, int) {
	h, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if h >= 0xD800 && h < 0xDC00 && len(s) >= 10 && s[4] == '\\' && s[5] == 'u' {
		if l, ok := hex4(s[6:]); ok && l >= 0xDC00 && l < 0xE000 {
			return (h-0xD800)<<10 + (l - 0xDC00) + 0x10000, 10
		}
	}
	if h >= 0xD800 && h < 0xE000 {
		return utf8.RuneError, 4
	}
	return h, 4
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *lenient) number(key string) error {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
			p.i++
			continue
		}
		break
	}
	tok := p.s[start:p.i]
	if !json.Valid([]byte(tok)) {
		if p.eof() {
			return &ArgError{Kind: ErrTruncated, Key: key, Detail: "number at end of input"}
		}
		return &ArgError{Kind: ErrInvalid, Key: key, Detail: fmt.Sprintf("bad number %q", tok)}
	}
	p.out.WriteString(tok)
	return nil
}

// writeJSONString writes s as a JSON string without HTML escaping; invalid
// UTF-8 bytes become U+FFFD.
func writeJSONString(b *strings.Builder, s string) {
	const hexd = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexd[r>>4])
			b.WriteByte(hexd[r&0xF])
		default:
			b.WriteRune(r) // RuneError for invalid bytes writes U+FFFD
		}
	}
	b.WriteByte('"')
}

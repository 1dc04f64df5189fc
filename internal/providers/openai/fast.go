package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// fastDelta decodes the chunk shape that makes up almost all of a long
// reply — one choice whose delta holds only content (and perhaps a role),
// optionally a finish_reason — without encoding/json's reflection, which
// is most of the cost of a 100k-token stream. Anything else (tool calls,
// reasoning, usage, llama-server's timings, errors, several choices, odd
// key case, duplicate keys, invalid UTF-8, numbers that are not plain
// integers) returns ok=false and
// the caller falls back to json.Unmarshal; FuzzFastDelta checks that the
// two agree whenever the fast path answers.
func fastDelta(b []byte) (content *string, finish *string, ok bool) {
	s := scanner{b: b}
	ok = s.object(func(key []byte) bool {
		switch string(key) {
		case "choices":
			return s.choices(&content, &finish)
		case "usage", "error":
			return s.null()
		}
		return !known(key) && s.skip(0)
	})
	s.ws()
	return content, finish, ok && s.i == len(s.b)
}

// known reports keys that wireChunk or its parts decode (matched
// case-insensitively by encoding/json); the fast path must not skip them.
func known(key []byte) bool {
	for _, k := range knownKeys {
		if bytes.EqualFold(key, k) {
			return true
		}
	}
	return false
}

var knownKeys = [][]byte{[]byte("choices"), []byte("usage"), []byte("error"), []byte("index"), []byte("delta"),
	[]byte("message"), []byte("finish_reason"), []byte("content"), []byte("reasoning_content"), []byte("reasoning"),
	[]byte("tool_calls"), []byte("timings")}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) null() bool {
	s.ws()
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// object walks an object, calling field for each key with the scanner on
// its value; a repeated key fails (encoding/json would let the last win).
func (s *scanner) object(field func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	var buf [16][]byte
	seen := buf[:0]
	for {
		key, ok := s.str()
		if !ok || !s.eat(':') {
			return false
		}
		for _, k := range seen {
			if bytes.EqualFold(k, key) {
				return false
			}
		}
		seen = append(seen, key)
		if !field(key) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

func (s *scanner) choices(content, finish **string) bool {
	if s.null() {
		return true
	}
	if !s.eat('[') {
		return false
	}
	if s.eat(']') {
		return true
	}
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "index":
			return s.zero()
		case "delta":
			if s.null() {
				return true
			}
			return s.object(func(key []byte) bool {
				switch string(key) {
				case "content":
					if s.null() {
						return true
					}
					v, ok := s.str()
					str := string(v)
					*content = &str
					return ok
				case "reasoning_content", "reasoning", "tool_calls":
					return s.null()
				}
				return !known(key) && s.skip(0)
			})
		case "finish_reason":
			if s.null() {
				return true
			}
			v, ok := s.str()
			str := string(v)
			*finish = &str
			return ok
		}
		return !known(key) && s.skip(0)
	})
	return ok && s.eat(']') // one choice only
}

// zero accepts the integer 0 (the only choice index Zero reads).
func (s *scanner) zero() bool {
	if s.peek() != '0' {
		return false
	}
	s.i++
	if s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E':
			return false
		}
	}
	return true
}

// str reads a string, returning its decoded bytes (a sub-slice of the
// input when it has no escapes). Escapes are decoded by encoding/json on
// the literal alone; control characters and invalid UTF-8 fail
// (encoding/json would rewrite them).
func (s *scanner) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start, escaped := s.i, false
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if !utf8.Valid(raw) {
				return nil, false
			}
			if !escaped {
				return raw, true
			}
			var v string
			if json.Unmarshal(s.b[start-1:s.i], &v) != nil || !utf8.ValidString(v) || strings.ContainsRune(v, utf8.RuneError) {
				return nil, false
			}
			return []byte(v), true
		case c == '\\':
			escaped = true
			s.i += 2
		case c < 0x20:
			return nil, false
		default:
			s.i++
		}
	}
	return nil, false
}

// skip passes over any value, checking its syntax.
func (s *scanner) skip(depth int) bool {
	if depth > 32 {
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.skip(depth + 1) })
	case c == '[':
		s.i++
		if s.eat(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if s.eat(']') {
				return true
			}
			if !s.eat(',') {
				return false
			}
		}
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
				s.i += len(lit)
				return true
			}
		}
		return false
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() bool {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

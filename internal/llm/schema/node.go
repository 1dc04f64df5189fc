package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// kind is the JSON type of a node.
type kind byte

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// node is a JSON value that keeps the order of object keys, so a cleaned
// schema reads like its source and encodes to the same bytes every time
// (prompt caches key on exact bytes).
type node struct {
	kind kind
	b    bool
	s    string // string value, or the literal text of a number
	arr  []*node
	keys []string
	vals []*node
}

// maxParseDepth bounds nesting while parsing; schemas nest a few levels.
const maxParseDepth = 512

var errTooDeep = errors.New("schema nests deeper than 512 levels")

// parse reads exactly one JSON value from data.
func parse(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxParseDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kNull}, nil
	case bool:
		return &node{kind: kBool, b: t}, nil
	case json.Number:
		return &node{kind: kNumber, s: t.String()}, nil
	case string:
		return &node{kind: kString, s: t}, nil
	case json.Delim:
		switch t {
		case '[':
			n := &node{kind: kArray}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %w", err)
			}
			return n, nil
		case '{':
			n := &node{kind: kObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %w", err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("invalid JSON: object key is not a string")
				}
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.set(key, v) // a repeated key keeps its last value, as encoding/json does
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %w", err)
			}
			return n, nil
		}
	}
	return nil, fmt.Errorf("invalid JSON: unexpected token %v", tok)
}

// encode appends the compact JSON text of n to buf.
func (n *node) encode(buf *bytes.Buffer) {
	switch n.kind {
	case kNull:
		buf.WriteString("null")
	case kBool:
		if n.b {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case kNumber:
		buf.WriteString(n.s)
	case kString:
		encodeString(buf, n.s)
	case kArray:
		buf.WriteByte('[')
		for i, v := range n.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			v.encode(buf)
		}
		buf.WriteByte(']')
	case kObject:
		buf.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeString(buf, k)
			buf.WriteByte(':')
			n.vals[i].encode(buf)
		}
		buf.WriteByte('}')
	}
}

// encodeString writes s as a JSON string the way encoding/json does, but
// without HTML escaping, so tool descriptions keep "<" and "&" readable:
// quote, backslash and control characters escaped, U+2028/U+2029 escaped,
// invalid UTF-8 replaced by U+FFFD.
func encodeString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case c == '\n':
				buf.WriteString(`\n`)
			case c == '\r':
				buf.WriteString(`\r`)
			case c == '\t':
				buf.WriteString(`\t`)
			case c == '\b':
				buf.WriteString(`\b`)
			case c == '\f':
				buf.WriteString(`\f`)
			case c < 0x20:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xf])
			default:
				buf.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			buf.WriteString(`\u202`)
			buf.WriteByte(hex[r&0xf])
		default:
			buf.WriteString(s[i : i+size])
		}
		i += size
	}
	buf.WriteByte('"')
}

// bytes returns the compact JSON text of n.
func (n *node) bytes() []byte {
	var buf bytes.Buffer
	n.encode(&buf)
	return buf.Bytes()
}

// bytesOr returns n's JSON text, or def when n is nil.
func (n *node) bytesOr(def string) string {
	if n == nil {
		return def
	}
	return string(n.bytes())
}

// clone returns a deep copy of n.
func (n *node) clone() *node {
	c := &node{kind: n.kind, b: n.b, s: n.s}
	if n.arr != nil {
		c.arr = make([]*node, len(n.arr))
		for i, v := range n.arr {
			c.arr[i] = v.clone()
		}
	}
	if n.keys != nil {
		c.keys = append([]string(nil), n.keys...)
		c.vals = make([]*node, len(n.vals))
		for i, v := range n.vals {
			c.vals[i] = v.clone()
		}
	}
	return c
}

// size counts the nodes of n, for the inlining budget.
func (n *node) size() int {
	s := 1
	for _, v := range n.arr {
		s += v.size()
	}
	for _, v := range n.vals {
		s += v.size()
	}
	return s
}

func (n *node) index(key string) int {
	for i, k := range n.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// get returns the value under key, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	if i := n.index(key); i >= 0 {
		return n.vals[i]
	}
	return nil
}

func (n *node) has(key string) bool { return n.get(key) != nil }

// set replaces the value under key in place, or appends the key.
func (n *node) set(key string, v *node) {
	if i := n.index(key); i >= 0 {
		n.vals[i] = v
		return
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// setFront replaces the value under key in place, or inserts the key first.
func (n *node) setFront(key string, v *node) {
	if i := n.index(key); i >= 0 {
		n.vals[i] = v
		return
	}
	n.insertAt(0, key, v)
}

func (n *node) insertAt(i int, key string, v *node) {
	n.keys = append(n.keys, "")
	n.vals = append(n.vals, nil)
	copy(n.keys[i+1:], n.keys[i:])
	copy(n.vals[i+1:], n.vals[i:])
	n.keys[i] = key
	n.vals[i] = v
}

// del removes key and reports whether it was there.
func (n *node) del(key string) bool {
	i := n.index(key)
	if i < 0 {
		return false
	}
	n.keys = append(n.keys[:i], n.keys[i+1:]...)
	n.vals = append(n.vals[:i], n.vals[i+1:]...)
	return true
}

// splice replaces key with the entries of src that n does not already
// have, at key's position; keys n already has keep n's value.
func (n *node) splice(key string, src *node) {
	i := n.index(key)
	if i < 0 {
		i = len(n.keys)
	} else {
		n.del(key)
	}
	for j, k := range src.keys {
		if n.index(k) >= 0 {
			continue
		}
		n.insertAt(i, k, src.vals[j])
		i++
	}
}

// str returns the string value under key, or "".
func (n *node) str(key string) string {
	if v := n.get(key); v != nil && v.kind == kString {
		return v.s
	}
	return ""
}

func strNode(s string) *node     { return &node{kind: kString, s: s} }
func boolNode(b bool) *node      { return &node{kind: kBool, b: b} }
func emptyObject() *node         { return &node{kind: kObject, keys: []string{}, vals: []*node{}} }
func arrayNode(v ...*node) *node { return &node{kind: kArray, arr: v} }

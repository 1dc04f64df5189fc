// Package decodeerr words the errors of Go's decoders for the person who
// wrote the file: which key holds the wrong kind of value, what it
// should hold and where, in the words of the file's format ("a list of
// strings", "an object", "true or false") rather than Go's type names
// ([]string, map[string]any, []hooks.settingsGroup). It covers
// encoding/json's *json.UnmarshalTypeError
// (https://pkg.go.dev/encoding/json#UnmarshalTypeError) and
// BurntSushi/toml's "incompatible types" error
// (https://pkg.go.dev/github.com/BurntSushi/toml), the two decoders Zero
// reads user files with.
package decodeerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Kind is the JSON or TOML value a Go type takes, as a person writes
// it: "a string", "a number", "true or false", "a list of strings", "an
// object".
func Kind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return Kind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list of " + plural(Kind(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// plural is "strings" for "a string", "lists of numbers" for "a list of
// numbers".
func plural(kind string) string {
	switch {
	case kind == "true or false":
		return "true/false values"
	case strings.HasPrefix(kind, "a list of "):
		return "lists of " + strings.TrimPrefix(kind, "a list of ")
	}
	kind = strings.TrimPrefix(strings.TrimPrefix(kind, "an "), "a ")
	return kind + "s"
}

// Found is the kind of value te found, as a person writes it ("a
// list", "a number").
func Found(te *json.UnmarshalTypeError) string { return jsonValue(te.Value) }

// jsonValue words encoding/json's name for the value found ("number",
// "array", ...).
func jsonValue(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "string":
		return "a string"
	}
	return v
}

// JSONMessage words te: "args must be a list of strings, not a number",
// or "an item of args must be a string, not a number" for a list's item
// and `"PORT" in env must be a string, not a number` for an object's
// value. text is the JSON te's offset is in (nil when unknown: the key is
// then named as the decoder saw it); start is where the wrong value
// begins in text (te.Offset without text).
func JSONMessage(te *json.UnmarshalTypeError, text []byte) (msg string, start int64) {
	want, got := Kind(te.Type), jsonValue(te.Value)
	field := te.Field
	start = te.Offset
	if text != nil && te.Offset <= int64(len(text)) {
		start = valueStart(text, te.Offset, te.Value)
		before := bytes.TrimRight(text[:start], " \t\r\n")
		last := field[strings.LastIndexByte(field, '.')+1:]
		switch {
		case field != "" && (bytes.HasSuffix(before, []byte("[")) || bytes.HasSuffix(before, []byte(","))):
			field = "an item of " + field
		case field != "" && bytes.HasSuffix(before, []byte(":")):
			if key := keyBefore(before); key != "" && key != last {
				field = fmt.Sprintf("%q in %s", key, field)
			}
		}
	}
	if field == "" {
		return fmt.Sprintf("must be %s, not %s", want, got), start
	}
	return fmt.Sprintf("%s must be %s, not %s", field, want, got), start
}

// valueStart finds where the value the decoder stopped at begins: an
// object or list is one byte before off (the decoder read its opening
// bracket), a literal ends at off.
func valueStart(text []byte, off int64, value string) int64 {
	if value == "object" || value == "array" {
		return max(off-1, 0)
	}
	i := off
	if value == "string" {
		// back over the closing quote, then to the opening one
		i--
		for i > 0 {
			i--
			if text[i] == '"' && (i == 0 || text[i-1] != '\\') {
				return i
			}
		}
		return 0
	}
	for i > 0 && !bytes.ContainsRune([]byte(" \t\r\n,:[{"), rune(text[i-1])) {
		i--
	}
	return i
}

// keyBefore is the object key before ':' at the end of before.
func keyBefore(before []byte) string {
	b := bytes.TrimRight(bytes.TrimSuffix(before, []byte(":")), " \t\r\n")
	if !bytes.HasSuffix(b, []byte(`"`)) {
		return ""
	}
	open := bytes.LastIndexByte(b[:len(b)-1], '"')
	if open < 0 {
		return ""
	}
	var k string
	if json.Unmarshal(b[open:], &k) != nil {
		return ""
	}
	return k
}

// Position is off in text as "line L, column C" (1-based).
func Position(text []byte, off int64) string {
	line, col := LineCol(text, off)
	return fmt.Sprintf("line %d, column %d", line, col)
}

// LineCol is off in text as 1-based line and column.
func LineCol(text []byte, off int64) (line, col int) {
	if off < 0 || off > int64(len(text)) {
		off = int64(len(text))
	}
	before := text[:off]
	return bytes.Count(before, []byte{'\n'}) + 1, int(off) - bytes.LastIndexByte(before, '\n')
}

// JSON rewords err when it is a type error of decoding text: "line L,
// column C: KEY must be KIND, not VALUE" (without the position when text
// is nil). Other errors are returned as they are.
func JSON(err error, text []byte) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	msg, start := JSONMessage(te, text)
	if text == nil {
		return &wordError{msg, err}
	}
	return &wordError{Position(text, start) + ": " + msg, err}
}

// wordError is a reworded decoder error; errors.As still finds the
// decoder's.
type wordError struct {
	msg string
	err error
}

func (e *wordError) Error() string { return e.msg }
func (e *wordError) Unwrap() error { return e.err }

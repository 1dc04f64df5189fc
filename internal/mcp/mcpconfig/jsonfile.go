package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tailscale/hujson"

	"github.com/zero-agent/zero/internal/decodeerr"
)

// member is one key of a JSON object, in file order, with the byte
// offset of its value in the file (for line numbers in messages).
type member struct {
	Key    string
	Value  json.RawMessage
	Offset int64
}

// jsonDoc is a parsed JSON file: its text (BOM removed, comments
// blanked for the JSON-with-comments files) and its top-level members.
type jsonDoc struct {
	path    string
	text    []byte
	members []member
}

// bom is the UTF-8 byte order mark Windows editors put first.
var bom = []byte("\xef\xbb\xbf")

// parseJSONDoc parses data, the file at path, as one JSON object. A BOM
// is dropped; CRLF line ends are whitespace to JSON. With comments, the
// JSON-with-comments dialect VS Code and Gemini CLI read is accepted
// (comments and trailing commas; hujson.Standardize keeps every offset).
// An empty file is an empty object. Errors read "path:line:col: problem".
func parseJSONDoc(path string, data []byte, comments bool) (*jsonDoc, error) {
	text := bytes.TrimPrefix(data, bom)
	if comments {
		std, err := hujson.Standardize(bytes.Clone(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %s", path, hujsonMessage(err))
		}
		text = std
	}
	d := &jsonDoc{path: path, text: text}
	if len(bytes.TrimSpace(text)) == 0 {
		return d, nil
	}
	ms, err := objectMembers(text, 0, int64(len(text)))
	if err != nil {
		return nil, d.errorAt(err)
	}
	d.members = ms
	return d, nil
}

// hujsonMessage is hujson's error without its package prefix; it names
// line and column itself.
func hujsonMessage(err error) string {
	msg := err.Error()
	if len(msg) > 7 && msg[:7] == "hujson:" {
		msg = msg[7:]
	}
	return string(bytes.TrimSpace([]byte(msg)))
}

// posError is a problem at a byte offset of a file.
type posError struct {
	off int64
	msg string
}

func (e *posError) Error() string { return e.msg }

// errorAt names the file and line of err (a posError, or an
// encoding/json syntax or type error, whose offsets are file offsets).
func (d *jsonDoc) errorAt(err error) error {
	var pe *posError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s:%s: %s", d.path, d.position(pe.off), pe.msg)
	case errors.As(err, &se):
		return fmt.Errorf("%s:%s: %v", d.path, d.position(se.Offset), se)
	case errors.As(err, &te):
		msg, start := decodeerr.JSONMessage(te, d.text)
		return fmt.Errorf("%s:%s: %s", d.path, d.position(start), msg)
	}
	return fmt.Errorf("%s: %w", d.path, err)
}

// position turns a byte offset into "line:col" (1-based).
func (d *jsonDoc) position(off int64) string {
	if off < 0 || off > int64(len(d.text)) {
		off = int64(len(d.text))
	}
	before := d.text[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// member is the top-level member named key, or nil.
func (d *jsonDoc) member(key string) *member {
	for i := range d.members {
		if d.members[i].Key == key {
			return &d.members[i]
		}
	}
	return nil
}

// objectMembers reads the JSON object at text[start:end] (whitespace
// around it allowed) into its members in order, with offsets into text.
// A key written twice is an error: JSON readers disagree on which wins.
func objectMembers(text []byte, start, end int64) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(text[start:end]))
	tok, err := dec.Token()
	if err != nil {
		return nil, offsetErr(err, start)
	}
	if tok != json.Delim('{') {
		return nil, &posError{start + dec.InputOffset() - 1, "expected a JSON object"}
	}
	var ms []member
	seen := map[string]bool{}
	for dec.More() {
		keyEnd := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, offsetErr(err, start)
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, &posError{start + keyEnd, fmt.Sprintf("%q is written twice", key)}
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, offsetErr(err, start)
		}
		ms = append(ms, member{Key: key, Value: v, Offset: start + dec.InputOffset() - int64(len(v))})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, offsetErr(err, start)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &posError{start + dec.InputOffset(), "text after the JSON object"}
	}
	return ms, nil
}

// offsetErr moves a decoder error's offset from a sub-slice to the file.
func offsetErr(err error, base int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &posError{base + se.Offset, se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &posError{-1, "unexpected end of file"}
	}
	return err
}

// subMembers reads the object value of m (an "mcpServers" or "servers"
// member) into its members. A null value is empty.
func (d *jsonDoc) subMembers(m *member) ([]member, error) {
	if m == nil || string(m.Value) == "null" {
		return nil, nil
	}
	ms, err := objectMembers(d.text, m.Offset, m.Offset+int64(len(m.Value)))
	if err != nil {
		return nil, d.errorAt(err)
	}
	return ms, nil
}

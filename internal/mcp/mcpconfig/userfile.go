package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// ErrNoEntry is returned by Remove for a name Zero's file does not hold.
var ErrNoEntry = errors.New("not in Zero's MCP file")

// ErrExists is returned by Add for a name Zero's file already holds.
var ErrExists = errors.New("already in Zero's MCP file")

// ErrBadName is returned by Add for a name that cannot be a server's (the
// error says why, once: it is not wrapped in another "server %q").
var ErrBadName = errors.New("server name")

// UserFile is Zero's own MCP file (CONFIGDIR/mcp.json), the only MCP file
// Zero writes. Edits keep every other entry and top-level key as
// written, in order (re-indented), and are atomic. A file that does not
// parse is never written over: the edit fails naming its line.
type UserFile struct{ Path string }

// NewUserFile is the file in Zero's config dir.
func NewUserFile(configDir string) UserFile {
	return UserFile{Path: filepath.Join(configDir, UserFileName)}
}

// Has reports whether the file holds an entry (a server or an override)
// named name.
func (f UserFile) Has(name string) (bool, error) {
	_, entries, err := f.read()
	if err != nil {
		return false, err
	}
	return indexOf(entries, name) >= 0, nil
}

// ParseEntry checks raw as an entry of Zero's file named name and
// returns its server (not expanded).
func ParseEntry(name string, raw json.RawMessage) (Server, error) {
	s, _, err := parseEntry(name, raw)
	return s, err
}

func parseEntry(name string, raw json.RawMessage) (Server, json.RawMessage, error) {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
		return Server{}, nil, fmt.Errorf("%w %q has a space or control character: use letters, digits, '-' and '_'", ErrBadName, name)
	}
	doc, err := parseJSONDoc("entry", raw, false)
	if err != nil {
		return Server{}, nil, err
	}
	if len(doc.members) == 0 && !bytes.HasPrefix(bytes.TrimSpace(doc.text), []byte("{")) {
		return Server{}, nil, errors.New("entry: expected a JSON object")
	}
	s, _, err := entryServer(doc, member{Key: name, Value: doc.text}, shapeZero)
	return s, compact(doc.text), err
}

// Add writes entry raw (a JSON object, as `zero mcp add-json` takes it)
// under name. A name already there is ErrExists.
func (f UserFile) Add(name string, raw json.RawMessage) error {
	_, text, err := parseEntry(name, raw)
	if errors.Is(err, ErrBadName) {
		return err
	}
	if err != nil {
		return fmt.Errorf("server %q: %w", name, err)
	}
	return f.edit(func(entries []member) ([]member, error) {
		if indexOf(entries, name) >= 0 {
			return nil, fmt.Errorf("server %q: %w", name, ErrExists)
		}
		return append(entries, member{Key: name, Value: text}), nil
	})
}

// AddServer writes s as an entry (see Entry).
func (f UserFile) AddServer(s Server) error { return f.Add(s.Name, Entry(s)) }

// Remove deletes the entry name; one that is not there is ErrNoEntry.
func (f UserFile) Remove(name string) error {
	return f.edit(func(entries []member) ([]member, error) {
		i := indexOf(entries, name)
		if i < 0 {
			return nil, fmt.Errorf("server %q: %w", name, ErrNoEntry)
		}
		return append(entries[:i], entries[i+1:]...), nil
	})
}

// SetEnabled turns the server name on or off. An entry of Zero's own
// loses its "enabled" key when turned on (on is the default) and gets
// "enabled": false when turned off. A name the file does not hold gets
// an override entry {"enabled": on}, which applies to the server of that
// name from any other source; override reports whether one was written.
func (f UserFile) SetEnabled(name string, on bool) (override bool, err error) {
	err = f.edit(func(entries []member) ([]member, error) {
		i := indexOf(entries, name)
		if i < 0 {
			override = true
			v, _ := json.Marshal(map[string]bool{"enabled": on})
			return append(entries, member{Key: name, Value: v}), nil
		}
		keys, err := objectMembers(entries[i].Value, 0, int64(len(entries[i].Value)))
		if err != nil {
			return nil, fmt.Errorf("server %q: %w", name, err)
		}
		override = isOverride(entries[i].Value)
		keys = setKey(keys, "enabled", on, on && !override)
		entries[i].Value = objectText(keys)
		return entries, nil
	})
	return override, err
}

// setKey sets key to v in an object's members (appended when new), or
// removes it when remove.
func setKey(ms []member, key string, v any, remove bool) []member {
	i := indexOf(ms, key)
	switch {
	case remove && i >= 0:
		return append(ms[:i], ms[i+1:]...)
	case remove:
		return ms
	}
	raw, _ := json.Marshal(v)
	if i >= 0 {
		ms[i].Value = raw
		return ms
	}
	return append(ms, member{Key: key, Value: raw})
}

func indexOf(ms []member, key string) int {
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
}

// read parses the file: its top-level members and its server entries.
// A missing file is empty.
func (f UserFile) read() (*jsonDoc, []member, error) {
	data, err := os.ReadFile(f.Path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	doc, err := parseJSONDoc(f.Path, data, false)
	if err != nil {
		return nil, nil, err
	}
	entries, err := doc.subMembers(doc.member("mcpServers"))
	if err != nil {
		return nil, nil, err
	}
	return doc, entries, nil
}

// edit rewrites the file with fn's server entries; fn's error leaves
// the file as it was.
func (f UserFile) edit(fn func([]member) ([]member, error)) error {
	doc, entries, err := f.read()
	if err != nil {
		return fmt.Errorf("%w (Zero will not write over a file it cannot read; fix it or move it away)", err)
	}
	entries, err = fn(entries)
	if err != nil {
		return err
	}
	top := doc.members
	if i := indexOf(top, "mcpServers"); i >= 0 {
		top[i].Value = objectText(entries)
	} else {
		top = append([]member{{Key: "mcpServers", Value: objectText(entries)}}, top...)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, objectText(top), "", "  "); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err) // cannot happen: every part was parsed
	}
	out.WriteByte('\n')
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(f.Path, out.Bytes(), 0o600)
}

// objectText is the JSON object of ms, in order.
func objectText(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(compact(m.Value))
	}
	b.WriteByte('}')
	return b.Bytes()
}

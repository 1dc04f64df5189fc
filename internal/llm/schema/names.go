package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
)

// MaxNameLen is the longest tool name sent: OpenAI allows 64 characters
// (^[a-zA-Z0-9_-]{1,64}$), Gemini 64, Anthropic 128.
const MaxNameLen = 64

// Entry is the real identity of one tool behind a wire name.
type Entry struct {
	// Server is the MCP server the tool belongs to; empty for built-in
	// tools.
	Server string `json:"server"`
	// Tool is the tool's real name, as the server or registry spells it.
	Tool string `json:"tool"`
}

// NameMap maps real tool names onto names every provider accepts
// (^[a-zA-Z0-9_-]{1,64}$, first character a letter or "_" as Gemini
// requires) and back. The zero value is not ready; use NewNameMap. Wire names are
// deterministic for the same sequence of Add calls, so prompt caches stay
// warm across requests. Not safe for concurrent use.
type NameMap struct {
	byWire map[string]Entry
	byReal map[Entry]string
	order  []string // wire names in Add order
}

// NewNameMap returns an empty map.
func NewNameMap() *NameMap {
	return &NameMap{byWire: map[string]Entry{}, byReal: map[Entry]string{}}
}

// Add registers a tool and returns its wire name. Characters outside
// [a-zA-Z0-9_-] (dots, slashes, spaces, ...) become "_"; a name starting
// with a digit or "-" gets a "_" prefix. When that name is already taken
// by another tool, the server name is put in front ("server__tool"); when
// the result is still taken or longer than MaxNameLen, it is cut and ends
// in "_" plus 8 hex digits of a SHA-256 of server and tool. Adding the same
// (server, tool) again returns the same wire name.
func (m *NameMap) Add(server, tool string) string {
	e := Entry{Server: server, Tool: tool}
	if w, ok := m.byReal[e]; ok {
		return w
	}
	wire := sanitizeName(tool)
	if m.taken(wire) && server != "" {
		wire = sanitizeName(server + "__" + tool)
	}
	if m.taken(wire) || len(wire) > MaxNameLen {
		sum := sha256.Sum256([]byte(server + "\x00" + tool))
		for i := 0; ; i++ {
			h := hex.EncodeToString(sum[:4])
			if i > 0 {
				h += strconv.Itoa(i)
			}
			base := wire
			if len(base) > MaxNameLen-len(h)-1 {
				base = base[:MaxNameLen-len(h)-1]
			}
			if cand := base + "_" + h; !m.taken(cand) {
				wire = cand
				break
			}
		}
	}
	m.byWire[wire] = e
	m.byReal[e] = wire
	m.order = append(m.order, wire)
	return wire
}

func (m *NameMap) taken(wire string) bool {
	_, ok := m.byWire[wire]
	return ok
}

// Wire returns the wire name of a built-in tool (server ""), or of the
// first tool added under that real name.
func (m *NameMap) Wire(name string) (string, bool) {
	if w, ok := m.byReal[Entry{Tool: name}]; ok {
		return w, true
	}
	for _, w := range m.order {
		if m.byWire[w].Tool == name {
			return w, true
		}
	}
	return "", false
}

// Real returns the real tool name behind a wire name the model called. A
// model that calls a tool by its real name (it saw it in a description)
// is understood too.
func (m *NameMap) Real(wire string) (string, bool) {
	e, ok := m.Lookup(wire)
	return e.Tool, ok
}

// Lookup returns the server and real name behind a wire name, accepting a
// real name as Real does.
func (m *NameMap) Lookup(wire string) (Entry, bool) {
	if e, ok := m.byWire[wire]; ok {
		return e, true
	}
	for _, w := range m.order {
		if e := m.byWire[w]; e.Tool == wire {
			return e, true
		}
	}
	return Entry{}, false
}

// Renamed returns, by wire name, the entries whose wire name differs from
// the real tool name.
func (m *NameMap) Renamed() map[string]Entry {
	out := map[string]Entry{}
	for w, e := range m.byWire {
		if w != e.Tool {
			out[w] = e
		}
	}
	return out
}

// MarshalJSON writes {"<wire>": {"server": ..., "tool": ...}, ...} with
// wire names sorted (the shape of case B31 expected_name_map.json).
func (m *NameMap) MarshalJSON() ([]byte, error) {
	wires := make([]string, 0, len(m.byWire))
	for w := range m.byWire {
		wires = append(wires, w)
	}
	sort.Strings(wires)
	n := emptyObject()
	for _, w := range wires {
		e := m.byWire[w]
		v := emptyObject()
		v.set("server", strNode(e.Server))
		v.set("tool", strNode(e.Tool))
		n.set(w, v)
	}
	return n.bytes(), nil
}

var _ json.Marshaler = (*NameMap)(nil)

// sanitizeName maps every byte outside [a-zA-Z0-9_-] to "_" (a multi-byte
// UTF-8 character becomes one "_"), prefixes "_" when the first character
// is not a letter or "_", and names an empty result "_".
func sanitizeName(s string) string {
	b := make([]byte, 0, len(s)+1)
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b = append(b, byte(r))
		default:
			b = append(b, '_')
		}
	}
	if len(b) == 0 || !(b[0] == '_' || (b[0]|0x20 >= 'a' && b[0]|0x20 <= 'z')) {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

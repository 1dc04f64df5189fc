package textcalls

import (
	"sort"
	"strings"
	"unicode"

	"github.com/zero-agent/zero/internal/llm/schema"
)

// A model that writes a call as text names the tool as it saw it: often the
// wire name the provider sent (schema.NameMap: "calendar.list_events" goes
// out as "calendar_list_events"), sometimes a near miss in case or
// separators ("Read_File", "read-file") or with the namespace its training
// format puts in front ("functions.read_file" in OpenAI's harmony format,
// "default_api.read_file" in Gemini's Python form, Kimi's
// "functions.read_file:0"). toolNames maps such a name back to the one
// offered tool it can only mean; a name that could mean two tools, or none,
// is not guessed.

// namespaces are the prefixes models put before a tool name, each followed
// by '.', ':' or '/' ("functions.read_file").
var namespaces = []string{"functions", "function", "default_api", "tools", "tool"}

// toolNames resolves the name written in a text call to an offered tool.
type toolNames struct {
	anyName bool                // every name counts as offered
	offered map[string]bool     // real names
	wire    map[string]string   // wire name -> real name
	loose   map[string][]string // looseKey -> real names, sorted, distinct
}

// newToolNames indexes offered (real tool names, as the caller registered
// them). Wire names are computed as schema.PrepareTools does (one NameMap,
// tools added in offer order, server ""), so a sanitised or hashed wire
// name maps back exactly.
func newToolNames(offered []string, anyName bool) *toolNames {
	t := &toolNames{anyName: anyName, offered: map[string]bool{}, wire: map[string]string{}, loose: map[string][]string{}}
	m := schema.NewNameMap()
	for _, n := range offered {
		if n == "" || t.offered[n] {
			continue
		}
		t.offered[n] = true
		w := m.Add("", n)
		t.wire[w] = n
		t.addLoose(n, n)
		t.addLoose(w, n)
	}
	return t
}

func (t *toolNames) addLoose(name, real string) {
	k := looseKey(name)
	if k == "" {
		return
	}
	for _, r := range t.loose[k] {
		if r == real {
			return
		}
	}
	t.loose[k] = append(t.loose[k], real)
	sort.Strings(t.loose[k])
}

// resolve returns the offered tool name stands for. In order: the name
// itself, an exact wire name, then (for the name and for it without a
// namespace prefix) an exact or loose match (case and every non-letter,
// non-digit ignored). ok is false when nothing matches or when the loose
// matches name more than one tool; ambiguous then lists them.
func (t *toolNames) resolve(name string) (real string, ambiguous []string, ok bool) {
	if name == "" {
		return "", nil, false
	}
	if t.anyName || t.offered[name] {
		return name, nil, true
	}
	if r, ok := t.wire[name]; ok {
		return r, nil, true
	}
	forms := []string{name}
	if bare, ok := stripNamespace(name); ok {
		forms = append(forms, bare)
	}
	var found []string
	add := func(r string) {
		for _, f := range found {
			if f == r {
				return
			}
		}
		found = append(found, r)
	}
	for _, f := range forms {
		if t.offered[f] {
			add(f)
		}
		if r, ok := t.wire[f]; ok {
			add(r)
		}
		for _, r := range t.loose[looseKey(f)] {
			add(r)
		}
	}
	switch len(found) {
	case 0:
		return "", nil, false
	case 1:
		return found[0], nil, true
	}
	sort.Strings(found)
	return "", found, false
}

// looseKey is name lowercased with everything but letters and digits
// removed: "Read-File", "read_file" and "readFile" share "readfile".
func looseKey(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stripNamespace removes a leading namespace ("functions.", "default_api:",
// any case) and, after one, a trailing ":<digits>" call index. ok is false
// when name has no such prefix or nothing follows it.
func stripNamespace(name string) (string, bool) {
	lower := strings.ToLower(name)
	for _, ns := range namespaces {
		if len(name) <= len(ns)+1 || !strings.HasPrefix(lower, ns) || !strings.ContainsRune(".:/", rune(name[len(ns)])) {
			continue
		}
		rest := name[len(ns)+1:]
		if k := strings.LastIndexByte(rest, ':'); k > 0 && k < len(rest)-1 && strings.Trim(rest[k+1:], "0123456789") == "" {
			rest = rest[:k]
		}
		return rest, rest != ""
	}
	return "", false
}

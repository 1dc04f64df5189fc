// Package frontmatter splits a Markdown file into its YAML front matter
// (between a first line "---" and the next "---") and its body, and reads
// the scalar and list fields skills (SKILL.md, https://agentskills.io/specification)
// and custom commands (Claude Code's .claude/commands/*.md) carry.
//
// It is pure: bytes in, fields out. It must not read files nor know what
// a field means to a skill or a command (internal/skills and
// internal/commands do).
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Doc is a parsed file: its front matter fields and the Markdown after.
type Doc struct {
	// Fields are the top-level keys: a string for a scalar, []string for
	// a list of scalars; nested maps are kept as their YAML text.
	Fields map[string]any
	Body   string
}

// ErrUnclosed: the file opens front matter with "---" and never closes it.
var ErrUnclosed = errors.New(`front matter opened with "---" is not closed by a second "---" line`)

// Parse splits data. A file without front matter is all body. YAML that
// does not parse is read as plain "key: value" lines when every line is
// one (many hand-written files have an unquoted colon in a description,
// which YAML rejects); otherwise it is an error naming the line.
func Parse(data []byte) (Doc, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	first, rest, ok := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return Doc{Fields: map[string]any{}, Body: text}, nil
	}
	if !ok {
		return Doc{}, ErrUnclosed
	}
	var head string
	var body string
	found := false
	for off := 0; off <= len(rest); {
		line, _, _ := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t") == "---" {
			head, body, found = rest[:off], rest[min(len(rest), off+len(line)+1):], true
			break
		}
		off += len(line) + 1
	}
	if !found {
		return Doc{}, ErrUnclosed
	}
	fields, err := parseYAML(head)
	if err != nil {
		lines, lerr := parseLines(head)
		if lerr != nil {
			return Doc{}, fmt.Errorf("front matter: %v", err)
		}
		fields = lines
	}
	return Doc{Fields: fields, Body: strings.TrimLeft(body, "\n")}, nil
}

// parseYAML reads head as a YAML mapping.
func parseYAML(head string) (map[string]any, error) {
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(head), &node); err != nil {
		return nil, err
	}
	out := map[string]any{}
	if node.Kind == 0 || len(node.Content) == 0 {
		return out, nil // empty front matter
	}
	m := node.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, errors.New("front matter is not a mapping of keys to values")
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		out[k.Value] = value(v)
	}
	return out, nil
}

// value is a node as Doc keeps it.
func value(v *yaml.Node) any {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value
	case yaml.SequenceNode:
		var items []string
		for _, c := range v.Content {
			if c.Kind == yaml.ScalarNode {
				items = append(items, c.Value)
			}
		}
		return items
	}
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}

// parseLines reads head as "key: value" lines (blank lines and # comments
// allowed).
func parseLines(head string) (map[string]any, error) {
	out := map[string]any{}
	for n, line := range strings.Split(head, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(t, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\"'") || line != strings.TrimLeft(line, " \t") {
			return nil, fmt.Errorf("line %d is not key: value", n+2)
		}
		out[k] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return out, nil
}

// String is field key as a string ("" when absent; a list joined by ", ").
func (d Doc) String(key string) string {
	switch v := d.Fields[key].(type) {
	case string:
		return strings.TrimSpace(v)
	case []string:
		return strings.Join(v, ", ")
	}
	return ""
}

// List is field key as a list: a YAML list as it is, a string split at
// commas, or at spaces when it has none (the SKILL.md spec's allowed-tools
// is space-separated, Claude Code's comma-separated). Separators inside
// parentheses ("Bash(git add:*)") do not split.
func (d Doc) List(key string) []string {
	switch v := d.Fields[key].(type) {
	case []string:
		return v
	case string:
		sep := ' '
		if strings.Contains(v, ",") {
			sep = ','
		}
		return split(v, sep)
	}
	return nil
}

// split cuts s at sep outside parentheses, dropping empty items.
func split(s string, sep rune) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if item := strings.TrimSpace(s[start:end]); item != "" {
			out = append(out, item)
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == sep || sep == ' ' && r == '\t'):
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

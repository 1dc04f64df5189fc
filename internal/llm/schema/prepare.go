package schema

import (
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
)

// maxNotes caps the rewrite notes quoted per tool in a warning.
const maxNotes = 8

// PrepareTools readies a request's tools for one provider: each name is
// mapped through a fresh NameMap (built-in tools, server "") and each
// schema is cleaned for dialect. A tool whose schema cannot be cleaned, or
// whose real name repeats an earlier tool's, is left out with a warning:
// one bad tool must not fail every request (case B31).
//
// The returned specs carry wire names and cleaned parameters, in input
// order; the caller keeps the originals for validating arguments and uses
// the NameMap to map called names back. Warnings are one line per event:
// a rename, the schema rewrites of a tool (the first 8 notes), a dropped
// tool.
func PrepareTools(dialect Dialect, tools []llm.ToolSpec) ([]llm.ToolSpec, *NameMap, []string) {
	m := NewNameMap()
	var out []llm.ToolSpec
	var warnings []string
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.Name] {
			warnings = append(warnings, fmt.Sprintf("tool %q: disabled: another tool has the same name", t.Name))
			continue
		}
		params, notes, err := Clean(dialect, t.Parameters)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("tool %q: disabled for %s: %v", t.Name, dialect, err))
			continue
		}
		seen[t.Name] = true
		wire := m.Add("", t.Name)
		if wire != t.Name {
			warnings = append(warnings, fmt.Sprintf("tool %q: sent to %s as %q", t.Name, dialect, wire))
		}
		if len(notes) > 0 {
			shown := notes
			more := ""
			if len(shown) > maxNotes {
				shown, more = shown[:maxNotes], fmt.Sprintf("; and %d more", len(notes)-maxNotes)
			}
			warnings = append(warnings, fmt.Sprintf("tool %q: schema rewritten for %s: %s%s", t.Name, dialect, strings.Join(shown, "; "), more))
		}
		out = append(out, llm.ToolSpec{Name: wire, Description: t.Description, Parameters: params})
	}
	return out, m, warnings
}

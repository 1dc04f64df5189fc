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
// a rename, a dropped tool, and one line per distinct set of schema
// rewrites (the first 8 notes) naming the tools it applies to, so a
// server whose every tool loses additionalProperties says so once.
func PrepareTools(dialect Dialect, tools []llm.ToolSpec) ([]llm.ToolSpec, *NameMap, []string) {
	m := NewNameMap()
	var out []llm.ToolSpec
	var warnings []string
	seen := map[string]bool{}
	var rewrites []rewrite
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
			rewrites = addRewrite(rewrites, t.Name, strings.Join(shown, "; ")+more)
		}
		out = append(out, llm.ToolSpec{Name: wire, Description: t.Description, Parameters: params})
	}
	for _, r := range rewrites {
		warnings = append(warnings, fmt.Sprintf("%s: schema rewritten for %s: %s", toolList(r.tools), dialect, r.notes))
	}
	return out, m, warnings
}

// rewrite is one set of schema rewrite notes and the tools it applies to.
type rewrite struct {
	notes string
	tools []string
}

func addRewrite(rs []rewrite, tool, notes string) []rewrite {
	for i := range rs {
		if rs[i].notes == notes {
			rs[i].tools = append(rs[i].tools, tool)
			return rs
		}
	}
	return append(rs, rewrite{notes: notes, tools: []string{tool}})
}

// toolList names tools for a warning: `tool "a"`, or `3 tools ("a", "b",
// "c")`, the first few only when they are many.
func toolList(names []string) string {
	if len(names) == 1 {
		return fmt.Sprintf("tool %q", names[0])
	}
	const shown = 3
	var q []string
	for _, n := range names[:min(len(names), shown)] {
		q = append(q, fmt.Sprintf("%q", n))
	}
	list := strings.Join(q, ", ")
	if len(names) > shown {
		list += fmt.Sprintf(" and %d more", len(names)-shown)
	}
	return fmt.Sprintf("%d tools (%s)", len(names), list)
}

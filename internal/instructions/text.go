package instructions

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/rules"
)

// DefaultBudget is the byte budget of all instruction text in the system
// prompt together: four times ZERO.md's old budget (rules.DefaultProseBudget),
// room for a real CLAUDE.md with an import or two, about 4k tokens.
const DefaultBudget = rules.InstructionBudget

// NestedBudget is the byte budget of the text one Nested call adds to a
// tool result.
const NestedBudget = rules.DefaultProseBudget

// minShown is the least of a file worth showing before a cut marker: less
// and the file gets a one-line pointer instead.
const minShown = 16

// Text is the instruction text for the system prompt: each file under a
// heading naming it, cut to the budget. A ZERO.md alone gives exactly what
// Zero sent before this package existed ("Project rules (ZERO.md):\n" and
// the prose), so the prompt and its cache do not change.
func (s *Set) Text() string { return s.text }

// Budget is the byte budget Text was cut to.
func (s *Set) Budget() int { return s.opts.Budget }

// Files lists every file loaded, in prompt order, nested ones last.
func (s *Set) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]File(nil), s.files...)
}

// Notes are the imports skipped and the files that could not be read.
func (s *Set) Notes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.notes...)
}

// heading is the line that introduces f's text.
func heading(f File) string {
	switch {
	case f.Origin == Import:
		return fmt.Sprintf("Instructions imported by %s (%s):", f.ImportedBy, f.Name)
	case filepath.Base(f.Path) == rules.ProseFile && f.Origin == Project:
		return fmt.Sprintf("Project rules (%s):", f.Name)
	case f.Origin == User:
		return fmt.Sprintf("User instructions (%s):", f.Name)
	case f.Origin == Nested:
		return fmt.Sprintf("Instructions for this folder (%s):", f.Name)
	}
	return fmt.Sprintf("Project instructions (%s):", f.Name)
}

// assemble joins files (updating their Shown in s.files) within budget
// bytes of text. The file the budget runs out in is cut with a marker
// naming it; each later one leaves a one-line pointer instead (those lines
// are the only bytes past the budget).
func (s *Set) assemble(files []File, budget int) string {
	var parts []string
	left := budget
	for _, f := range files {
		if f.text == "" {
			continue
		}
		head := heading(f) + "\n"
		body := f.text
		if len(head)+len(body) > left {
			body = cut(body, left-len(head), f.Name)
		}
		if body == "" {
			parts = append(parts, fmt.Sprintf("[%s (%d bytes) not loaded: the instruction budget of %d bytes is spent; read_file %s for it]", f.Name, f.Bytes, budget, f.Name))
			left = 0
			continue
		}
		s.setShown(f.Path, len(body))
		parts = append(parts, head+body)
		left -= len(head) + len(body) + 2
	}
	return strings.Join(parts, "\n\n")
}

func (s *Set) setShown(path string, n int) {
	for i := range s.files {
		if s.files[i].Path == path {
			s.files[i].Shown = n
		}
	}
}

// cut shortens text to at most n bytes on a line boundary where one is
// near, ending with a marker that says how to read the rest (the shape of
// rules.Project's ZERO.md marker); "" when n leaves no room for the marker
// and a line of text.
func cut(text string, n int, name string) string {
	marker := fmt.Sprintf("\n[%s cut at %d of %d bytes; read_file %s for the rest]", name, n, len(text), name)
	at := n - len(marker)
	if at < minShown {
		return ""
	}
	for at > 0 && !utf8.RuneStart(text[at]) {
		at--
	}
	if nl := strings.LastIndexByte(text[:at], '\n'); nl > at/2 {
		at = nl
	}
	return text[:at] + marker
}

// Report lists every file loaded, with its origin, size and importer, and
// the notes: the text of /memory and the end of `zero context`.
func (s *Set) Report() string {
	files, notes := s.Files(), s.Notes()
	var b strings.Builder
	if len(files) == 0 {
		b.WriteString("no instruction files: Zero reads AGENTS.md, CLAUDE.md, CLAUDE.local.md and ZERO.md from the working directory up to the repository root, ~/.config/zero/AGENTS.md and ~/.claude/CLAUDE.md")
	} else {
		fmt.Fprintf(&b, "instruction files (%d of %d budget bytes in the system prompt):", s.promptBytes, s.opts.Budget)
		for _, f := range files {
			fmt.Fprintf(&b, "\n  %-8s %s  %d bytes", f.Origin, f.Name, f.Bytes)
			if f.Shown < f.Bytes {
				fmt.Fprintf(&b, ", %d shown", f.Shown)
			}
			if f.ImportedBy != "" {
				fmt.Fprintf(&b, "  (imported by %s)", f.ImportedBy)
			}
		}
	}
	for _, n := range notes {
		b.WriteString("\n  note: " + n)
	}
	return b.String()
}

// Package patch is the pure core of the apply_patch tool: it parses the
// patch format OpenAI's Codex models are trained to write ("*** Begin
// Patch", "*** Update File:", hunks of ' ', '-' and '+' lines; grammar in
// https://github.com/openai/codex/blob/main/codex-rs/apply-patch/apply_patch_tool_instructions.md)
// into file operations, and computes every file's new content in memory
// from a Source. It never writes (internal/tools commits a Plan through
// the workspace) and never decides whether a change is allowed.
//
// Hard lessons it encodes:
//   - Hunks are matched by package edit (ReplaceLines): exact lines, then
//     indentation and trailing blanks ignored, one place only; CRLF, a BOM
//     and a missing final newline survive as they do for edit_file.
//   - A patch cut short (no "*** End Patch", as when a model runs out of
//     output tokens) is refused whole rather than half applied.
//   - Models write near misses of the format: a blank context line without
//     its leading space, "@@ -3,7 +3,8 @@" headers from unified diffs,
//     several "@@ context" lines in a row, a heredoc or code fence around
//     the patch. Those are read as meant; anything else is an error naming
//     the patch line.
package patch

import (
	"fmt"
	"strings"
)

// Kind is what a file operation does.
type Kind int

// File operation kinds.
const (
	Add Kind = iota + 1
	Delete
	Update
)

func (k Kind) String() string {
	switch k {
	case Add:
		return "Add File"
	case Delete:
		return "Delete File"
	case Update:
		return "Update File"
	}
	return "?"
}

// FileOp is one "*** Add/Delete/Update File:" section of a patch.
type FileOp struct {
	Kind Kind
	Path string
	// MoveTo is the "*** Move to:" path of an Update, or "".
	MoveTo string
	// Content is an Add's text: its '+' lines, each ending in "\n".
	Content string
	// Hunks are an Update's changes, in file order.
	Hunks []Hunk
	// Line is the 1-based patch line of the section's header.
	Line int
}

// Hunk is one change of an Update: Old lines (context and removed) become
// New lines (context and added), searched for after the previous hunk.
type Hunk struct {
	// Contexts are the "@@ text" landmarks before the lines, in order:
	// each is looked for after the previous one.
	Contexts []string
	Old, New []string
	// Kept says for each New line the index of the Old line it repeats
	// (a context line), or -1 for an added line.
	Kept []int
	// AtEnd is set by "*** End of File": Old must end the file.
	AtEnd bool
	// Line is the 1-based patch line where the hunk starts.
	Line int
	// Header is the hunk's first line as written ("@@ def f():"), or ""
	// when it started without one.
	Header string
}

// ParseError is a patch that does not follow the format.
type ParseError struct {
	Line int // 1-based patch line, 0 for the patch as a whole
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch, line %d: %s", e.Line, e.Msg)
}

const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addMarker    = "*** Add File:"
	deleteMarker = "*** Delete File:"
	updateMarker = "*** Update File:"
	moveMarker   = "*** Move to:"
	eofMarker    = "*** End of File"
)

// Parse reads a whole patch. Errors are *ParseError.
func Parse(text string) ([]FileOp, error) {
	lines, base := body(text)
	if lines == nil {
		return nil, &ParseError{Msg: fmt.Sprintf("a patch starts with a line %q and ends with a line %q", beginMarker, endMarker)}
	}
	p := &parser{lines: lines, base: base}
	var ops []FileOp
	for p.i < len(p.lines) {
		if strings.TrimSpace(p.lines[p.i]) == "" {
			p.i++
			continue
		}
		op, err := p.fileOp()
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil, &ParseError{Msg: "the patch holds no file operation (*** Add File:, *** Delete File: or *** Update File:)"}
	}
	return ops, nil
}

// body returns the lines between the Begin and End markers (CR dropped)
// and the 1-based patch line of the first of them; nil when the markers
// are missing. A heredoc (<<'EOF' … EOF) or a code fence around the patch
// is dropped.
func body(text string) ([]string, int) {
	all := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := 0, len(all)-1
	for first <= last && strings.TrimSpace(all[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(all[last]) == "" {
		last--
	}
	if first < last && isWrapper(all[first]) && strings.TrimSpace(all[first+1]) == beginMarker {
		first++
	}
	if last > first && strings.TrimSpace(all[last-1]) == endMarker && isWrapperEnd(all[last]) {
		last--
	}
	if first >= last || strings.TrimSpace(all[first]) != beginMarker || strings.TrimSpace(all[last]) != endMarker {
		return nil, 0
	}
	return all[first+1 : last], first + 2
}

func isWrapper(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "```") || strings.HasPrefix(l, "<<") || strings.HasPrefix(l, "apply_patch <<")
}

func isWrapperEnd(l string) bool {
	l = strings.TrimSpace(l)
	return l == "```" || l == "EOF" || l == "'EOF'" || l == `"EOF"`
}

type parser struct {
	lines []string
	base  int // patch line number of lines[0]
	i     int
}

func (p *parser) lineNo() int { return p.base + p.i }

func (p *parser) errf(format string, a ...any) error {
	return &ParseError{Line: p.lineNo(), Msg: fmt.Sprintf(format, a...)}
}

// marker returns the text after prefix on a header line (blanks around
// the line and the path ignored).
func marker(line, prefix string) (string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, prefix) {
		return "", false
	}
	return strings.TrimSpace(t[len(prefix):]), true
}

func (p *parser) fileOp() (FileOp, error) {
	line := p.lines[p.i]
	op := FileOp{Line: p.lineNo()}
	var ok bool
	for _, m := range []struct {
		prefix string
		kind   Kind
	}{{addMarker, Add}, {deleteMarker, Delete}, {updateMarker, Update}} {
		if op.Path, ok = marker(line, m.prefix); ok {
			op.Kind = m.kind
			break
		}
	}
	if !ok {
		return op, p.errf("%q is not a file header; a section starts with \"*** Add File: PATH\", \"*** Delete File: PATH\" or \"*** Update File: PATH\"", line)
	}
	if op.Path == "" {
		return op, p.errf("%s needs a path", op.Kind)
	}
	p.i++
	switch op.Kind {
	case Add:
		return op, p.addBody(&op)
	case Delete:
		return op, p.deleteBody()
	}
	if p.i < len(p.lines) {
		if to, ok := marker(p.lines[p.i], moveMarker); ok {
			if to == "" {
				return op, p.errf("*** Move to: needs a path")
			}
			op.MoveTo = to
			p.i++
		}
	}
	if err := p.hunks(&op); err != nil {
		return op, err
	}
	if len(op.Hunks) == 0 && op.MoveTo == "" {
		return op, &ParseError{Line: op.Line, Msg: fmt.Sprintf("*** Update File: %s has no hunk; add lines after an @@ line", op.Path)}
	}
	return op, nil
}

// atHeader reports whether the current line starts the next section or
// ends the patch ("*** " but not "*** End of File").
func (p *parser) atHeader() bool {
	t := strings.TrimSpace(p.lines[p.i])
	return strings.HasPrefix(t, "*** ") && t != eofMarker
}

func (p *parser) addBody(op *FileOp) error {
	var sb strings.Builder
	blank := 0 // empty lines not yet known to be content
	for ; p.i < len(p.lines) && !p.atHeader(); p.i++ {
		l := p.lines[p.i]
		switch {
		case l == "":
			blank++
		case strings.HasPrefix(l, "+"):
			sb.WriteString(strings.Repeat("\n", blank))
			blank = 0
			sb.WriteString(l[1:])
			sb.WriteByte('\n')
		default:
			return p.errf("in *** Add File: %s every line starts with '+', got %q", op.Path, l)
		}
	}
	op.Content = sb.String()
	return nil
}

func (p *parser) deleteBody() error {
	for ; p.i < len(p.lines) && !p.atHeader(); p.i++ {
		if strings.TrimSpace(p.lines[p.i]) != "" {
			return p.errf("*** Delete File: takes no lines after it, got %q", p.lines[p.i])
		}
	}
	return nil
}

func (p *parser) hunks(op *FileOp) error {
	for {
		for p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i]) == "" {
			p.i++
		}
		if p.i >= len(p.lines) || p.atHeader() {
			return nil
		}
		h, err := p.hunk(op)
		if err != nil {
			return err
		}
		op.Hunks = append(op.Hunks, h)
	}
}

// hunk reads "@@" lines and the ' ', '-', '+' lines after them. A hunk
// ends at the next "@@", the next section or "*** End of File". Empty
// lines inside it are empty context lines (models drop the space); empty
// lines at its end separate hunks and are dropped.
func (p *parser) hunk(op *FileOp) (Hunk, error) {
	h := Hunk{Line: p.lineNo()}
	for p.i < len(p.lines) && strings.HasPrefix(strings.TrimSpace(p.lines[p.i]), "@@") {
		l := strings.TrimSpace(p.lines[p.i])
		if h.Header == "" {
			h.Header = l
		}
		if c := hunkContext(p.lines[p.i]); c != "" {
			h.Contexts = append(h.Contexts, c)
		}
		p.i++
	}
	if h.Header == "" && len(op.Hunks) > 0 {
		return h, p.errf("expected an @@ line to start the next hunk of %s, got %q", op.Path, p.lines[p.i])
	}
	blanks := 0
	flush := func() {
		for ; blanks > 0; blanks-- {
			h.context("")
		}
	}
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if strings.TrimSpace(l) == eofMarker {
			if len(h.Old)+len(h.New) == 0 {
				return h, p.errf("*** End of File ends a hunk that has no lines")
			}
			h.AtEnd = true
			p.i++
			break
		}
		if p.atHeader() || strings.HasPrefix(strings.TrimSpace(l), "@@") {
			break
		}
		switch {
		case l == "":
			blanks++
		case l[0] == ' ':
			flush()
			h.context(l[1:])
		case l[0] == '-':
			flush()
			h.Old = append(h.Old, l[1:])
		case l[0] == '+':
			flush()
			h.New, h.Kept = append(h.New, l[1:]), append(h.Kept, -1)
		case strings.HasPrefix(l, `\ `):
			// "\ No newline at end of file" from unified diffs: the final
			// newline is kept as the file has it anyway
		default:
			return h, p.errf("hunk line %q of %s must start with ' ' (context), '-' (remove) or '+' (add)", l, op.Path)
		}
	}
	if len(h.Old)+len(h.New) == 0 {
		return h, &ParseError{Line: h.Line, Msg: fmt.Sprintf("a hunk of %s has no lines", op.Path)}
	}
	return h, nil
}

func (h *Hunk) context(l string) {
	h.Kept = append(h.Kept, len(h.Old))
	h.Old, h.New = append(h.Old, l), append(h.New, l)
}

// hunkContext is the landmark text of an "@@" line: what follows "@@ ",
// or for a unified-diff header ("@@ -3,7 +3,8 @@ func f() {") what follows
// its ranges; "" when there is none.
func hunkContext(line string) string {
	rest := strings.TrimLeft(line, " \t")[2:]
	rest = strings.TrimPrefix(rest, " ")
	t := strings.TrimSpace(rest)
	if strings.HasPrefix(t, "-") {
		ranges, tail, _ := strings.Cut(t, "@@")
		if f := strings.Fields(ranges); len(f) == 2 && isRange(f[0], '-') && isRange(f[1], '+') {
			return strings.TrimSpace(tail)
		}
	}
	if t == "" {
		return ""
	}
	return rest
}

// isRange reports whether s is sign followed by N or N,M.
func isRange(s string, sign byte) bool {
	if len(s) < 2 || s[0] != sign {
		return false
	}
	digits := 0
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
			digits++
		case s[i] == ',' && digits > 0 && i+1 < len(s):
		default:
			return false
		}
	}
	return digits > 0
}

// Paths returns every path a patch names (sections and their Move to
// destinations), each once, in patch order: what a permission check must
// look at, since an apply_patch call has no single "path" argument.
func Paths(text string) ([]string, error) {
	ops, err := Parse(text)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, op := range ops {
		for _, p := range []string{op.Path, op.MoveTo} {
			if p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out, nil
}

package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/zero-agent/zero/internal/tools/edit"
)

// Source reads the files a patch names, by the paths its operations hold.
type Source interface {
	// ReadFile returns the file's bytes, or an error wrapping
	// fs.ErrNotExist when there is none.
	ReadFile(path string) ([]byte, error)
}

// File is one path's content before and after the whole patch.
type File struct {
	Path            string
	Before, After   []byte
	Existed, Exists bool
}

// Changed reports whether committing the patch must touch the file.
func (f *File) Changed() bool {
	return f.Existed != f.Exists || (f.Exists && !bytes.Equal(f.Before, f.After))
}

// Change is what one operation did, for display: an Update's Before and
// After are the file's bytes around that operation (MoveTo set when it
// moved); an Add has no Before unless it replaced a file, a Delete no After.
type Change struct {
	Op            Kind
	Path, MoveTo  string
	Before, After []byte
	Existed       bool
	// Indented counts hunks that matched only with indentation ignored
	// (their new lines re-indented to the file's style).
	Indented int
}

// Plan is a patch applied in memory: Files in the order the patch first
// names them, Changes one per operation.
type Plan struct {
	Files   []*File
	Changes []Change
}

// Error is a patch that parses but does not apply: it names the
// operation, and the hunk when one failed.
type Error struct {
	Op   Kind
	Path string
	// Hunk is the 1-based hunk of an Update that did not apply, 0 when the
	// operation failed as a whole; Header and First are its @@ line and
	// its first line, for the model to find it.
	Hunk          int
	Header, First string
	Reason        string
	// Near and NearText are the file's closest text when the matcher
	// found the hunk's first line but not the rest: its 1-based line and
	// the lines from there.
	Near     int
	NearText []string
}

func (e *Error) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "*** %s: %s", e.Op, e.Path)
	if e.Hunk > 0 {
		fmt.Fprintf(&sb, ", hunk %d", e.Hunk)
		var id []string
		if e.Header != "" {
			id = append(id, e.Header)
		}
		if e.First != "" {
			id = append(id, fmt.Sprintf("first line %q", e.First))
		}
		if len(id) > 0 {
			sb.WriteString(" (" + strings.Join(id, ", ") + ")")
		}
		sb.WriteString(" did not apply")
	}
	sb.WriteString(": " + e.Reason)
	if len(e.NearText) > 0 {
		fmt.Fprintf(&sb, "\nthe file at line %d reads:\n%s", e.Near, strings.Join(e.NearText, "\n"))
	}
	return sb.String()
}

// nearLines is how many lines of closest text an Error quotes at most.
const nearLines = 12

// Apply computes every file's new content without writing: operations
// run in order, each seeing the ones before (an Add then an Update of the
// same path works). Errors: *Error, or a Source error other than not
// found.
func Apply(ops []FileOp, src Source) (*Plan, error) {
	s := &state{src: src, byPath: map[string]*File{}}
	for _, op := range ops {
		if err := s.apply(op); err != nil {
			return nil, err
		}
	}
	return &Plan{Files: s.files, Changes: s.changes}, nil
}

type state struct {
	src     Source
	files   []*File
	byPath  map[string]*File
	changes []Change
}

// file returns path's state, reading it on first use.
func (s *state) file(path string) (*File, error) {
	if f, ok := s.byPath[path]; ok {
		return f, nil
	}
	data, err := s.src.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return nil, err
	}
	f := &File{Path: path, Before: data, After: data, Existed: err == nil, Exists: err == nil}
	s.files = append(s.files, f)
	s.byPath[path] = f
	return f, nil
}

func (s *state) apply(op FileOp) error {
	f, err := s.file(op.Path)
	if err != nil {
		return err
	}
	c := Change{Op: op.Kind, Path: op.Path, Before: f.After, Existed: f.Exists}
	switch op.Kind {
	case Add:
		f.After, f.Exists = []byte(op.Content), true
	case Delete:
		if !f.Exists {
			return &Error{Op: op.Kind, Path: op.Path, Reason: "the file does not exist"}
		}
		f.After, f.Exists = nil, false
	case Update:
		if !f.Exists {
			return &Error{Op: op.Kind, Path: op.Path, Reason: "the file does not exist; create it with *** Add File:"}
		}
		out, indented, err := applyHunks(f.After, op)
		if err != nil {
			return err
		}
		c.Indented = indented
		if op.MoveTo != "" && op.MoveTo != op.Path {
			dst, err := s.file(op.MoveTo)
			if err != nil {
				return err
			}
			if dst.Exists {
				return &Error{Op: op.Kind, Path: op.Path, Reason: fmt.Sprintf("*** Move to: %s already exists; delete it first with *** Delete File: if it is to be replaced", op.MoveTo)}
			}
			c.MoveTo = op.MoveTo
			f.After, f.Exists = nil, false
			f = dst
		}
		f.After, f.Exists = out, true
	}
	c.After = f.After
	s.changes = append(s.changes, c)
	return nil
}

// applyHunks applies op's hunks in order to content, each searched for
// after the lines the previous one produced.
func applyHunks(content []byte, op FileOp) ([]byte, int, error) {
	from, indented := 0, 0
	for i, h := range op.Hunks {
		out, next, err := applyHunk(content, from, h)
		if err != nil {
			e := &Error{Op: op.Kind, Path: op.Path, Hunk: i + 1, Header: h.Header, First: firstLine(h), Reason: reason(err, from)}
			var nf *edit.LinesNotFoundError
			if errors.As(err, &nf) && nf.Near > 0 {
				e.Near, e.NearText = nf.Near, textAt(content, nf.Near, min(max(len(h.Old), 1), nearLines))
			}
			return nil, 0, e
		}
		if out.Indented {
			indented++
		}
		content, from = out.Content, next
	}
	return content, indented, nil
}

// applyHunk finds h's landmarks, then its lines, at or after line from
// (0-based); it returns the edit and the line after the new lines. A hunk
// with no old lines is inserted after its last landmark, or appended at
// the end of the file when it has none.
func applyHunk(content []byte, from int, h Hunk) (edit.Outcome, int, error) {
	for _, c := range h.Contexts {
		i, ok := edit.FindLine(content, from, c)
		if !ok {
			return edit.Outcome{}, 0, fmt.Errorf("its @@ line %q was not found", strings.TrimSpace(c))
		}
		from = i + 1
	}
	oldL, newL, kept := h.Old, h.New, h.Kept
	atEnd := h.AtEnd || (len(oldL) == 0 && len(h.Contexts) == 0)
	out, err := edit.ReplaceLines(content, from, oldL, newL, kept, atEnd)
	var nf *edit.LinesNotFoundError
	if errors.As(err, &nf) && len(oldL) > 1 && oldL[len(oldL)-1] == "" {
		// a last empty old line often stands for the file's final newline
		oldL = oldL[:len(oldL)-1]
		if len(newL) > 0 && newL[len(newL)-1] == "" {
			newL, kept = newL[:len(newL)-1], kept[:len(newL)-1]
		}
		if o, err2 := edit.ReplaceLines(content, from, oldL, newL, kept, atEnd); err2 == nil {
			out, err = o, nil
		}
	}
	if err != nil {
		return edit.Outcome{}, 0, err
	}
	return out, out.Lines[0] - 1 + len(newL), nil
}

// reason words a matcher error for the model, from being the 0-based line
// the search started at.
func reason(err error, from int) string {
	var nf *edit.LinesNotFoundError
	var amb *edit.AmbiguousError
	after := ""
	if from > 0 {
		after = fmt.Sprintf(" after line %d (where the previous hunk or @@ line ended)", from)
	}
	switch {
	case errors.As(err, &nf):
		msg := "its context and removed lines were not found" + after
		if nf.AtEnd {
			msg = "its context and removed lines do not end the file (*** End of File)"
		}
		if nf.Near > 0 {
			msg += "; its first line appears at line " + fmt.Sprint(nf.Near) + " but the lines after it differ"
		}
		return msg + "; read the file again and copy the lines exactly"
	case errors.As(err, &amb):
		ls := make([]string, len(amb.Lines))
		for i, l := range amb.Lines {
			ls[i] = fmt.Sprint(l)
		}
		how := ""
		if amb.Indented {
			how = " when indentation is ignored"
		}
		return fmt.Sprintf("its lines match %d places%s%s (lines %s); add context lines or an @@ line naming the enclosing function or class", amb.Count, how, after, strings.Join(ls, ", "))
	}
	return err.Error()
}

func firstLine(h Hunk) string {
	if len(h.Old) > 0 {
		return h.Old[0]
	}
	if len(h.New) > 0 {
		return h.New[0]
	}
	return ""
}

// textAt returns up to n lines of content from 1-based line, as read_file
// shows them (LF, no BOM).
func textAt(content []byte, line, n int) []string {
	text := strings.ReplaceAll(strings.TrimPrefix(string(content), "\ufeff"), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	return lines[line-1 : min(len(lines), line-1+n)]
}

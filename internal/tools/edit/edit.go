// Package edit is the pure string-replacement core of the edit_file tool:
// find old_string in a file's bytes and replace it while every byte outside
// the replaced span stays identical. It owns matching and re-encoding only;
// it never touches the file system (internal/tools does) and never decides
// whether an edit is allowed.
//
// Hard lessons it encodes:
//   - Models see files through read_file, which shows LF, no BOM; files on
//     disk may have CRLF, mixed endings, a BOM and no final newline. Matching
//     runs on a view with CRLF folded to LF and the BOM dropped, and each
//     match is mapped back to original byte offsets (B13, pi#355).
//   - Replaced text takes the line endings of the span it replaces, line by
//     line (B13 mixed.txt).
//   - A match must be unique unless replace_all is set; overlapping
//     occurrences count separately (B15 "\n\n" in "a\n\n\nb").
//   - When the exact search finds nothing, a fallback compares line by line
//     with indentation normalised (tabs vs spaces, B14) and re-indents
//     new_string into the file's style. The fallback needs a unique match
//     even with replace_all: it must never fail open into several sites.
package edit

import (
	"bytes"
	"fmt"
	"strings"
)

// Outcome describes an applied edit.
type Outcome struct {
	// Content is the whole file after the edit.
	Content []byte
	// Lines are the 1-based line numbers (in the original file) where each
	// replaced span starts.
	Lines []int
	// Indented is true when the match came from the indentation-normalised
	// fallback and new_string was re-indented to the file's style.
	Indented bool
}

// NotFoundError means old_string occurs nowhere, not even with
// indentation normalised.
type NotFoundError struct {
	// Hint, when set, names a near match the model can act on.
	Hint string
}

func (e *NotFoundError) Error() string {
	msg := "old_string not found in the file; read the file again and copy the text exactly (whitespace included)"
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// AmbiguousError means old_string matched Count places (overlapping starts
// counted) and the edit needs a unique one.
type AmbiguousError struct {
	Count int
	// Lines are the distinct 1-based lines where matches start.
	Lines []int
	// Indented is true when the matches came from the indentation fallback.
	Indented bool
}

func (e *AmbiguousError) Error() string {
	ls := make([]string, len(e.Lines))
	for i, l := range e.Lines {
		ls[i] = fmt.Sprint(l)
	}
	word := "lines"
	if len(ls) == 1 {
		word = "line"
	}
	if e.Indented {
		return fmt.Sprintf("old_string matches %d places when indentation is ignored (%s %s) and none exactly; add surrounding lines and copy the indentation exactly", e.Count, word, strings.Join(ls, ", "))
	}
	return fmt.Sprintf("old_string matches %d places (%s %s); add surrounding lines or set replace_all", e.Count, word, strings.Join(ls, ", "))
}

// ErrEmptyOld and ErrNoChange are argument faults the model can fix.
var (
	ErrEmptyOld = fmt.Errorf("old_string is empty; to create or overwrite a whole file use write_file")
	ErrNoChange = fmt.Errorf("old_string and new_string are identical; nothing to change")
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Apply replaces oldS with newS in content. Without replaceAll exactly one
// occurrence must exist; with it every non-overlapping occurrence (left to
// right) is replaced. Errors: ErrEmptyOld, ErrNoChange, *NotFoundError,
// *AmbiguousError; content is never modified in place.
func Apply(content []byte, oldS, newS string, replaceAll bool) (Outcome, error) {
	head, body := splitBOM(content)
	oldN := string(foldCRLF([]byte(strings.TrimPrefix(oldS, string(bom)))))
	newN := string(foldCRLF([]byte(strings.TrimPrefix(newS, string(bom)))))
	if oldN == "" {
		return Outcome{}, ErrEmptyOld
	}
	if oldN == newN {
		return Outcome{}, ErrNoChange
	}
	v := newView(body)
	starts := allStarts(v.text, oldN)
	var spans []span
	indented := false
	switch {
	case len(starts) == 1 || (len(starts) > 1 && replaceAll):
		end := -1
		for _, s := range starts {
			if s < end {
				continue // overlaps the previous replaced span
			}
			spans = append(spans, span{start: s, end: s + len(oldN), repl: newN})
			end = s + len(oldN)
		}
	case len(starts) > 1:
		return Outcome{}, &AmbiguousError{Count: len(starts), Lines: v.lines(starts)}
	default:
		fs, err := indentMatch(v.text, oldN, newN)
		if err != nil {
			return Outcome{}, err
		}
		spans, indented = fs, true
	}
	out := make([]byte, 0, len(content)+len(newS)*len(spans))
	out = append(out, head...)
	prev := 0
	var at []int
	for _, sp := range spans {
		bs, be := v.orig[sp.start], v.orig[sp.end]
		out = append(out, body[prev:bs]...)
		out = append(out, encodeEOL(sp.repl, spanEndings(body[bs:be]), v.dominant)...)
		prev = be
		at = append(at, sp.start)
	}
	out = append(out, body[prev:]...)
	return Outcome{Content: out, Lines: v.lineNumbers(at), Indented: indented}, nil
}

// span is a replacement over view offsets [start, end).
type span struct {
	start, end int
	repl       string // LF-only replacement text
}

func splitBOM(b []byte) (head, body []byte) {
	if bytes.HasPrefix(b, bom) {
		return b[:3], b[3:]
	}
	return nil, b
}

// view is the file as the model sees it: CRLF folded to LF. orig maps each
// view offset (and len(text)) to its offset in the original body.
type view struct {
	text     string
	orig     []int
	dominant string // "\r\n" when most line endings are CRLF, else "\n"
}

func newView(body []byte) view {
	text := make([]byte, 0, len(body))
	orig := make([]int, 0, len(body)+1)
	crlf, lf := 0, 0
	for i := 0; i < len(body); i++ {
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			orig = append(orig, i)
			text = append(text, '\n')
			i++
			crlf++
			continue
		}
		if body[i] == '\n' {
			lf++
		}
		orig = append(orig, i)
		text = append(text, body[i])
	}
	orig = append(orig, len(body))
	dom := "\n"
	if crlf > lf {
		dom = "\r\n"
	}
	return view{text: string(text), orig: orig, dominant: dom}
}

// lineNumbers returns the 1-based line of each view offset (offsets sorted).
func (v view) lineNumbers(offs []int) []int {
	out := make([]int, len(offs))
	line, pos := 1, 0
	for i, o := range offs {
		line += strings.Count(v.text[pos:o], "\n")
		pos = o
		out[i] = line
	}
	return out
}

// lines is lineNumbers with repeats removed.
func (v view) lines(offs []int) []int {
	var out []int
	for _, l := range v.lineNumbers(offs) {
		if len(out) == 0 || out[len(out)-1] != l {
			out = append(out, l)
		}
	}
	return out
}

// allStarts returns every offset where sub starts in s, overlapping ones
// included (advance by one byte, B15).
func allStarts(s, sub string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + 1
		if i > len(s) {
			return out
		}
	}
}

func foldCRLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// spanEndings lists the line endings inside an original span, in order.
func spanEndings(b []byte) []string {
	var out []string
	for i, c := range b {
		if c == '\n' {
			if i > 0 && b[i-1] == '\r' {
				out = append(out, "\r\n")
			} else {
				out = append(out, "\n")
			}
		}
	}
	return out
}

// encodeEOL writes the LF-only text s with its k-th newline taking the k-th
// ending of the replaced span; newlines beyond those take the span's last
// ending, or the file's dominant one when the span had none.
func encodeEOL(s string, endings []string, dominant string) []byte {
	out := make([]byte, 0, len(s)+8)
	k := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' {
			out = append(out, s[i])
			continue
		}
		e := dominant
		switch {
		case k < len(endings):
			e = endings[k]
		case len(endings) > 0:
			e = endings[len(endings)-1]
		}
		out = append(out, e...)
		k++
	}
	return out
}

package edit

import (
	"strings"
)

// This file is the whole-line entry point of the matcher, for patch hunks
// (internal/tools/patch): a hunk names lines, not a substring, so a match
// must start and end on line boundaries. The ladder is Apply's: exact
// lines first, then the indentation fallback (indentMatch, which also
// ignores trailing blanks); bytes outside the replaced lines, CRLF, mixed
// endings, a BOM and the presence or absence of the final newline are kept
// the same way.

// LinesNotFoundError means old's lines occur nowhere at or after the line
// the search started from, not even with indentation ignored.
type LinesNotFoundError struct {
	// Near is the 1-based line where old's first non-blank line appears
	// (blanks ignored) at or after the start, when it does; else 0.
	Near int
	// AtEnd is set when the lines had to end the file.
	AtEnd bool
}

func (e *LinesNotFoundError) Error() string {
	msg := "lines not found"
	if e.AtEnd {
		msg = "lines not found at the end of the file"
	}
	if e.Near > 0 {
		msg += "; the first of them appears at line " + itoa(e.Near) + " but the lines after it differ"
	}
	return msg
}

// ReplaceLines replaces the whole lines old (LF-free strings) with new in
// content, searching at or after the 0-based line from; with atEnd the
// lines must end the file. old must match one place only (exactly, or else
// with indentation ignored, new then re-indented to the file's style).
// With old empty, new is inserted before line from, or at the end of the
// file with atEnd. Outcome.Lines holds the 1-based line where the replaced
// lines started. keep, when set, says for each new line which old line it
// repeats (a hunk's context line) or -1: after a match with indentation
// ignored, those lines stay as the file has them. Errors:
// *LinesNotFoundError, *AmbiguousError (line numbers of the whole file).
func ReplaceLines(content []byte, from int, old, new []string, keep []int, atEnd bool) (Outcome, error) {
	head, body := splitBOM(content)
	v := newView(body)
	lines, starts, finalNL := splitLines(v.text)
	from = max(0, min(from, len(lines)))
	if len(old) == 0 {
		at := from
		if atEnd {
			at = len(lines)
		}
		return v.splice(head, body, lines, starts, finalNL, at, 0, new, false), nil
	}
	lo, hi := from, len(lines)-len(old)
	if atEnd {
		lo = max(lo, hi)
	}
	var hits []int
	for i := lo; i <= hi; i++ {
		if equalLines(lines[i:i+len(old)], old) {
			hits = append(hits, i)
		}
	}
	switch {
	case len(hits) == 1:
		return v.splice(head, body, lines, starts, finalNL, hits[0], len(old), new, false), nil
	case len(hits) > 1:
		return Outcome{}, &AmbiguousError{Count: len(hits), Lines: plusOne(hits)}
	case lo > hi:
		return Outcome{}, &LinesNotFoundError{Near: nearLine(lines, from, old), AtEnd: atEnd}
	}
	// The fallback sees only lines[lo:], joined without a final newline,
	// so its windows are whole lines of the file.
	region := strings.Join(lines[lo:], "\n")
	spans, err := indentMatch(region, strings.Join(old, "\n"), strings.Join(new, "\n"))
	if amb, ok := err.(*AmbiguousError); ok {
		for i := range amb.Lines {
			amb.Lines[i] += lo
		}
		return Outcome{}, amb
	}
	var at int
	if err == nil {
		at = lo + strings.Count(region[:spans[0].start], "\n")
	}
	if err != nil || !blankEqual(lines[at:at+len(old)], old) {
		return Outcome{}, &LinesNotFoundError{Near: nearLine(lines, from, old), AtEnd: atEnd}
	}
	repl := new
	if len(new) > 0 {
		repl = strings.Split(spans[0].repl, "\n")
	}
	for j, k := range keep {
		if j < len(repl) && k >= 0 && k < len(old) {
			repl[j] = lines[at+k]
		}
	}
	return v.splice(head, body, lines, starts, finalNL, at, len(old), repl, true), nil
}

// FindLine returns the 0-based index of the first line at or after from
// that equals line, or else equals it with blanks at both ends ignored
// (the ladder's first two rungs for a single landmark line such as a
// hunk's "@@ func f() {"); ok is false when no line does.
func FindLine(content []byte, from int, line string) (int, bool) {
	_, body := splitBOM(content)
	lines, _, _ := splitLines(newView(body).text)
	for pass := 0; pass < 2; pass++ {
		for i := max(0, from); i < len(lines); i++ {
			if lines[i] == line || (pass == 1 && strings.Trim(lines[i], " \t") == strings.Trim(line, " \t")) {
				return i, true
			}
		}
	}
	return 0, false
}

// splitLines cuts LF text into its lines (no terminators), the view offset
// where each starts (plus one past the end), and whether the last line
// ends with a newline. An empty text has no lines and counts as ending
// with one, so lines added to it end with a newline.
func splitLines(text string) (lines []string, starts []int, finalNL bool) {
	lines = strings.Split(text, "\n")
	finalNL = lines[len(lines)-1] == ""
	if finalNL {
		lines = lines[:len(lines)-1]
	}
	starts = make([]int, len(lines)+1)
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l) + 1
	}
	starts[len(lines)] = min(off, len(text))
	return lines, starts, finalNL
}

// splice replaces n lines starting at line at with repl and maps the
// result back to the original bytes (endings per line as Apply does).
func (v view) splice(head, body []byte, lines []string, starts []int, finalNL bool, at, n int, repl []string, indented bool) Outcome {
	s, e := starts[at], starts[at+n]
	reachesEnd := at+n == len(lines)
	var text string
	switch {
	case len(repl) == 0:
		if reachesEnd && !finalNL && at > 0 && n > 0 {
			s-- // drop the newline before, so the file still ends without one
		}
	case reachesEnd && !finalNL && n == 0 && len(lines) > 0:
		text = "\n" + strings.Join(repl, "\n") // appended after a last line without newline
	case reachesEnd && !finalNL:
		text = strings.Join(repl, "\n")
	default:
		text = strings.Join(repl, "\n") + "\n"
	}
	bs, be := v.orig[s], v.orig[e]
	out := make([]byte, 0, len(head)+len(body)+len(text)+8)
	out = append(out, head...)
	out = append(out, body[:bs]...)
	out = append(out, encodeEOL(text, spanEndings(body[bs:be]), v.dominant)...)
	out = append(out, body[be:]...)
	return Outcome{Content: out, Lines: []int{at + 1}, Indented: indented}
}

// blankEqual re-checks a fallback window line by line with blanks at both
// ends ignored (indentMatch drops a trailing blank line of old unchecked).
func blankEqual(a, b []string) bool {
	for i := range a {
		if strings.Trim(a[i], " \t") != strings.Trim(b[i], " \t") {
			return false
		}
	}
	return true
}

func equalLines(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// nearLine is the 1-based line at or after from where old's first
// non-blank line appears with blanks ignored, or 0.
func nearLine(lines []string, from int, old []string) int {
	first := ""
	for _, l := range old {
		if first = strings.Trim(l, " \t"); first != "" {
			break
		}
	}
	if first == "" {
		return 0
	}
	for i := from; i < len(lines); i++ {
		if strings.Trim(lines[i], " \t") == first {
			return i + 1
		}
	}
	return 0
}

func plusOne(ns []int) []int {
	out := make([]int, len(ns))
	for i, n := range ns {
		out[i] = n + 1
	}
	return out
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

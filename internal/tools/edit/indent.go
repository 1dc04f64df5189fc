package edit

import (
	"strconv"
	"strings"
)

// indentMatch is the fallback used when old (LF-only) occurs nowhere in
// text: it compares whole lines with leading and trailing blanks ignored,
// accepts a window only if the indentation depth differs from old's by the
// same number of levels on every non-blank line, and requires the window to
// be unique. The replacement is new re-indented into the file's style (tab
// or its space unit), shifted by that level difference (B14).
func indentMatch(text, oldS, newS string) ([]span, error) {
	file := strings.Split(text, "\n")
	starts := make([]int, len(file))
	for i, off := 0, 0; i < len(file); i++ {
		starts[i] = off
		off += len(file[i]) + 1
	}
	old := strings.Split(oldS, "\n")
	trailingNL := len(old) > 1 && old[len(old)-1] == ""
	if trailingNL {
		old = old[:len(old)-1]
	}
	if strings.Trim(oldS, " \t\n") == "" {
		return nil, &NotFoundError{}
	}
	fileUnit := spaceUnit(file, 4)
	oldUnit := spaceUnit(old, spaceUnit(strings.Split(newS, "\n"), fileUnit))

	var hits []int
	var shift int
	for i := 0; i+len(old) <= len(file); i++ {
		if trailingNL && i+len(old) >= len(file) {
			break // old ends with a newline the window's last line lacks
		}
		d, ok := windowShift(file[i:i+len(old)], old, fileUnit, oldUnit)
		if ok {
			hits = append(hits, i)
			shift = d
		}
	}
	switch {
	case len(hits) == 0:
		return nil, &NotFoundError{Hint: firstLineHint(file, old)}
	case len(hits) > 1:
		lines := make([]int, len(hits))
		for i, h := range hits {
			lines[i] = h + 1
		}
		return nil, &AmbiguousError{Count: len(hits), Lines: lines, Indented: true}
	}
	i := hits[0]
	last := i + len(old) - 1
	end := starts[last] + len(file[last])
	if trailingNL {
		end++
	}
	unit := indentString(file, file[i:last+1], old, fileUnit, oldUnit)
	return []span{{start: starts[i], end: end, repl: reindent(newS, oldUnit, shift, unit)}}, nil
}

// windowShift reports whether window matches old line for line with
// blanks trimmed, and the constant level difference between them.
func windowShift(window, old []string, fileUnit, oldUnit int) (int, bool) {
	shift, seen := 0, false
	for j := range old {
		fl, ol := window[j], old[j]
		fBody, oBody := strings.Trim(fl, " \t"), strings.Trim(ol, " \t")
		if fBody != oBody {
			return 0, false
		}
		if fBody == "" {
			continue
		}
		fLev, _ := level(lead(fl), fileUnit)
		oLev, _ := level(lead(ol), oldUnit)
		if !seen {
			shift, seen = fLev-oLev, true
		} else if fLev-oLev != shift {
			return 0, false
		}
	}
	return shift, true
}

// lead returns the leading run of spaces and tabs.
func lead(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// level counts indentation levels: one per tab, one per unit spaces; rem
// is the spaces left over (alignment).
func level(ws string, unit int) (lev, rem int) {
	spaces := 0
	for _, c := range ws {
		if c == '\t' {
			lev++
		} else {
			spaces++
		}
	}
	return lev + spaces/unit, spaces % unit
}

// spaceUnit learns the indent unit of lines from the shallowest line
// indented with spaces only; block-comment continuations (" * x") are
// alignment, not indentation, and are skipped. def is returned when no line
// is space-indented.
func spaceUnit(lines []string, def int) int {
	unit := 0
	for _, l := range lines {
		ws := lead(l)
		if ws == "" || strings.Contains(ws, "\t") || len(ws) == len(l) {
			continue
		}
		if len(ws) == 1 && strings.HasPrefix(l[1:], "*") {
			continue
		}
		if unit == 0 || len(ws) < unit {
			unit = len(ws)
		}
	}
	if unit == 0 {
		return def
	}
	return unit
}

// indentString picks one indent level in the file's style: the style of
// the matched lines when they are indented, else the style most lines of the
// file use, else old's own style. Styles are never mixed.
func indentString(file, window, old []string, fileUnit, oldUnit int) string {
	tabs, spaces := 0, 0
	count := func(lines []string) {
		for _, l := range lines {
			ws := lead(l)
			if ws == "" || len(ws) == len(l) {
				continue
			}
			if ws[0] == '\t' {
				tabs++
			} else {
				spaces++
			}
		}
	}
	for i, set := range [][]string{window, file, old} {
		count(set)
		switch {
		case tabs > spaces:
			return "\t"
		case spaces > tabs && i == 2:
			return strings.Repeat(" ", oldUnit)
		case spaces > tabs:
			return strings.Repeat(" ", fileUnit)
		}
		tabs, spaces = 0, 0
	}
	return "\t"
}

// reindent rewrites each line of s from old's indentation (unit spaces or
// tabs per level) to unitStr per level, shifted by shift levels. Blank lines
// become empty; alignment spaces beyond whole levels are kept.
func reindent(s string, unit, shift int, unitStr string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		body := strings.TrimLeft(l, " \t")
		if strings.TrimRight(body, " \t") == "" {
			lines[i] = ""
			continue
		}
		lev, rem := level(lead(l), unit)
		lev += shift
		if lev < 0 {
			lev = 0
		}
		lines[i] = strings.Repeat(unitStr, lev) + strings.Repeat(" ", rem) + body
	}
	return strings.Join(lines, "\n")
}

// firstLineHint points at where old's first non-blank line appears, so the
// model can re-read that region.
func firstLineHint(file, old []string) string {
	var first string
	for _, l := range old {
		if first = strings.Trim(l, " \t"); first != "" {
			break
		}
	}
	for i, l := range file {
		if strings.Trim(l, " \t") == first {
			return "its first line appears at line " + strconv.Itoa(i+1) + " but the following lines differ; read that region again"
		}
	}
	return ""
}

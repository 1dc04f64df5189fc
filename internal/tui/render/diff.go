package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// Diff renders a unified diff (as go-udiff and `diff -u` write it) with
// old/new line numbers in a gutter: removed lines red with the old number,
// added lines green with the new number, context dim. File headers are
// dropped; hunk headers become a dim separator. A line longer than width
// wraps, its continuation rows indented under its text, so nothing of a
// change is hidden (a permission prompt must show all of what it asks to
// approve).
func Diff(diff string, width int) []string {
	var out []string
	oldN, newN := 0, 0
	gutter := 4
	for _, raw := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		line := sanitize.Text(raw)
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "index "):
			continue
		case strings.HasPrefix(line, "@@"):
			o, n, ok := parseHunk(line)
			if ok {
				oldN, newN = o, n
				gutter = max(gutter, len(strconv.Itoa(max(o, n)+100)))
			}
			if len(out) > 0 {
				out = append(out, style.Dim.Render(strings.Repeat(" ", gutter)+" ⋮"))
			}
			continue
		case strings.HasPrefix(line, "\\"):
			continue // "\ No newline at end of file"
		}
		var num, mark string
		st := style.Dim
		switch {
		case strings.HasPrefix(line, "-"):
			num, mark, st = strconv.Itoa(oldN), "-", style.Removed
			oldN++
		case strings.HasPrefix(line, "+"):
			num, mark, st = strconv.Itoa(newN), "+", style.Added
			newN++
		default:
			num, mark = strconv.Itoa(newN), " "
			oldN++
			newN++
		}
		text := line
		if len(text) > 0 {
			text = text[1:]
		}
		text = sanitize.ExpandTabs(text)
		lead := fmt.Sprintf("%*s %s ", gutter, num, mark)
		room := width - cells.Width(lead)
		if room < 8 { // too narrow to wrap under the gutter: cut as before
			out = append(out, st.Render(cells.Truncate(lead+text, width, "…")))
			continue
		}
		for i, r := range cells.Hardwrap(text, room) {
			if i > 0 {
				lead = strings.Repeat(" ", gutter) + " " + mark + " "
			}
			out = append(out, st.Render(lead+r))
		}
	}
	return out
}

// parseHunk reads "@@ -a,b +c,d @@" and returns the first old and new line.
func parseHunk(h string) (oldStart, newStart int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 {
		return 0, 0, false
	}
	num := func(s, sign string) (int, bool) {
		s, found := strings.CutPrefix(s, sign)
		if !found {
			return 0, false
		}
		s, _, _ = strings.Cut(s, ",")
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	o, ok1 := num(f[1], "-")
	n, ok2 := num(f[2], "+")
	return o, n, ok1 && ok2
}

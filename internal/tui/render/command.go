package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// Display of commands the user must judge (a permission prompt, a tool
// card): nothing in the command may hide from view. Padding that would
// push a dangerous part off the edge and blank lines that would push it
// off the screen are shown as counted markers instead.
const (
	// MaxBlankRun is the longest run of spaces or tabs shown as is; longer
	// runs become BlankMark followed by "×N" (N in runes).
	MaxBlankRun = 4
	// BlankMark stands for a collapsed run of spaces and tabs.
	BlankMark = "␣"
	// NewlineMark stands for a line break in one-line form, and for a run
	// of empty lines ("⏎×N") in either form.
	NewlineMark = "⏎"
)

// CommandLine is one display line of a command: No is its 1-based line
// number in the original text (0 for a marker standing for a run of empty
// lines).
type CommandLine struct {
	No   int
	Text string
}

// CommandLines splits an already sanitised command (sanitize.Visible or
// Text; tabs allowed) into display lines: runs of more than MaxBlankRun
// spaces/tabs collapse to "␣×N", and a run of two or more empty (or
// blank-only) lines becomes one marker line "⏎×N empty lines".
func CommandLines(cmd string) []CommandLine {
	var out []CommandLine
	raw := strings.Split(cmd, "\n")
	for i := 0; i < len(raw); i++ {
		if strings.TrimSpace(raw[i]) == "" {
			j := i
			for j < len(raw) && strings.TrimSpace(raw[j]) == "" {
				j++
			}
			if n := j - i; n > 1 {
				out = append(out, CommandLine{Text: NewlineMark + "×" + strconv.Itoa(n) + " empty lines"})
				i = j - 1
				continue
			}
		}
		out = append(out, CommandLine{No: i + 1, Text: CollapseBlanks(raw[i])})
	}
	return out
}

// CollapseBlanks replaces each run of more than MaxBlankRun spaces or tabs
// in s with "␣×N" (N runes) and expands the shorter runs' tabs to spaces.
func CollapseBlanks(s string) string {
	if !strings.ContainsAny(s, " \t") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if rs[i] != ' ' && rs[i] != '\t' {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && (rs[j] == ' ' || rs[j] == '\t') {
			j++
		}
		if n := j - i; n > MaxBlankRun {
			b.WriteString(" " + BlankMark + "×" + strconv.Itoa(n) + " ")
		} else {
			b.WriteString(strings.Repeat(" ", n))
		}
		i = j
	}
	return b.String()
}

// CommandOneLine is the one-line form of an already sanitised command for
// a tool card: blank runs collapsed, each line break shown as " ⏎ " and a
// run of empty lines as " ⏎×N ".
func CommandOneLine(cmd string) string {
	if !strings.ContainsAny(cmd, "\n\t ") {
		return cmd
	}
	var b strings.Builder
	for i, l := range CommandLines(strings.TrimRight(cmd, "\n")) {
		if i > 0 {
			b.WriteString(" " + NewlineMark + " ")
		}
		if l.No == 0 {
			b.WriteString(strings.TrimSuffix(l.Text, " empty lines"))
		} else {
			b.WriteString(l.Text)
		}
	}
	return b.String()
}

// Middle fits s into width cells by keeping its head and its tail around a
// marker "…(N cells hidden)…": unlike a plain truncation the end of s stays
// visible. s shorter than width is returned as is. Invalid UTF-8 is
// shown as U+FFFD first: cut in two, its stray bytes could join the
// marker's into a wider character (a fuzz finding, testdata/fuzz).
func Middle(s string, width int) string {
	w := cells.Width(s)
	if w > width && !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		w = cells.Width(s)
	}
	if w <= width {
		return s
	}
	mark := func(n int) string { return "…(" + strconv.Itoa(n) + " hidden)…" }
	room := width - cells.Width(mark(w))
	if room < 2 {
		return cells.Truncate(s, width, "…")
	}
	head := room * 3 / 5
	tail := room - head
	// a wide character across either cut is left out whole
	headS, tailS := ansi.Truncate(s, head, ""), ansi.TruncateLeft(s, w-tail, "")
	if cells.Width(tailS) > tail {
		tailS = ansi.TruncateLeft(s, w-tail+1, "")
	}
	return headS + mark(w-cells.Width(headS)-cells.Width(tailS)) + tailS
}

// CommandBlock renders a sanitised command for a permission prompt in at
// most room rows of width cells (room < 3 counts as 3): numbered lines
// (when there is more than one) wrapped not cut, and when they do not fit,
// the first and last rows around a line saying how many rows are hidden
// and that v shows them all. hidden is that number of rows (0: all shown).
func CommandBlock(cmd string, width, room int) (rows []string, hidden int) {
	ls := CommandLines(cmd)
	numbered := len(ls) > 1
	numW := len(strconv.Itoa(len(strings.Split(cmd, "\n"))))
	for i, l := range ls {
		lead := "$ "
		if numbered {
			n := strings.Repeat(" ", numW)
			if l.No > 0 {
				n = strconv.Itoa(l.No)
				n = strings.Repeat(" ", numW-len(n)) + n
			}
			lead = n + " │ "
		} else if i > 0 {
			lead = "  "
		}
		pad := strings.Repeat(" ", cells.Width(lead))
		for j, r := range cells.Hardwrap(l.Text, max(width-cells.Width(lead), 8)) {
			if j > 0 {
				lead = pad
			}
			rows = append(rows, lead+r)
		}
	}
	if numbered {
		head := "$ " + strconv.Itoa(strings.Count(cmd, "\n")+1) + " lines, " + Bytes(len(cmd)) + ":"
		rows = append([]string{head}, rows...)
	}
	room = max(room, 3)
	if len(rows) <= room {
		return rows, 0
	}
	keep := room - 1
	top := (keep + 1) / 2
	bottom := keep - top
	hidden = len(rows) - keep
	out := append([]string(nil), rows[:top]...)
	mark := "… " + strconv.Itoa(hidden) + " more rows hidden — press v to view all"
	if cells.Width(mark) > width {
		mark = cells.Truncate("… "+strconv.Itoa(hidden)+" hidden (v: all)", width, "…")
	}
	out = append(out, mark)
	return append(out, rows[len(rows)-bottom:]...), hidden
}

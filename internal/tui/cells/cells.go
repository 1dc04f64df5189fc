// Package cells measures and wraps text in terminal cells: the one width
// implementation the TUI uses everywhere (input box, transcript, tool cards,
// diff gutters), so the cursor and the wrap points always agree with what
// the terminal draws.
//
// Width is per grapheme cluster (UAX #29), not per rune or byte: East Asian
// Wide/Fullwidth and emoji presentation are 2 cells, combining marks 0, and a
// ZWJ sequence or flag pair is one 2-cell grapheme (case B35). Ambiguous-width
// characters are narrow, matching the default of most terminals.
//
// It owns measuring only; it never writes to a terminal and must not import
// Bubble Tea.
package cells

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// Width returns the display width of s in terminal cells. ANSI escape
// sequences in s count as zero cells.
func Width(s string) int { return ansi.StringWidth(s) }

// Graphemes splits s into grapheme clusters. It never splits a cluster, so
// "e\u0301" or a ZWJ family emoji is one element.
func Graphemes(s string) []string {
	var out []string
	state := -1
	for len(s) > 0 {
		var g string
		g, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		out = append(out, g)
	}
	return out
}

// GraphemeWidth returns the cell width of one grapheme cluster g, using the
// same measure as Width.
func GraphemeWidth(g string) int { return ansi.StringWidth(g) }

// Wrap soft-wraps plain or styled text to lines of at most width cells,
// breaking at spaces when it can and between graphemes when a word is longer
// than a line. A 2-cell grapheme that does not fit moves to the next line
// whole. Existing newlines are kept. width < 1 returns the lines unwrapped.
func Wrap(s string, width int) []string {
	if width < 1 {
		return strings.Split(s, "\n")
	}
	var lines []string
	for _, src := range strings.Split(s, "\n") {
		rows := strings.Split(ansi.Wrap(src, width, ""), "\n")
		if len(rows) > 1 && rows[len(rows)-1] == "" {
			rows = rows[:len(rows)-1] // a wrap at the very end adds an empty row
		}
		for i := range rows[:len(rows)-1] {
			// a row broken before a hyphenated word keeps the space
			// ansi.Wrap leaves (testdata/fuzz/FuzzStream/e1a30c4fd27efc98
			// in the markdown package): a soft break ends no row in one
			rows[i] = strings.TrimRight(rows[i], " ")
		}
		lines = append(lines, rows...)
	}
	// ansi.Wrap keeps leading spaces whole; cut any line still too wide.
	for i := 0; i < len(lines); i++ {
		if Width(lines[i]) > width {
			cut := strings.Split(ansi.Hardwrap(lines[i], width, true), "\n")
			for len(cut) > 1 && cut[len(cut)-1] == "" {
				cut = cut[:len(cut)-1]
			}
			lines = append(lines[:i], append(cut, lines[i+1:]...)...)
		}
	}
	return lines
}

// Hardwrap wraps between graphemes only (no word breaking), as an input box
// or a code block needs, so every cell position maps to one grapheme.
func Hardwrap(s string, width int) []string {
	if width < 1 {
		return strings.Split(s, "\n")
	}
	return strings.Split(ansi.Hardwrap(s, width, true), "\n")
}

// Truncate cuts s to at most width cells, appending tail (counted in the
// width) when it had to cut.
func Truncate(s string, width int, tail string) string {
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, tail)
}

// Pad right-pads s with spaces to exactly width cells when it is narrower.
func Pad(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

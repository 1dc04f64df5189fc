package render

import (
	"strings"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// Columns lays out rows of cells (untrusted text) as aligned columns two
// cells apart behind indent, within width cells: every column but the
// last is as wide as its widest cell, and the last wraps under itself.
// A column may take at most a quarter of the width; a row whose cell is
// wider than its column gets a line of its own for those cells, and its
// last cell starts on the next line, under the last column. When the last
// column would be left under 16 cells, it goes under the row, four cells
// in, instead.
func Columns(rows [][]string, indent string, width int) []string {
	clean := make([][]string, len(rows))
	ncol := 0
	for i, r := range rows {
		for _, c := range r {
			clean[i] = append(clean[i], sanitize.Line(c))
		}
		ncol = max(ncol, len(r))
	}
	colCap := max(width/4, 8)
	widths := make([]int, max(ncol-1, 0))
	for _, r := range clean {
		for j := 0; j < len(r)-1; j++ {
			if w := cells.Width(r[j]); w <= colCap {
				widths[j] = max(widths[j], w)
			}
		}
	}
	offset := cells.Width(indent)
	for _, w := range widths {
		offset += w + 2
	}
	if width-offset < 16 {
		offset = cells.Width(indent) + 4
	}
	pad := strings.Repeat(" ", offset)
	var out []string
	for _, r := range clean {
		if len(r) == 0 {
			continue
		}
		lead, fits := indent, true
		for j, c := range r[:len(r)-1] {
			if cells.Width(c) > widths[j] {
				fits = false
			}
			lead += cells.Pad(c, widths[j]) + "  "
		}
		if !fits || cells.Width(lead) != offset {
			if len(r) > 1 {
				out = append(out, cells.Truncate(indent+strings.Join(r[:len(r)-1], "  "), width, "…"))
			}
			lead = pad
		}
		for i, l := range cells.Wrap(r[len(r)-1], width-offset) {
			if i > 0 {
				lead = pad
			}
			out = append(out, strings.TrimRight(lead+l, " "))
		}
	}
	return out
}

package markdown

import (
	"strings"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/style"
)

// Tables (GitHub's pipe tables, rows that start with "|"): a column's
// width depends on every row, so rows are held until the table ends (the
// first other line, or the reply's end); Tail shows the held rows laid out
// so far (the live region shows their last rows). A table longer than
// maxTableRows is handed out in parts: the first part sets the columns'
// widths and every later part is laid out in them, a wider cell wrapped
// in its column, so the whole table lines up.
const maxTableRows = 200

// tableRow reports whether a trimmed, sanitised line is a table row.
func tableRow(trimmed string) bool { return strings.HasPrefix(trimmed, "|") }

// flushTable renders the held rows and forgets them.
func (s *Stream) flushTable() []string {
	rows, cont := s.table, s.tableCont
	s.table, s.tableCont = nil, false
	if len(rows) == 0 {
		return nil
	}
	if cont && s.tableWidths != nil {
		out, _ := s.layTable(rows, s.tableAligns, false, s.tableWidths)
		return out
	}
	if cont || len(rows) < 2 || !delimiterRow(rows[1]) {
		var out []string // no header row, or too wide: shown as lines
		for _, r := range rows {
			out = append(out, s.wrap(Block(r))...)
		}
		s.tableWidths = nil
		return out
	}
	var aligns []byte
	for _, c := range splitRow(rows[1]) {
		aligns = append(aligns, alignOf(c))
	}
	rows = append(rows[:1:1], rows[2:]...)
	out, widths := s.layTable(rows, aligns, true, nil)
	s.tableAligns, s.tableWidths = aligns, widths
	return out
}

// delimiterRow reports whether row is a header's delimiter (|---|:--:|).
func delimiterRow(row string) bool {
	for _, c := range splitRow(row) {
		if strings.Trim(c, ":-") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}

// alignOf is a delimiter cell's alignment: 'r', 'c' or 'l'.
func alignOf(c string) byte {
	switch {
	case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
		return 'c'
	case strings.HasSuffix(c, ":"):
		return 'r'
	}
	return 'l'
}

// splitRow splits "| a | b \| c |" into its trimmed cells; "\|" is a
// literal pipe.
func splitRow(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteByte('|')
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(row[i])
		}
	}
	return append(out, strings.TrimSpace(b.String()))
}

// layTable draws rows in columns " │ " apart, a rule under the header
// (the first row, bold, when header is set), each cell wrapped in its
// column. Columns wider than the room shrink, the widest first, to no less
// than 4 cells; a table that still does not fit is shown as its lines.
// fixed, when set, are the widths of the table's first part: the rows are
// laid out in them, a row's cells past the last column joined to it. It
// returns the widths used (nil: shown as lines).
func (s *Stream) layTable(rows []string, aligns []byte, header bool, fixed []int) ([]string, []int) {
	var grid [][]string
	ncol := len(aligns)
	for _, r := range rows {
		row := splitRow(r)
		if fixed != nil && len(row) > len(fixed) {
			row = append(row[:len(fixed)-1], strings.Join(row[len(fixed)-1:], " | "))
		}
		for i, c := range row {
			row[i] = Inline(c)
		}
		grid = append(grid, row)
		ncol = max(ncol, len(row))
	}
	widths := fixed
	if fixed == nil {
		widths = make([]int, ncol)
		for _, row := range grid {
			for i, c := range row {
				widths[i] = max(widths[i], cells.Width(c), 1)
			}
		}
	}
	if s.Width > 0 && (fixed == nil && !fitColumns(widths, s.Width-3*(ncol-1))) {
		var out []string
		for _, r := range rows {
			out = append(out, s.wrap(Inline(r))...)
		}
		return out, nil
	}
	ncol = len(widths)
	var out []string
	for n, row := range grid {
		wrapped := make([][]string, ncol)
		height := 1
		for i := range ncol {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			if n == 0 && header {
				c = style.Bold.Render(c)
			}
			wrapped[i] = cells.Wrap(c, widths[i])
			height = max(height, len(wrapped[i]))
		}
		for h := range height {
			parts := make([]string, ncol)
			for i := range ncol {
				cell := ""
				if h < len(wrapped[i]) {
					cell = wrapped[i][h]
				}
				a := byte('l')
				if i < len(aligns) {
					a = aligns[i]
				}
				parts[i] = alignCell(cell, widths[i], a)
			}
			out = append(out, joinCells(parts))
		}
		if n == 0 && header {
			rule := make([]string, ncol)
			for i, w := range widths {
				rule[i] = strings.Repeat("─", w)
			}
			out = append(out, style.Dim.Render(strings.Join(rule, "─┼─")))
		}
	}
	return out, widths
}

// fitColumns shrinks widths, the widest first, until they sum to at most
// room; false when they cannot while each keeps 4 cells.
func fitColumns(widths []int, room int) bool {
	for {
		sum, widest := 0, 0
		for i, w := range widths {
			sum += w
			if w > widths[widest] {
				widest = i
			}
		}
		if sum <= room {
			return true
		}
		if widths[widest] <= 4 {
			return false
		}
		widths[widest]--
	}
}

// alignCell pads cell to w cells: left, right or centred.
func alignCell(cell string, w int, align byte) string {
	gap := max(w-cells.Width(cell), 0)
	switch align {
	case 'r':
		return strings.Repeat(" ", gap) + cell
	case 'c':
		return strings.Repeat(" ", gap/2) + cell + strings.Repeat(" ", gap-gap/2)
	}
	return cell + strings.Repeat(" ", gap)
}

// joinCells joins a row's padded cells with sep; the row ends where its
// text does (an empty last cell leaves no trailing space, nor does sep's).
func joinCells(parts []string) string {
	sep := style.Dim.Render(" │ ")
	last := len(parts) - 1
	parts[last] = strings.TrimRight(parts[last], " ")
	if parts[last] != "" || last == 0 {
		return strings.Join(parts, sep)
	}
	return strings.Join(parts[:last], sep) + style.Dim.Render(" │")
}

// Package markdown renders a model's Markdown reply as it streams, one
// finished line at a time: headings, bold, italic, code spans, fenced code
// (with lazily loaded highlighting), lists (wrapped rows hang under their
// text), quotes, rules and pipe tables (held until they end, table.go). It is a small
// line-oriented renderer, not CommonMark: a reply is shown while it
// arrives, so every construct must be decidable from the lines seen so far.
//
// Highlighting is our own small keyword lexer (highlight.go), not chroma:
// importing chroma v2.27.0's lexers and styles packages runs 9.7 ms and
// 6.4 ms of package init on every start (GODEBUG=inittrace=1), which Go
// cannot defer, and adds about 8 MB to the binary; the start-up budget is
// 20 ms (SPEC §11, issue 4).
//
// Input is untrusted: each line is sanitised (package sanitize) before it is
// parsed or styled, and an escape sequence can never span lines. The package
// owns rendering only; it never writes to a terminal.
package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// Stream renders one reply incrementally. Feed deltas with Write; finished
// lines come back rendered, and Tail renders the unfinished last line. The
// zero value renders without wrapping; set Width for soft wrapping.
type Stream struct {
	// Width is the wrap width in cells (0 = no wrapping).
	Width int

	partial string // raw text after the last '\n'
	fence   string // the open fence marker ("```" or "~~~"), "" outside code
	lang    string // the open fence's language
	code    strings.Builder
	blocks  []CodeBlock
	source  strings.Builder
	// cont: partial continues a long line whose first rows were already
	// returned (emitStable); quote: that line is a block quote; hang: the
	// cells its rows are indented by (a list item's marker).
	cont, quote bool
	hang        int
	// table holds the rows of a table until it ends (table.go);
	// tableCont: they continue a table already handed out in part, whose
	// columns were tableWidths wide (nil: it was shown as lines).
	table       []string
	tableCont   bool
	tableWidths []int
	tableAligns []byte
}

// CodeBlock is one fenced block of a reply, for /clip.
type CodeBlock struct {
	Lang string
	// Text is the block's sanitised content with a final newline.
	Text string
}

// Write adds a delta and returns the rendered lines it finished, each
// wrapped to Width.
func (s *Stream) Write(delta string) []string {
	s.source.WriteString(delta)
	s.partial += delta
	var out []string
	for {
		i := strings.IndexByte(s.partial, '\n')
		if i < 0 {
			return append(out, s.emitStable()...)
		}
		line := s.partial[:i]
		s.partial = s.partial[i+1:]
		out = append(out, s.line(line)...)
		s.cont, s.quote, s.hang = false, false, 0
	}
}

// Tail renders the unfinished last line, or nil when there is none. It
// does not consume it.
func (s *Stream) Tail() []string {
	if s.partial == "" && len(s.table) == 0 {
		return nil
	}
	saved := *s
	saved.code = strings.Builder{}
	saved.source = strings.Builder{}
	saved.table = append([]string(nil), s.table...)
	var out []string
	if s.partial != "" {
		out = saved.line(s.partial)
	}
	return append(out, saved.flushTable()...)
}

// Close finishes the reply: the unfinished line is rendered and an open
// fence is closed. It returns the last rendered lines.
func (s *Stream) Close() []string {
	var out []string
	if s.partial != "" {
		out = s.line(s.partial)
		s.partial = ""
	}
	s.cont, s.quote, s.hang = false, false, 0
	if s.fence != "" {
		s.endFence()
	}
	return append(out, s.flushTable()...)
}

// Blocks returns the fenced code blocks finished so far.
func (s *Stream) Blocks() []CodeBlock { return s.blocks }

// Source returns the raw text written so far.
func (s *Stream) Source() string { return s.source.String() }

// line renders one complete source line: a table's row is held until
// the table ends (table.go).
func (s *Stream) line(raw string) []string {
	text := sanitize.ExpandTabs(sanitize.Text(strings.TrimSuffix(raw, "\r")))
	trimmed := strings.TrimSpace(text)
	if s.fence == "" && !s.cont && tableRow(trimmed) {
		s.table = append(s.table, trimmed)
		if len(s.table) < maxTableRows {
			return nil
		}
		out := s.flushTable()
		s.tableCont = true
		return out
	}
	return append(s.flushTable(), s.render(text, trimmed)...)
}

// render renders one complete source line, sanitised, but a table's row.
func (s *Stream) render(text, trimmed string) []string {
	if s.fence != "" {
		if strings.HasPrefix(trimmed, s.fence) && strings.Trim(trimmed, s.fence[:1]) == "" {
			s.endFence()
			return s.fenceLine(trimmed)
		}
		s.code.WriteString(text + "\n")
		return s.wrapCode(Highlight(s.lang, text))
	}
	if s.cont {
		if s.quote {
			return s.quoteRows(trimmed)
		}
		// Trailing spaces stay, as in the line written whole.
		return s.hangRows("", s.hang, Inline(strings.TrimLeft(text, " ")))
	}
	if inner, ok := quoted(trimmed); ok && s.fence == "" && fenceOf(trimmed) == "" {
		return s.quoteRows(inner)
	}
	if f := fenceOf(trimmed); f != "" {
		s.fence = f
		s.lang = strings.TrimSpace(strings.TrimLeft(trimmed, f[:1]))
		if i := strings.IndexAny(s.lang, " {"); i >= 0 {
			s.lang = s.lang[:i]
		}
		s.code.Reset()
		return s.fenceLine(trimmed)
	}
	if lead, hang := s.listLead(text); hang > 0 {
		marker := text[:lead]
		if t := strings.TrimLeft(marker, " "); t == "- " || t == "* " || t == "+ " {
			marker = marker[:len(marker)-len(t)] + style.Accent.Render("•") + " "
		}
		return s.hangRows(marker, hang, Inline(text[lead:]))
	}
	return s.wrap(Block(text))
}

// listLead returns how many bytes (and cells: they are spaces and ASCII)
// of a line lead its text: the indent and a list marker ("- ", "12. "),
// or an indented paragraph's indent. Its wrapped rows hang under the
// text. It is 0 for other lines, and when the rows would be too narrow.
func (s *Stream) listLead(text string) (lead, hang int) {
	trimmed := strings.TrimLeft(text, " ")
	n := len(text) - len(trimmed)
	switch {
	case trimmed == "" || isRule(trimmed) || trimmed[0] == '#' || trimmed[0] == '>':
		return 0, 0
	case len(trimmed) > 1 && strings.ContainsRune("-*+", rune(trimmed[0])) && trimmed[1] == ' ':
		n += 2
	default:
		d := len(trimmed) - len(strings.TrimLeft(trimmed, "0123456789"))
		if d > 0 && d <= 9 && len(trimmed) > d+1 && (trimmed[d] == '.' || trimmed[d] == ')') && trimmed[d+1] == ' ' {
			n += d + 2
		}
	}
	if s.Width <= 0 || s.Width-n < 10 {
		return 0, 0
	}
	return n, n
}

// hangRows wraps text (rendered) to the width less hang cells, behind
// marker on the first row and hang spaces on the others.
func (s *Stream) hangRows(marker string, hang int, text string) []string {
	if hang == 0 {
		return s.wrap(marker + text)
	}
	rows := cells.Wrap(text, s.Width-hang)
	for i, r := range rows {
		if i == 0 && marker != "" {
			rows[i] = marker + r
		} else {
			rows[i] = strings.Repeat(" ", hang) + r
		}
	}
	return rows
}

// A long line (a paragraph the model writes without a newline) would stay
// unfinished, and in the live region, until it ends: only its last rows
// would fit there, and a tall live region does not survive the terminal
// getting narrower. emitStable returns the first rows of a line that fills
// more than stableRows+1 rows as soon as no later text can change them:
// it cuts the line's source at the start of its last stableRows rows (a
// word boundary, as greedy wrapping breaks), renders the part before as a
// line, and keeps the rest as a continuation, rendered without block
// markup (a continuation starting with "# " is not a heading). Inline
// markup that spans the cut stays literal on both sides.
const stableRows = 2

func (s *Stream) emitStable() []string {
	if s.fence != "" || s.Width <= 0 || len(s.partial) <= s.Width || (!s.cont && tableRow(strings.TrimSpace(s.partial))) {
		return nil
	}
	text := sanitize.ExpandTabs(sanitize.Text(s.partial))
	width, skip := s.Width, 0
	if _, q := quoted(strings.TrimLeft(text, " ")); s.quote || (!s.cont && q) {
		if width > 4 {
			width -= 2 // quoteRows
		}
		if !s.cont { // the first rows hold the text after "> "
			skip = strings.Index(text, ">") + 1
			if skip < len(text) && text[skip] == ' ' {
				skip++
			}
		}
	}
	hang := s.hang // a quote's line has none
	if _, q := quoted(strings.TrimLeft(text, " ")); !s.cont && !q {
		skip, hang = s.listLead(text)
	}
	if hang > 0 {
		width = s.Width - hang
	}
	starts, long := rowStarts(text[skip:], width)
	for i := range starts {
		starts[i] += skip
	}
	if len(starts) <= stableRows+1 {
		return nil
	}
	cut := starts[len(starts)-stableRows]
	if long && (cut == 0 || text[cut-1] != ' ' || !wrapsAlike(text[skip:], cut-skip, width)) {
		// not inside a word cut into rows (wrapped on its own, its rest
		// can break elsewhere: testdata/fuzz/FuzzStream/eb070802998aa0fd),
		// and the rows as the whole line has them
		return nil
	}
	// text is the sanitised partial: find the same cut in the source by
	// its tail, which sanitising leaves alone only when it is plain.
	rest := text[cut:]
	if !strings.HasSuffix(s.partial, rest) {
		return nil
	}
	part := trimBreak(s.partial[:len(s.partial)-len(rest)])
	if !closedSpans(part) && len(starts) < maxHeldRows {
		// A bold or code span open across the cut would show its markers
		// literally on both sides: wait for it to close (a while).
		return nil
	}
	if !s.cont {
		_, s.quote = quoted(strings.TrimLeft(sanitize.Text(part), " "))
	}
	out := s.line(part)
	s.partial, s.cont, s.hang = rest, true, hang
	return out
}

// wrapsAlike reports whether text cut at cut wraps into the same rows as
// the whole text does, the part before the cut and the rest each on its
// own: after a word wider than a row (testdata/fuzz/FuzzStream/
// 260ce9b13dcf96a6, c0c297869707cd4e) rowStarts's model of cells.Wrap is
// checked before a row is handed out.
func wrapsAlike(text string, cut, width int) bool {
	whole := cells.Wrap(text, width)
	parts := append(cells.Wrap(strings.TrimRight(text[:cut], " "), width), cells.Wrap(text[cut:], width)...)
	if len(parts) != len(whole) {
		return false
	}
	for i, r := range parts {
		if strings.TrimRight(r, " ") != strings.TrimRight(whole[i], " ") {
			return false
		}
	}
	return true
}

// trimBreak drops what ends the source before a row break: spaces, tabs
// (expanded, they would end the row in spaces: testdata/fuzz/FuzzStream/
// a7a1b1455038a683), and the control characters sanitising removes (a
// space then "\x1a" would otherwise leave the row a trailing space the
// whole line, wrapped at once, does not have:
// testdata/fuzz/FuzzStream/8804833075473645). An escape is kept: it may
// start a sequence.
func trimBreak(part string) string {
	for part != "" {
		r, size := utf8.DecodeLastRuneInString(part)
		if r != ' ' && r != '\t' && (!unicode.IsControl(r) || r == '\x1b' || sanitize.Text(string(r)) != "") {
			break
		}
		part = part[:len(part)-size]
	}
	return part
}

// maxHeldRows is how many rows a long line may hold back waiting for an
// inline span to close before its rows are handed out anyway.
const maxHeldRows = 12

// closedSpans reports whether text opens no code span, **bold** or
// __bold__ it does not close.
func closedSpans(text string) bool {
	ticks := strings.Count(text, "`")
	text = strings.ReplaceAll(text, "`", "")
	return ticks%2 == 0 && strings.Count(text, "**")%2 == 0 && strings.Count(text, "__")%2 == 0
}

// rowStarts returns the byte offsets at which greedy word wrapping to
// width cells starts each row of text, as cells.Wrap does (a word wider
// than a row starts its own row and is cut into rows); long reports such
// a word.
func rowStarts(text string, width int) (starts []int, long bool) {
	starts = []int{0}
	used := 0
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		k := j
		for k < len(text) && text[k] != ' ' {
			k++
		}
		space, word := j-i, cells.Width(text[j:k])
		if used > 0 && used+space+word > width {
			starts = append(starts, j)
			used = word
		} else {
			used += space + word
		}
		if word > width && used == word {
			// a word wider than a row starts one and is cut into rows
			// (cells.Wrap); what follows goes on after its last piece
			long = true
			pieces := cells.Hardwrap(text[j:k], width)
			at := j
			for _, p := range pieces[:len(pieces)-1] {
				if at += len(p); len(p) > 0 {
					starts = append(starts, at)
				}
			}
			used = cells.Width(pieces[len(pieces)-1])
		}
		i = k
	}
	return starts, long
}

// quoted returns a block quote's text without its "> " marker.
func quoted(trimmed string) (string, bool) {
	if trimmed != ">" && !strings.HasPrefix(trimmed, "> ") {
		return "", false
	}
	return strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " "), true
}

// quoteRows renders a block quote's text: italic, wrapped two cells short
// of the width, every row behind the quote bar (QA: wrapped rows had none).
func (s *Stream) quoteRows(inner string) []string {
	w := s.Width
	if w > 4 {
		w -= 2
	}
	// A bold or code span inside ends with a full reset; italics resume
	// after it (QA: the rest of the quote lost its italics).
	text := Inline(inner)
	if open, _, _ := strings.Cut(style.Italic.Render("\x00"), "\x00"); open != "" {
		text = strings.ReplaceAll(text, "\x1b[0m", "\x1b[0m"+open)
	}
	rows := cells.Wrap(style.Italic.Render(text), w)
	for i, r := range rows {
		rows[i] = style.Dim.Render("│ ") + r
	}
	return rows
}

func (s *Stream) endFence() {
	s.blocks = append(s.blocks, CodeBlock{Lang: s.lang, Text: s.code.String()})
	s.fence, s.lang = "", ""
	s.code.Reset()
}

func (s *Stream) wrap(line string) []string { return cells.Wrap(line, s.Width) }

func (s *Stream) fenceLine(trimmed string) []string {
	out := cells.Hardwrap(trimmed, s.Width)
	for i, l := range out {
		out[i] = style.Dim.Render(l)
	}
	return out
}

func (s *Stream) wrapCode(line string) []string {
	return cells.Hardwrap("  "+line, s.Width)
}

// fenceOf returns the fence marker a line opens, or "".
func fenceOf(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			n := len(trimmed) - len(strings.TrimLeft(trimmed, f[:1]))
			return strings.Repeat(f[:1], n)
		}
	}
	return ""
}

// Block renders one sanitised non-code line: headings, list items, block
// quotes, rules, then inline markup.
func Block(line string) string {
	trimmed := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(trimmed)]
	switch {
	case trimmed == "":
		return ""
	case isRule(trimmed):
		return style.Dim.Render("────────────────")
	case strings.HasPrefix(trimmed, "#"):
		level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
		if rest, ok := strings.CutPrefix(trimmed[level:], " "); ok && level <= 6 {
			return style.Heading.Render(strings.TrimRight(rest, " #"))
		}
	case strings.HasPrefix(trimmed, "> ") || trimmed == ">":
		return style.Dim.Render("│ ") + style.Italic.Render(Inline(strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " ")))
	case len(trimmed) > 1 && strings.ContainsRune("-*+", rune(trimmed[0])) && trimmed[1] == ' ':
		return indent + style.Accent.Render("•") + " " + Inline(trimmed[2:])
	}
	return indent + Inline(trimmed)
}

func isRule(t string) bool {
	c := strings.ReplaceAll(t, " ", "")
	if len(c) < 3 {
		return false
	}
	return strings.Trim(c, "-") == "" || strings.Trim(c, "*") == "" || strings.Trim(c, "_") == ""
}

// Inline renders code spans, **bold**, __bold__, *italic* and _italic_ in a
// sanitised line. Unclosed markers stay literal, so a half-streamed line
// never swallows the rest of the text.
func Inline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
			tick := s[i : i+n]
			if j := strings.Index(s[i+n:], tick); j >= 0 {
				b.WriteString(style.Code.Render(s[i+n : i+n+j]))
				i += n + j + n
				continue
			}
			b.WriteString(tick)
			i += n
			continue
		case strings.HasPrefix(s[i:], "**") || strings.HasPrefix(s[i:], "__"):
			m := s[i : i+2]
			if j := strings.Index(s[i+2:], m); j > 0 {
				b.WriteString(style.Bold.Render(Inline(s[i+2 : i+2+j])))
				i += 2 + j + 2
				continue
			}
		case (s[i] == '*' || s[i] == '_') && i+1 < len(s) && s[i+1] != ' ' && (i == 0 || !isAlnum(s[i-1])):
			m := s[i : i+1]
			if j := strings.Index(s[i+1:], m); j > 0 && s[i+j] != ' ' && (i+2+j >= len(s) || !isAlnum(s[i+2+j])) {
				b.WriteString(style.Italic.Render(s[i+1 : i+1+j]))
				i += 1 + j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

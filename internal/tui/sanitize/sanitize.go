// Package sanitize neutralises untrusted text (model output, tool output,
// file names, pasted text) before the TUI draws it, so nothing a model or a
// file prints can move the cursor, change the window title, set the
// clipboard, fake a prompt, or reorder what the user reads.
//
// What is removed: escape sequences of every ECMA-48 family (CSI, OSC incl.
// title and clipboard, DCS, SOS/PM/APC, two-byte ESC sequences) in both
// their 7-bit and 8-bit (C1) forms; C0 and C1 control characters except
// '\n' and '\t'; '\r' (it returns the cursor over text already drawn);
// bidirectional overrides, embeddings and isolates (Trojan Source,
// CVE-2021-42574); zero-width and invisible formatting characters. A ZWJ is
// kept only between two pictographs, where it joins an emoji sequence.
// Invalid UTF-8 becomes U+FFFD.
//
// It owns text cleaning only; it must not import Bubble Tea or style text.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s with escape sequences and unsafe characters removed. '\n'
// and '\t' are kept; "\r\n" and lone '\r' become '\n' so pasted and CRLF
// text keeps its line breaks without carriage-return overstrikes.
func Text(s string) string { return clean(s, false) }

// Visible is Text for short strings the user must judge before approving
// (a command, a path): instead of vanishing, each removed sequence or
// character is shown as an inert escape such as `\x1b[2J` or `\u202e`, so
// hidden content is seen rather than silently dropped.
func Visible(s string) string { return clean(s, true) }

// Line is Text for a single display line: newlines and tabs become spaces
// (tabs expand to the next multiple of 4 columns of runes).
func Line(s string) string {
	s = Text(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteByte(' ')
			col++
		case '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// ExpandTabs replaces each '\t' with spaces up to the next multiple of 4
// runes on its line; terminals would otherwise jump the cursor by an amount
// the layout cannot measure.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteRune(r)
			col = 0
		case '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// clean walks s once. visible selects escaping over dropping.
func clean(s string, visible bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	drop := func(raw string) {
		if visible {
			b.WriteString(escape(raw))
		}
	}
	var prev rune
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
			i++
			prev = utf8.RuneError
			continue
		}
		switch {
		case r == 0x1b:
			n := escLen(s[i:])
			drop(s[i : i+n])
			i += n
			continue
		case r >= 0x80 && r <= 0x9f: // C1, incl. 8-bit CSI/OSC/DCS introducers
			n := c1Len(s[i:], r, size)
			drop(s[i : i+n])
			i += n
			continue
		case r == '\r':
			if strings.HasPrefix(s[i+1:], "\n") {
				i++ // "\r\n": keep the '\n' that follows
				continue
			}
			b.WriteByte('\n')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			drop(s[i : i+size])
		case r == 0x200d: // ZWJ: keep only inside an emoji sequence
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			if isPictograph(prev) && isPictograph(next) {
				b.WriteRune(r)
			} else {
				drop(s[i : i+size])
			}
		case isInvisible(r):
			drop(s[i : i+size])
		default:
			b.WriteRune(r)
		}
		prev = r
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII plus '\n'/'\t' only, the
// common case that needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// escLen returns the byte length of the escape sequence starting at s[0] ==
// ESC, per ECMA-48: CSI runs to a final byte 0x40–0x7e; OSC, DCS, SOS, PM
// and APC run to ST (ESC \) or, for OSC, BEL; other ESC sequences are ESC,
// intermediates 0x20–0x2f, then one final byte. An unterminated string runs
// to the end of s (everything after it is part of the hostile payload).
func escLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBody(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringBody(s[2:], s[1] == ']')
	}
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// c1Len is escLen for an 8-bit introducer r of size bytes at s[0].
func c1Len(s string, r rune, size int) int {
	switch r {
	case 0x9b: // CSI
		return size + csiBody(s[size:])
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return size + stringBody(s[size:], r == 0x9d)
	}
	return size
}

// csiBody returns the length of CSI parameters, intermediates and final.
func csiBody(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x40 && c <= 0x7e {
			return i + 1
		}
		if c < 0x20 || c > 0x3f && c < 0x40 || c >= 0x7f {
			// Not a CSI byte: the sequence is malformed; drop what was read.
			return i
		}
	}
	return len(s)
}

// stringBody returns the length of a control string up to and including its
// terminator: ST as ESC \ or 8-bit 0x9c, or BEL for OSC.
func stringBody(s string, osc bool) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07 && osc:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0x1b:
			return i // a new sequence starts; this one was cut short
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}

// isInvisible reports format characters that change order or hide text:
// bidi controls, zero-width spaces/joiners, word joiner, BOM, invisible
// operators, soft hyphen, tag characters and other Cf runes.
func isInvisible(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f, // ALM, LRM, RLM
		r >= 0x202a && r <= 0x202e, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069, // LRI RLI FSI PDI
		r == 0x200b, r == 0x200c, r == 0x2060, r == 0xfeff,
		r >= 0x2061 && r <= 0x2064, r == 0x00ad, r == 0x180e,
		r >= 0xe0000 && r <= 0xe007f, // tags
		r == 0x2028, r == 0x2029:     // line/paragraph separators
		return true
	case r >= 0xfe00 && r <= 0xfe0f: // variation selectors are visible modifiers
		return false
	}
	return unicode.Is(unicode.Cf, r) && r != 0x200d
}

// isPictograph approximates Extended_Pictographic for ZWJ sequences: emoji
// blocks, dingbats, variation selector 16 and skin tones.
func isPictograph(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2600 && r <= 0x27bf ||
		r == 0xfe0f || r >= 0x2190 && r <= 0x21ff || r >= 0x2b00 && r <= 0x2bff
}

// escape renders raw as inert visible text: control bytes as \xNN, other
// runes as \uNNNN.
func escape(raw string) string {
	var b strings.Builder
	for _, r := range raw {
		switch {
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		case r > 0xffff && isInvisible(r): // tag characters
			b.WriteString(`\U`)
			b.WriteString(hex2(byte(r >> 24)))
			b.WriteString(hex2(byte(r >> 16)))
			b.WriteString(hex2(byte(r >> 8)))
			b.WriteString(hex2(byte(r)))
		case r >= 0x80 && r <= 0x9f, r > 0x7f && isInvisible(r), r == 0x200d:
			b.WriteString(`\u`)
			b.WriteString(hex2(byte(r >> 8)))
			b.WriteString(hex2(byte(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

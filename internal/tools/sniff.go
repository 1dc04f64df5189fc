package tools

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// sniffLen is how much of a file the binary sniffer looks at (8 KiB).
const sniffLen = 8 << 10

// magic lists file signatures that mean "not text" even without a NUL in
// the sample (sources: the formats' specifications; B17 for zip/ods).
var magic = []struct {
	prefix string
	kind   string
}{
	{"PK\x03\x04", "zip"},
	{"PK\x05\x06", "zip"},
	{"PK\x07\x08", "zip"},
	{"%PDF-", "pdf"},
	{"\x89PNG\r\n\x1a\n", "png"},
	{"\xff\xd8\xff", "jpeg"},
	{"GIF87a", "gif"},
	{"GIF89a", "gif"},
	{"\x7fELF", "elf"},
	{"\x1f\x8b", "gzip"},
	{"\xfd7zXZ\x00", "xz"},
	{"7z\xbc\xaf\x27\x1c", "7z"},
	{"Rar!\x1a\x07", "rar"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole/office"},
	{"SQLite format 3\x00", "sqlite"},
	{"\x00asm", "wasm"},
	{"\xca\xfe\xba\xbe", "java class/mach-o"},
	{"\xcf\xfa\xed\xfe", "mach-o"},
	{"\xce\xfa\xed\xfe", "mach-o"},
	{"\x28\xb5\x2f\xfd", "zstd"},
}

// zipKinds names common zip-based documents by a marker near the start.
var zipKinds = []struct{ marker, kind string }{
	{"opendocument.spreadsheet", "zip/ods"},
	{"opendocument.text", "zip/odt"},
	{"opendocument.presentation", "zip/odp"},
	{"word/", "zip/docx"},
	{"xl/", "zip/xlsx"},
	{"ppt/", "zip/pptx"},
	{"META-INF/", "zip/jar"},
}

// sniffBinary decides from the first bytes of a file whether it is binary,
// and what kind. Rule (B17): a known signature or a NUL byte means binary;
// so does a sample that is mostly control bytes or mostly invalid UTF-8.
// Legacy 8-bit text (Latin-1: 0xE9 with no NUL) stays text, and a
// multibyte UTF-8 sequence cut by the end of the sample is not counted
// invalid.
func sniffBinary(head []byte) (kind string, binary bool) {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	for _, m := range magic {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			if m.kind == "zip" {
				for _, z := range zipKinds {
					if bytes.Contains(head, []byte(z.marker)) {
						return z.kind, true
					}
				}
			}
			return m.kind, true
		}
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "data", true
	}
	if len(head) == 0 {
		return "", false
	}
	ctrl, invalid := 0, 0
	for i := 0; i < len(head); {
		c := head[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && !strings.ContainsRune("\t\n\r\f\v\x1b\b", rune(c)) || c == 0x7f {
				ctrl++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRune(head[i:]) && len(head) == sniffLen {
				break // sequence cut by the sample window, not invalid
			}
			invalid++
			n = 1
		}
		i += n
	}
	if ctrl*10 > len(head) || invalid*10 > len(head)*3 {
		return "data", true
	}
	return "", false
}

// cp1252High maps bytes 0x80..0x9F of Windows-1252 to runes; the undefined
// five map to the C1 control of the same value so decoding round-trips.
var cp1252High = [32]rune{
	0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
	0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
}

// decodeCP1252 returns b (not valid UTF-8) read as Windows-1252, a
// superset of Latin-1 for printable text.
func decodeCP1252(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/4)
	for _, c := range b {
		switch {
		case c < 0x80:
			sb.WriteByte(c)
		case c < 0xA0:
			sb.WriteRune(cp1252High[c-0x80])
		default:
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

// encodeCP1252 is the inverse of decodeCP1252; ok is false when s holds a
// rune Windows-1252 cannot store.
func encodeCP1252(s string) (b []byte, ok bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x80 || (r >= 0xA0 && r <= 0xFF):
			out = append(out, byte(r))
		default:
			found := false
			for i, h := range cp1252High {
				if h == r {
					out = append(out, byte(0x80+i))
					found = true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
	}
	return out, true
}

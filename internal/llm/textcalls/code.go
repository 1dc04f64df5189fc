package textcalls

import "strings"

// span is a half-open byte range [start, end) of a text.
type span struct{ start, end int }

// codeSpans returns the byte ranges of fenced code blocks (``` or ~~~ at
// the start of a line, closed by a like fence or the end of text) and
// inline code spans (a run of n backticks closed by the next run of n).
// Markup inside them is shown text, never a call (B05 negative case).
func codeSpans(s string) []span {
	var out []span
	i := 0
	for i < len(s) {
		lineStart := i == 0 || s[i-1] == '\n'
		if lineStart {
			if fence, ok := fenceAt(s, i); ok {
				end := closeFence(s, i, fence)
				out = append(out, span{i, end})
				i = end
				continue
			}
		}
		if s[i] == '`' {
			n := runLen(s, i, '`')
			if j := findRun(s, i+n, n); j >= 0 {
				out = append(out, span{i, j + n})
				i = j + n
				continue
			}
			i += n
			continue
		}
		i++
	}
	return out
}

// fenceAt reports the fence string ("```" or longer, "~~~") opening a line
// at i, allowing up to 3 spaces of indent.
func fenceAt(s string, i int) (string, bool) {
	j := i
	for j < len(s) && j-i < 3 && s[j] == ' ' {
		j++
	}
	for _, c := range []byte{'`', '~'} {
		if n := runLen(s, j, c); n >= 3 {
			return s[j : j+n], true
		}
	}
	return "", false
}

// closeFence returns the end of the fenced block opened at i: just past the
// closing fence line, or len(s).
func closeFence(s string, i int, fence string) int {
	nl := strings.IndexByte(s[i:], '\n')
	if nl < 0 {
		return len(s)
	}
	pos := i + nl + 1
	for pos < len(s) {
		if f, ok := fenceAt(s, pos); ok && f[0] == fence[0] && len(f) >= len(fence) {
			rest := pos + strings.Index(s[pos:], f) + len(f)
			if e := strings.IndexByte(s[rest:], '\n'); e >= 0 {
				if strings.TrimSpace(s[rest:rest+e]) == "" {
					return rest + e + 1
				}
			} else if strings.TrimSpace(s[rest:]) == "" {
				return len(s)
			}
		}
		nl := strings.IndexByte(s[pos:], '\n')
		if nl < 0 {
			break
		}
		pos += nl + 1
	}
	return len(s)
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// findRun finds the next run of exactly n backticks at or after i.
func findRun(s string, i, n int) int {
	for i < len(s) {
		if (i == 0 || s[i-1] == '\n') && isFenceLine(s, i) {
			// A fence line opens a block: an inline span never crosses it
			// (CommonMark parses blocks before inlines).
			return -1
		}
		if s[i] == '`' {
			m := runLen(s, i, '`')
			if m == n {
				return i
			}
			i += m
			continue
		}
		i++
	}
	return -1
}

// isFenceLine reports whether a fence opens the line at i.
func isFenceLine(s string, i int) bool {
	_, ok := fenceAt(s, i)
	return ok
}

func inSpans(spans []span, pos int) bool {
	for _, sp := range spans {
		if pos >= sp.start && pos < sp.end {
			return true
		}
	}
	return false
}

// exampleMarkers are phrases that, in the paragraph right before a call,
// mark it as an illustration rather than an action (B01 negative 4).
// tagMarkers is the stronger subset used before tagged markup, which models
// emit almost only to call: a false "example" there would stall a real
// call.
var (
	tagMarkers = []string{
		"for example", "e.g.", "example:", "an example", "for instance",
		"like this", "like so", "would look like", "looks like this",
		"syntax", "the format",
	}
	exampleMarkers = append([]string{"such as", "you could call", "you can call", "could call", "would call"}, tagMarkers...)
)

// leadIsExample reports whether the paragraph of s that ends at pos reads
// as an introduction to an example of tagged markup.
func leadIsExample(s string, pos int) bool {
	lead := s[:pos]
	if k := strings.LastIndex(lead, "\n\n"); k >= 0 {
		lead = lead[k:]
	}
	return hasMarker(lead, tagMarkers)
}

func hasExampleMarker(s string) bool { return hasMarker(s, exampleMarkers) }

func hasMarker(s string, markers []string) bool {
	l := strings.ToLower(s)
	for _, m := range markers {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

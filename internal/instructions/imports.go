package instructions

import (
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// MaxImportDepth is how many levels of `@path` imports are followed from a
// file Zero finds on its own (Claude Code follows a few hops too; an
// import deeper than this is skipped with a note).
const MaxImportDepth = 4

// importWord is an `@path` word: at the start of a line or after a space,
// as in Claude Code's memory imports ("See @README for an overview").
// An e-mail address (a@b.c) does not match: its @ follows a letter.
var importWord = lazyregexp.New(`(?:^|\s)@([^\s` + "`" + `]+)`)

// Imports returns the `@path` imports of a Markdown text in order of
// appearance, each once, with trailing sentence punctuation removed. Text
// inside fenced code blocks (``` or ~~~) and backtick code spans is not
// read, so examples of the syntax import nothing. A word is an import when
// it looks like a path: it starts with ~/, / or ., or holds a / or a dot
// (so "@alice" is a mention, "@notes.md" an import).
func Imports(text string) []string {
	var out []string
	seen := map[string]bool{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		if f := fenceOf(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), f[:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		for _, m := range importWord.FindAllStringSubmatch(withoutCodeSpans(line), -1) {
			p := strings.TrimRight(m[1], ".,;:!?)]}\"'")
			if looksLikePath(p) && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// fenceOf returns the fence a line opens or closes (three or more
// backticks or tildes after at most three spaces, CommonMark 4.5), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// withoutCodeSpans blanks the backtick code spans of a line: a run of n
// backticks up to the next run of exactly n (CommonMark 6.1). An unclosed
// run is literal text.
func withoutCodeSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := run(line, i)
		end := closing(line, i+n, n)
		if end < 0 {
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		b.WriteByte(' ')
		i = end + n
	}
	return b.String()
}

// run is the length of the backtick run at i.
func run(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closing is the index of the next run of exactly n backticks at or
// after i, or -1.
func closing(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := run(s, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

func looksLikePath(p string) bool {
	if p == "" {
		return false
	}
	return strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, ".") ||
		strings.ContainsAny(p, "/.")
}

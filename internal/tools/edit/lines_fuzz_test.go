package edit

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReplaceLines: ReplaceLines never panics; replacing lines of a file
// with themselves gives back the very bytes (CRLF, mixed endings, BOM,
// final newline or none), also when the lines are given with tabs as
// spaces, and so does inserting nothing.
func FuzzReplaceLines(f *testing.F) {
	for _, s := range []string{"a\nb\nc\n", "\ufeffx\r\ny\r\n", "one\r\ntwo\nthree", "", "\n\n", "\tif x {\n\t\ty\n\t}\n"} {
		f.Add(s, uint8(0), uint8(1), false)
	}
	f.Fuzz(func(t *testing.T, content string, start, n uint8, atEnd bool) {
		lines := strings.Split(strings.ReplaceAll(strings.TrimPrefix(content, "\ufeff"), "\r\n", "\n"), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			return
		}
		i := int(start) % len(lines)
		j := min(len(lines), i+1+int(n)%4)
		old := lines[i:j]
		keep := make([]int, len(old))
		for k := range keep {
			keep[k] = k
		}
		out, err := ReplaceLines([]byte(content), i, old, old, keep, atEnd)
		if err == nil && !bytes.Equal(out.Content, []byte(content)) {
			t.Fatalf("identity replace of lines %d..%d changed %q into %q", i, j, content, out.Content)
		}
		// the same lines with tabs written as spaces: a match (by the
		// indentation fallback) keeps context lines as the file has them
		spaced := make([]string, len(old))
		for k, l := range old {
			spaced[k] = strings.ReplaceAll(l, "\t", "    ")
		}
		out, err = ReplaceLines([]byte(content), i, spaced, spaced, keep, atEnd)
		if err == nil && !bytes.Equal(out.Content, []byte(content)) {
			t.Fatalf("re-indented identity replace of lines %d..%d changed %q into %q", i, j, content, out.Content)
		}
		if out, err := ReplaceLines([]byte(content), i, nil, nil, nil, atEnd); err != nil || !bytes.Equal(out.Content, []byte(content)) {
			t.Fatalf("inserting nothing changed %q into %q (%v)", content, out.Content, err)
		}
	})
}

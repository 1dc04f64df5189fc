package testbin

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Secret is one entry of the fake-secret corpus
// (internal/redact/testdata/secrets.txt): Text holds a secret of Kind in
// context, and Value (or, for a multi-line key, one line of its body) must
// not appear in any output once Text went through Zero.
type Secret struct {
	Kind, Value, Text string
}

// SecretCorpus reads the fake-secret corpus.
func SecretCorpus(t testing.TB) []Secret {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "redact", "testdata", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Secret
	for _, block := range strings.Split("\n"+string(b), "\n== ")[1:] {
		head, text, _ := strings.Cut(block, "\n")
		kind, value, ok := strings.Cut(head, " ")
		if !ok || value == "" {
			t.Fatalf("secrets.txt: bad header %q", head)
		}
		out = append(out, Secret{Kind: kind, Value: value, Text: strings.TrimRight(text, "\n")})
	}
	if len(out) == 0 {
		t.Fatal("secrets.txt holds no entry")
	}
	return out
}

// SecretText joins the corpus's texts, one blank line between entries,
// as a file a tool would read.
func SecretText(corpus []Secret) string {
	var b strings.Builder
	for _, s := range corpus {
		b.WriteString(s.Text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// Leaks returns the corpus values that appear in out.
func Leaks(corpus []Secret, out string) []string {
	var leaked []string
	for _, s := range corpus {
		if strings.Contains(out, s.Value) {
			leaked = append(leaked, s.Kind+" "+s.Value)
		}
	}
	return leaked
}

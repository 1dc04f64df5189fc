package redact

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/testbin"
)

// Every fake secret of the corpus (testdata/secrets.txt) is masked, alone
// and in one file with all the others, and the text around it is kept.
func TestCorpusSecretsAreMasked(t *testing.T) {
	corpus := testbin.SecretCorpus(t)
	for _, s := range corpus {
		out, n := String(s.Text)
		if n == 0 || strings.Contains(out, s.Value) {
			t.Errorf("%s not masked:\n%s\n->\n%s", s.Kind, s.Text, out)
		}
	}
	all, _ := String(testbin.SecretText(corpus))
	if leaked := testbin.Leaks(corpus, all); len(leaked) > 0 {
		t.Errorf("leaked from the whole corpus: %v", leaked)
	}
	if !strings.Contains(all, "DefaultEndpointsProtocol=https;AccountName=examplefake;") || !strings.Contains(all, "@db.example.com:5432/app") {
		t.Errorf("the text around the secrets was not kept:\n%s", all)
	}
}

// BenchmarkRedactCorpus masks the whole corpus (46 secrets in 9 KB): the
// cost of output that is mostly secrets.
func BenchmarkRedactCorpus(b *testing.B) {
	s := testbin.SecretText(testbin.SecretCorpus(b))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		String(s)
	}
}

// BenchmarkRedactSourceCode scans 1 MB of Go source without a secret
// (the Go distribution's strings package, repeated): the cost every
// ordinary read_file or grep result pays.
func BenchmarkRedactSourceCode(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "strings", "strings.go"))
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.Write(src)
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, n := String(s); n != 0 {
			b.Fatalf("masked %d secrets in strings.go", n)
		}
	}
}

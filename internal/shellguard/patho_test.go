package shellguard

import (
	"strings"
	"testing"
)

// pathological are inputs that once made the guard do exponential or
// cubic work; each must still get a cautious verdict.
func pathological() []string {
	evals := "x"
	for i := 0; i < 40; i++ {
		evals = "eval $(eval " + evals + ")"
	}
	quotes := "x"
	for i := 0; i < 60; i++ {
		quotes = `"$(echo ` + quotes + `)"`
	}
	return []string{
		evals,
		strings.Repeat("find a b c -exec ", 30) + "rm {} ;",
		strings.Repeat("{a,b}", 40) + " x",
		quotes + " x",
		strings.Repeat("a | ", 2000) + "sh",
		strings.Repeat("echo a | xargs ", 200) + "rm",
	}
}

func TestPathological(t *testing.T) {
	for _, cmd := range pathological() {
		if v := Check(cmd, caseOpts); v.Verdict == Allow {
			t.Errorf("Check(%.40q...) = allow, want ask or deny", cmd)
		}
	}
}

func BenchmarkPathological(b *testing.B) {
	cmds := pathological()
	for b.Loop() {
		for _, c := range cmds {
			Check(c, caseOpts)
		}
	}
}

func BenchmarkCheckTypical(b *testing.B) {
	for b.Loop() {
		Check(`go build ./... && go test -race ./... 2>&1 | tee /tmp/out.txt; git push --force`, caseOpts)
	}
}

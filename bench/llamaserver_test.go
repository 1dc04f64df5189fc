package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"

	"github.com/zero-agent/zero/internal/llamatest"
)

// prefillPerSecond is what this project's 2-core machine prefills with a
// 0.5B-shaped model on llama-server's CPU backend (issue 11's figure); the
// test model prefills far faster, so time to first token is derived from
// the server's token count at this rate.
const prefillPerSecond = 35.0

// BenchmarkLlamaServerSession runs a ten-request session (exec, then nine
// exec --resume) against the real llama-server and reports the server's
// own counts: the first request's prompt tokens, the time to first token
// those cost at 35 tokens/s, and the share of each later prompt that came
// from the slot's cache. A change that makes a request anything but the
// previous one plus new messages shows here as a lower cache share.
//
//	go test -run '^$' -bench LlamaServerSession -benchtime 1x ./bench
func BenchmarkLlamaServerSession(b *testing.B) {
	answers := []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"}
	var replies []llamatest.Reply
	for i, a := range answers {
		replies = append(replies, llamatest.Reply{Messages: 3 + 2*i, Text: a})
	}
	srv := llamatest.Serve(b, llamatest.Options{Context: 8192}, replies...)
	var first, prompts, cached float64
	worst := 1.0
	for i := 0; i < b.N; i++ {
		dir, e := b.TempDir(), env(b)
		prev := 0.0
		for j := range answers {
			args := []string{"exec", "-o", "stream-json", "--base-url", srv.V1()}
			if j > 0 {
				args = append(args, "--resume")
			}
			cmd := exec.Command(zeroBin, append(args, fmt.Sprintf("say the number %d", j+1))...)
			cmd.Dir, cmd.Env = dir, e
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("request %d: %v", j+1, err)
			}
			in, hit := usage(b, out)
			if j == 0 {
				first = in
			} else {
				prompts += in
				cached += hit
				worst = min(worst, hit/prev)
			}
			prev = in
		}
	}
	b.ReportMetric(first, "first-request-tokens")
	b.ReportMetric(first/prefillPerSecond, "s-to-first-token@35tps")
	b.ReportMetric(100*cached/prompts, "%-later-prompts-cached")
	b.ReportMetric(100*worst, "%-worst-reuse-of-previous")
}

// usage is the run's one usage event: prompt tokens and cached tokens.
func usage(b *testing.B, out []byte) (in, cached float64) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Type  string
			Usage struct{ InputTokens, CacheReadTokens float64 }
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "usage" {
			return ev.Usage.InputTokens, ev.Usage.CacheReadTokens
		}
	}
	b.Fatal("no usage event")
	return 0, 0
}

package run

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func TestSmallPipedInputIsSentWhole(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	s := openSession(t, rt, Which{})
	got, err := s.WithInput("summarize", "E1 build failed\nE2 link error\n")
	if err != nil || got != "summarize\n\nInput piped on stdin:\n<stdin>\nE1 build failed\nE2 link error\n</stdin>" {
		t.Fatalf("%q, %v", got, err)
	}
	if got, _ := s.WithInput("summarize", "\n\n"); got != "summarize" {
		t.Fatalf("empty input: %q", got)
	}
}

// A 3 MB log piped into a run is kept whole in the session's folder and
// sent as its head and tail: the request fits, the final error reaches
// the model, and the marker says where the rest is.
func TestLargePipedInputIsKeptAndSentCut(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	s := openSession(t, rt, Which{})
	var b strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&b, "step %d: compiling package number %d\n", i, i)
	}
	b.WriteString("FAIL: undefined: frobnicate\n")
	log := b.String()
	got, err := s.WithInput("why does this fail?", log)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > inputInlineMax+1024 {
		t.Fatalf("sent %d bytes of a %d-byte input", len(got), len(log))
	}
	m := regexp.MustCompile(`the whole input \(60001 lines, [0-9.]+ MB\) is in (\S+stdin-1\.txt): read_file`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no marker naming the file:\n%s", got[:min(len(got), 2000)])
	}
	kept, err := os.ReadFile(m[1])
	if err != nil || string(kept) != strings.TrimRight(log, "\n") {
		t.Fatalf("the file does not hold the input (%d bytes, %v)", len(kept), err)
	}
	for _, want := range []string{"step 0: compiling", "FAIL: undefined: frobnicate"} {
		if !strings.Contains(got, want) {
			t.Errorf("sent text lacks %q", want)
		}
	}
	// The session goes on: the prompt is sent and answered.
	srv.Script(llmtest.Reply(llmtest.Text("frobnicate is undefined")))
	if res := s.Prompt(context.Background(), Turn{Prompt: got}); res.Final != "frobnicate is undefined" {
		t.Fatalf("run: %+v", res)
	}
}

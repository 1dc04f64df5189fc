package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndResumeShowsToolCardsAsLive, on the real binary: a session
// whose log holds a read_file call and its result is resumed with
// `zero --resume`, and the transcript shows the turn as the live app did:
// the prompt, the call card, its result headline, each once and in order,
// and the reply wrapped at column 0 line for line.
func TestEndToEndResumeShowsToolCardsAsLive(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	reply := "F returns 2 where its test wants 1, so the test fails on every run; change the constant and the package passes."
	srv.Script(
		llmtest.Reply(llmtest.Text("let me read it\n"), llmtest.ToolCall("read_file", `{"path":"a.go"}`)),
		llmtest.Reply(llmtest.Text(reply)),
	)
	home, work := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "a.go"), []byte("package a\n\nfunc F() int { return 2 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prompt := "why does the test fail"
	x := startZero(t, bin, home, work, "live", 60, 40, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine(prompt)
	x.waitFor("the reply", func(l []string) bool { return contains(l, "package passes.") && contains(l, "ask anything") })
	live := turnShown(x.screen(), prompt)
	x.exit()

	y := startZero(t, bin, home, work, "resumed", 60, 40, "--resume", "--base-url", srv.URL(), "--model", "e2e-model")
	y.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "ask anything") })
	resumed := turnShown(y.screen(), prompt)
	y.exit()

	if len(live) == 0 || !slices.Equal(resumed, live) {
		t.Fatalf("resumed:\n%s\nlive:\n%s", strings.Join(resumed, "\n"), strings.Join(live, "\n"))
	}
	at := 0
	for _, want := range []string{"› " + prompt, "let me read it", "⚙ read_file(a.go)", "↳ 3 lines", "F returns 2"} {
		i := slices.IndexFunc(resumed[at:], func(l string) bool { return strings.HasPrefix(l, want) })
		if i < 0 || countPrefix(resumed, want) != 1 {
			t.Fatalf("%q not shown once after line %d:\n%s", want, at, strings.Join(resumed, "\n"))
		}
		at += i + 1
	}
	if next := resumed[at]; next == "" || strings.HasPrefix(next, " ") {
		t.Errorf("the reply's second row %q does not start at column 0", next)
	}
}

// turnShown is the turn of prompt as the screen shows it: from the
// prompt's line to the end of its reply.
func turnShown(lines []string, prompt string) []string {
	from := slices.Index(lines, "› "+prompt)
	to := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "package passes.") })
	if from < 0 || to < from {
		return nil
	}
	return lines[from : to+1]
}

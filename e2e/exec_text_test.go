package e2e

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestTextModeShowsNudgedReplies: in text mode a reply the loop answered
// with a nudge (a claim that tests pass with no test run, a reply cut off
// by the output limit) is shown on stderr, then the loop's warning and its
// nudge; the final answer is on stdout, exactly once (after a cut, the
// answer is the cut part and its continuation together).
func TestTextModeShowsNudgedReplies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		first   []llmtest.Step
		nudged  string // the first reply as shown
		warning string
		nudge   string
		answer  string // stdout before the final reply's text
	}{
		{
			name:    "unverified test claim",
			first:   []llmtest.Step{llmtest.Text("I fixed the parser. All tests pass.")},
			nudged:  "I fixed the parser. All tests pass.",
			warning: "! the final answer claims tests pass, but no test or build command succeeded in this run; nudging once",
			nudge:   "↻ Zero to the model: Your answer says the tests pass, but no test or build command succeeded in this run.",
		},
		{
			name:    "cut off by the output limit",
			first:   []llmtest.Step{llmtest.Text("Here is the first half of the expl"), llmtest.Finish("length")},
			nudged:  "Here is the first half of the expl",
			warning: "! the reply was cut off by the output token limit; asking the model to continue (1 of 2)",
			nudge:   "↻ Zero to the model: Your reply was cut off by the output limit; continue where you stopped, more briefly.",
			answer:  "Here is the first half of the expl",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			srv := llmtest.NewServer(t)
			const final = "The parser now accepts empty input."
			srv.Script(llmtest.Reply(tc.first...), llmtest.Reply(llmtest.Text(final)))
			r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "fix the parser")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if r.stdout != tc.answer+final+"\n" {
				t.Fatalf("stdout %q, want the final answer once", r.stdout)
			}
			if strings.Contains(r.stderr, final) {
				t.Fatalf("the final answer is also on stderr:\n%s", r.stderr)
			}
			at := func(s string) int {
				i := strings.Index(r.stderr, s)
				if i < 0 {
					t.Fatalf("stderr lacks %q:\n%s", s, r.stderr)
				}
				return i
			}
			if reply, warn, nudge := at(tc.nudged+"\n"), at(tc.warning), at(tc.nudge); !(reply < warn && warn < nudge) {
				t.Fatalf("want reply, warning, nudge in that order:\n%s", r.stderr)
			}
			if n := strings.Count(r.stderr, tc.nudged); n != 1 {
				t.Fatalf("the nudged reply is shown %d times:\n%s", n, r.stderr)
			}
		})
	}
}

// TestTextModeStdoutHoldsOnlyTheFinalAnswer: a reply the loop discarded (a
// stream that broke mid-reply and was retried with a different answer, a
// reply it nudged) never reaches stdout; stdout is the final answer alone,
// so `zero exec "…" > answer.txt` holds just that (issue 10 item 7).
func TestTextModeStdoutHoldsOnlyTheFinalAnswer(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	const final = "Use strings.Cut here."
	srv.Script(
		llmtest.Reply(llmtest.Text("A draft that the broken stream discards"), llmtest.Drop()),
		llmtest.Reply(llmtest.Text(final)),
	)
	r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "how do I split?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != final+"\n" {
		t.Fatalf("stdout %q, want only the final answer", r.stdout)
	}
	if len(completions(srv)) != 2 {
		t.Fatalf("%d requests, want the broken one and its retry", len(completions(srv)))
	}
}

func TestTextModeNeutralisesEscapesAndShowsTheAnswerOnce(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Text("Looking.\x1b]0;TITLEHACK\x07"), tc("e1", "bash", `{"command":"printf '\\033[2J'; echo visible"}`)),
		llmtest.Reply(llmtest.Text("The answer is 42.")),
	)
	r := e.run(t.TempDir(), "", "exec", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "go")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("escape sequence reached the terminal: %q", r.stderr)
	}
	if !strings.Contains(r.stderr, "Looking.") || !strings.Contains(r.stderr, "visible") {
		t.Fatalf("progress lost text: %q", r.stderr)
	}
	if strings.Contains(r.stderr, "The answer is 42.") || strings.TrimSpace(r.stdout) != "The answer is 42." {
		t.Fatalf("final answer should be on stdout only: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

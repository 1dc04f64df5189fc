package tui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// runInTerm starts the real program in a w×h virtual terminal and returns
// the terminal, the keyboard and a wait function that types ^D and waits
// for the program to end.
func runInTerm(t *testing.T, f *fakeBackend, opts Options, w, h int) (*vterm, io.Writer, func()) {
	t.Helper()
	scr := newTerm(w, h)
	inR, inW := keyboard(scr)
	opts.Width, opts.Height = w, h
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), f, RunOptions{Options: opts, Input: inR, Output: scr, Env: []string{"TERM=xterm-256color"}})
	}()
	return scr, inW, func() {
		io.WriteString(inW, "\x04")
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		inW.Close()
	}
}

// TestResumeAtStartShowsEverything: `zero --resume` (Options.Resumed) and
// /resume inside the app show the same lines, each exactly once.
func TestResumeAtStartShowsEverything(t *testing.T) {
	tests := []struct {
		turns, w, h int
	}{
		{5, 80, 24},
		{15, 100, 30},
		{40, 60, 12},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d turns %dx%d", tt.turns, tt.w, tt.h), func(t *testing.T) {
			r := Resumed{ID: "s7"}
			var want []string
			for i := 1; i <= tt.turns; i++ {
				q, a := fmt.Sprintf("question number %d", i), fmt.Sprintf("answer number %d", i)
				r.History = append(r.History, llm.TextMessage(llm.RoleUser, q), llm.TextMessage(llm.RoleAssistant, a+"\nsecond line"))
				want = append(want, "› "+q, a)
			}
			want = append(want, fmt.Sprintf("resumed session s7 (%d messages)", 2*tt.turns))

			f := newFake()
			scr, _, done := runInTerm(t, f, Options{Greeting: "zero dev", Resumed: &r}, tt.w, tt.h)
			scr.waitFor(t, "the last answer and the footer", func(l []string) bool {
				return contains(l, fmt.Sprintf("answer number %d", tt.turns)) && contains(l, "qwen3-coder")
			})
			atStart := scr.lines()
			done()

			f = newFake()
			f.resumed = r
			scr, kb, done := runInTerm(t, f, Options{Greeting: "zero dev"}, tt.w, tt.h)
			scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
			io.WriteString(kb, "/resume s7\r")
			scr.waitFor(t, "the last answer", func(l []string) bool {
				return contains(l, fmt.Sprintf("answer number %d", tt.turns)) && !contains(l, "interrupt")
			})
			inApp := scr.lines()
			done()

			for _, w := range want {
				if n := countExact(atStart, w); n != 1 {
					t.Errorf("at start %q shown %d times:\n%s", w, n, strings.Join(atStart, "\n"))
				}
				if n := countExact(inApp, w); n != 1 {
					t.Errorf("/resume %q shown %d times:\n%s", w, n, strings.Join(inApp, "\n"))
				}
			}
			if n := countExact(atStart, "zero dev"); n != 1 {
				t.Errorf("greeting shown %d times", n)
			}
			if a, b := transcript(atStart, tt.turns), transcript(inApp, tt.turns); !slices.Equal(a, b) {
				t.Errorf("at start:\n%s\n/resume:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
		})
	}
}

func countExact(lines []string, want string) int {
	n := 0
	for _, l := range lines {
		if l == want {
			n++
		}
	}
	return n
}

// transcript is the resumed conversation as shown: from its heading to
// the last answer.
func transcript(lines []string, turns int) []string {
	from := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "resumed session") })
	to := slices.Index(lines, fmt.Sprintf("answer number %d", turns))
	if from < 0 || to < from {
		return nil
	}
	return lines[from : to+1]
}

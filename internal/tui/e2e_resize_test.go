package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndResizeWhileStreaming resizes the tmux pane (height and
// width, shrinking and growing) while a reply streams, each line in two
// pieces so the live region holds an unfinished line: every streamed line
// ends up in the scrollback exactly once and nothing of the live region is
// left behind (issue 4: "resize while streaming re-wraps without
// duplicating scrollback"; lines printed just before a height shrink used
// to be lost).
//
// A burst that narrows the pane is checked for the transcript only: a
// terminal rewraps the live region's rows above the cursor (the status
// line, the input box's top rule) at the instant it resizes, and tmux tells
// the program up to 250 ms later when resizes come faster than that
// (server_client_check_pane_resize), while the tty still reports the old
// size; frames drawn in between move the cursor by the old rows, so rows
// of the old live region stay in the scrollback (most prints of the burst
// leave one). No streamed line is lost or repeated in any case;
// TestEndToEndNarrowingKeepsOneCopy checks single narrowings of a long
// paragraph and an idle narrowing.
func TestEndToEndResizeWhileStreaming(t *testing.T) {
	bin := buildZero(t)
	for _, tc := range []struct {
		name     string
		sizes    [][2]int
		gap      time.Duration
		liveRows bool // check that no row of the live region is left behind
	}{
		{"height", [][2]int{{90, 20}, {90, 30}, {90, 14}, {90, 26}, {90, 12}}, 350 * time.Millisecond, true},
		{"height-burst", [][2]int{{90, 18}, {90, 30}, {90, 14}, {90, 26}, {90, 10}, {90, 30}, {90, 12}, {90, 24}}, 100 * time.Millisecond, true},
		{"widen", [][2]int{{100, 30}, {110, 20}, {120, 34}}, 350 * time.Millisecond, true},
		// Narrowing at a person's pace: well past tmux's 250 ms, with room
		// for a loaded machine (at 350 ms a busy CI run left the status
		// line behind about one run in ten).
		{"narrow-and-widen", [][2]int{{60, 30}, {100, 30}, {50, 20}, {90, 24}, {70, 16}, {120, 34}}, 750 * time.Millisecond, true},
		{"mixed-burst", [][2]int{{90, 20}, {70, 30}, {60, 16}, {90, 24}, {50, 12}, {100, 30}}, 100 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			// The reply streams for 40 ms a line: long enough to outlast
			// the resizes.
			n := max(90, int(time.Duration(len(tc.sizes))*tc.gap/(40*time.Millisecond))+40)
			var steps []llmtest.Step
			for i := 1; i <= n; i++ {
				steps = append(steps,
					llmtest.Text(fmt.Sprintf("streamed line %02d ", i)), llmtest.Stall(20*time.Millisecond),
					llmtest.Text("of the reply, long enough to wrap when the pane gets narrow\n"), llmtest.Stall(20*time.Millisecond))
			}
			srv.Script(llmtest.Reply(steps...))
			home, work := t.TempDir(), t.TempDir()
			x := startZero(t, bin, home, work, "r", 90, 30, "--base-url", srv.URL(), "--model", "e2e-model")
			x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
			x.typeLine("stream please")
			x.waitFor("streaming", func(l []string) bool { return contains(l, "streamed line 05") })
			for _, size := range tc.sizes {
				x.run("resize-window", "-t", "zero", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
				time.Sleep(tc.gap)
			}
			x.waitFor("the end of the reply", func(l []string) bool {
				return contains(l, fmt.Sprintf("streamed line %02d", n)) && contains(l, "ask anything")
			})
			lines := x.screen()
			for i := 1; i <= n; i++ {
				if c := count(lines, fmt.Sprintf("streamed line %02d of the reply", i)); c != 1 {
					t.Errorf("streamed line %02d appears %d times", i, c)
				}
			}
			if c := count(lines, "esc esc to interrupt"); tc.liveRows && c != 0 {
				t.Errorf("the status line was left behind %d times", c)
			}
			if c := count(lines, "· normal"); c != 1 {
				t.Errorf("the footer appears %d times", c)
			}
			if t.Failed() {
				t.Logf("screen:\n%s", strings.Join(lines, "\n"))
			}
			x.exit()
		})
	}
}

// TestEndToEndNarrowingKeepsOneCopy is the QA report on narrowing: while a
// long paragraph streams (its unfinished lines fill the live region) and
// while idle with a footer that has to wrap, narrowing the pane leaves no
// second copy of the live region in the scrollback. tmux scrolls the
// screen into its history when the erase starts on the screen's first
// row (scroll-on-clear); erase.go keeps the erase from looking like that.
// A long paragraph hands its finished rows to the scrollback as it
// streams (markdown.Stream), so the live region stays short enough to
// survive the rewrap.
func TestEndToEndNarrowingKeepsOneCopy(t *testing.T) {
	bin := buildZero(t)
	// dupRows: rows a narrowing may leave twice. On a 15-row pane the
	// renderer has rewritten a live row shorter ("erase to the end of the
	// line") and tmux still rewraps it by its old length, which the app
	// cannot see; counting it anyway (tried) overshoots elsewhere and
	// erases transcript rows, which is worse.
	for _, size := range []struct{ w, h, to, dupRows int }{{100, 30, 80, 0}, {80, 15, 60, 1}} {
		t.Run(fmt.Sprintf("streaming paragraph %dx%d to %d", size.w, size.h, size.to), func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			const n = 150
			var steps []llmtest.Step
			for i := 1; i <= n; i++ {
				steps = append(steps, llmtest.Text(fmt.Sprintf("W%03d lorem ipsum dolor sit ", i)), llmtest.Stall(20*time.Millisecond))
			}
			srv.Script(llmtest.Reply(steps...))
			x := startZero(t, bin, t.TempDir(), t.TempDir(), "p", size.w, size.h, "--base-url", srv.URL(), "--model", "e2e-model")
			x.waitFor("the footer", func(l []string) bool { return contains(l, "· normal") })
			x.typeLine("a long paragraph please")
			x.waitFor("the paragraph", func(l []string) bool { return contains(l, "W040") })
			x.run("resize-window", "-t", "zero", "-x", fmt.Sprint(size.to), "-y", fmt.Sprint(size.h))
			x.waitFor("the end of the reply", func(l []string) bool { return contains(l, fmt.Sprintf("W%03d", n)) && contains(l, "ask anything") })
			all := strings.Join(x.screen(), "\n")
			twice := 0
			for i := 1; i <= n; i++ {
				switch c := strings.Count(all, fmt.Sprintf("W%03d", i)); {
				case c == 2:
					twice++
				case c != 1:
					t.Errorf("W%03d appears %d times", i, c)
				}
			}
			if twice > size.dupRows*(size.w/28+1) { // a row holds w/28 words
				t.Errorf("%d words appear twice (more than %d rows)", twice, size.dupRows)
			}
			if c := strings.Count(all, "esc esc to interrupt"); c != 0 {
				t.Errorf("the status line was left behind %d times", c)
			}
			if t.Failed() {
				t.Logf("screen:\n%s", all)
			}
			x.exit()
		})
	}
	t.Run("idle, footer wraps", func(t *testing.T) {
		t.Parallel()
		srv := llmtest.NewServer(t)
		x := startZero(t, bin, t.TempDir(), t.TempDir(), "i", 100, 30, "--base-url", srv.URL(), "--model", "a-rather-long-model-name-for-the-footer")
		x.waitFor("the footer", func(l []string) bool { return contains(l, "· normal") })
		x.run("resize-window", "-t", "zero", "-x", "50", "-y", "30")
		x.waitFor("the narrow footer", func(l []string) bool {
			return contains(l, "ctx (") && !contains(l, "127.0.0.1:"+strings.Split(srv.URL(), ":")[2]+" · ~")
		})
		time.Sleep(300 * time.Millisecond) // let any late redraw land
		lines := x.screen()
		if c := count(lines, "ask anything"); c != 1 {
			t.Errorf("the input box appears %d times:\n%s", c, strings.Join(lines, "\n"))
		}
		x.exit()
	})
}

// TestEndToEndTypedWhileStarting: a prompt typed with Enter as zero starts
// (before raw mode, before the first frame) is sent, and the opening lines
// stay on screen (second QA: the print before the first frame went up over
// them, and Enter had become a newline).
func TestEndToEndTypedWhileStarting(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("answered early\n")))
	x := startZero(t, bin, t.TempDir(), t.TempDir(), "e", 100, 30, "--base-url", srv.URL(), "--model", "e2e-model")
	x.typeLine("early typed prompt")
	x.waitFor("the reply", func(l []string) bool { return contains(l, "answered early") && contains(l, "ask anything") })
	lines := x.screen()
	for _, want := range []string{"zero dev · e2e-model", "› early typed prompt", "answered early"} {
		if c := count(lines, want); c != 1 {
			t.Errorf("%q appears %d times:\n%s", want, c, strings.Join(lines, "\n"))
		}
	}
	x.exit()
}

// TestEndToEndResizeWithPromptOpen: narrowing, widening and narrowing the
// pane while a permission prompt waits leaves one prompt on screen and none
// in the scrollback (second QA: each resize left a full copy of it).
func TestEndToEndResizeWithPromptOpen(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Text("About to write file 1.\n"), llmtest.ToolCall("write_file", `{"path":"w0.txt","content":"line one\nline two\n"}`)),
		llmtest.Reply(llmtest.Text("done writing\n")),
	)
	x := startZero(t, bin, t.TempDir(), t.TempDir(), "w", 60, 30, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "· normal") })
	x.typeLine("write it")
	x.waitFor("the prompt", func(l []string) bool { return contains(l, "allow write_file?") })
	for _, w := range []int{40, 120, 60} {
		x.run("resize-window", "-t", "zero", "-x", fmt.Sprint(w), "-y", "30")
		time.Sleep(400 * time.Millisecond)
	}
	x.waitFor("the prompt at 60 columns", func(l []string) bool { return contains(l, "[n] deny") })
	lines := x.screen()
	for _, want := range []string{"allow write_file?", "› write it", "About to write file 1."} {
		if c := count(lines, want); c != 1 {
			t.Errorf("%q appears %d times:\n%s", want, c, strings.Join(lines, "\n"))
		}
	}
	pause()
	x.run("send-keys", "-t", "zero", "n")
	x.waitFor("the reason field", func(l []string) bool { return contains(l, "reason (enter sends") })
	x.run("send-keys", "-t", "zero", "Enter")
	x.waitFor("the end", func(l []string) bool { return contains(l, "done writing") && contains(l, "ask anything") })
	x.exit()
}

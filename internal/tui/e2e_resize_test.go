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
// Narrowing is checked for the transcript only: a terminal rewraps the
// live region's rows above the cursor (the status line, the input box's
// top rule) at the instant it resizes, and output the program wrote just
// before it learned of the resize (bytes still in the pty, or tmux's
// notice, which comes up to 250 ms late in a burst:
// server_client_check_pane_resize) moves the cursor by the old rows, so a
// row of the old live region can stay in the scrollback. No streamed line
// is lost or repeated in any case.
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
		{"narrow-and-widen", [][2]int{{60, 30}, {100, 30}, {50, 20}, {90, 24}, {70, 16}, {120, 34}}, 350 * time.Millisecond, false},
		{"mixed-burst", [][2]int{{90, 20}, {70, 30}, {60, 16}, {90, 24}, {50, 12}, {100, 30}}, 100 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			const n = 90
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
			if c := count(lines, "ctx (8%) · normal"); c != 1 {
				t.Errorf("the footer appears %d times", c)
			}
			if t.Failed() {
				t.Logf("screen:\n%s", strings.Join(lines, "\n"))
			}
			x.exit()
		})
	}
}

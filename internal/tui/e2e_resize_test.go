package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndResizeWhileStreaming resizes the tmux pane (height and
// width, shrinking and growing, at a person's pace and in bursts 100 ms
// apart) while a reply streams: lines, each in two pieces so the live
// region holds an unfinished line, or one long paragraph. Every streamed
// line (every word of the paragraph) ends up in the scrollback exactly
// once and nothing of the live region is left behind (issue 4: "resize
// while streaming re-wraps without duplicating scrollback"; lines printed
// just before a height shrink used to be lost, and narrowing on a busy
// machine left the status line behind: reflow.go).
//
// tmux tells the program of a resize up to 250 ms late when they come
// faster than that (server_client_check_pane_resize), while it rewraps its
// rows at once; the bursts draw for a size the pane no longer has.
//
// A paragraph is resized wider, taller and shorter here, narrowed twice
// (60 then 45 columns) and narrowed then widened; a single narrowing of
// one is TestEndToEndNarrowingKeepsOneCopy. The two narrowing cases once
// left one clipped row of the old region in tmux's history in 1 run of 10
// and were left out for a while; a rewrap that lands between two reads of
// one write, while the renderer draws a row wider than the new width,
// would still do it (the cursor goes with the part of that row it had
// reached).
//
// zero starts in a fresh pane, high on a screen that is not full. There
// tmux keeps the empty rows below the live region when it rewraps, and a
// narrowing that added more rows to the region than there were rows above
// it moved the region's first row into the history, where it stayed twice
// (the paragraph narrowed twice: 7 rows added, 6 above; about one run in
// eight under load, first seen in CI). The region now starts at the
// bottom of the screen (pin.go).
func TestEndToEndResizeWhileStreaming(t *testing.T) {
	bin := buildZero(t)
	for _, tc := range []struct {
		name      string
		sizes     [][2]int
		gap       time.Duration
		paragraph bool
	}{
		{"height", [][2]int{{90, 20}, {90, 30}, {90, 14}, {90, 26}, {90, 12}}, 350 * time.Millisecond, false},
		{"height-burst", [][2]int{{90, 18}, {90, 30}, {90, 14}, {90, 26}, {90, 10}, {90, 30}, {90, 12}, {90, 24}}, 100 * time.Millisecond, false},
		{"widen", [][2]int{{100, 30}, {110, 20}, {120, 34}}, 350 * time.Millisecond, false},
		{"narrow-and-widen", [][2]int{{60, 30}, {100, 30}, {50, 20}, {90, 24}, {70, 16}, {120, 34}}, 350 * time.Millisecond, false},
		{"narrow-burst", [][2]int{{80, 30}, {70, 30}, {60, 30}, {50, 30}, {40, 30}, {60, 30}}, 100 * time.Millisecond, false},
		{"mixed-burst", [][2]int{{90, 20}, {70, 30}, {60, 16}, {90, 24}, {50, 12}, {100, 30}}, 100 * time.Millisecond, false},
		{"paragraph-widen", [][2]int{{100, 30}, {120, 30}}, 350 * time.Millisecond, true},
		{"paragraph-height", [][2]int{{90, 20}, {90, 30}, {90, 16}}, 350 * time.Millisecond, true},
		{"paragraph-narrow-twice", [][2]int{{60, 30}, {45, 30}}, 350 * time.Millisecond, true},
		{"paragraph-narrow-and-widen", [][2]int{{60, 30}, {100, 30}}, 350 * time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			// The reply streams for 40 ms a line (a word every 20 ms):
			// long enough to outlast the resizes.
			n := max(90, int(time.Duration(len(tc.sizes))*tc.gap/(40*time.Millisecond))+40)
			var steps []llmtest.Step
			for i := 1; i <= n; i++ {
				if tc.paragraph {
					steps = append(steps, llmtest.Text(fmt.Sprintf("W%03d lorem ipsum dolor sit ", i)), llmtest.Stall(20*time.Millisecond),
						llmtest.Text(fmt.Sprintf("X%03d amet ", i)), llmtest.Stall(20*time.Millisecond))
					continue
				}
				steps = append(steps,
					llmtest.Text(fmt.Sprintf("streamed line %02d ", i)), llmtest.Stall(20*time.Millisecond),
					llmtest.Text("of the reply, long enough to wrap when the pane gets narrow\n"), llmtest.Stall(20*time.Millisecond))
			}
			srv.Script(llmtest.Reply(steps...))
			x := startZero(t, bin, t.TempDir(), t.TempDir(), "r", 90, 30, "--base-url", srv.URL(), "--model", "e2e-model")
			x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
			x.typeLine("stream please")
			first, last := "streamed line 05", fmt.Sprintf("streamed line %02d", n)
			if tc.paragraph {
				first, last = "W005", fmt.Sprintf("X%03d", n)
			}
			x.waitFor("streaming", func(l []string) bool { return contains(l, first) })
			for _, size := range tc.sizes {
				x.run("resize-window", "-t", "zero", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
				time.Sleep(tc.gap)
			}
			x.waitFor("the end of the reply", func(l []string) bool { return contains(l, last) && contains(l, "ask anything") })
			lines := x.screen()
			all := strings.Join(lines, "\n")
			for i := 1; i <= n; i++ {
				if tc.paragraph {
					for _, w := range []string{fmt.Sprintf("W%03d", i), fmt.Sprintf("X%03d", i)} {
						if c := strings.Count(all, w); c != 1 {
							t.Errorf("%q appears %d times", w, c)
						}
					}
				} else if c := count(lines, fmt.Sprintf("streamed line %02d of the reply", i)); c != 1 {
					t.Errorf("streamed line %02d appears %d times", i, c)
				}
			}
			checkLiveRegionOnce(t, lines)
			x.exit()
		})
	}
}

// checkLiveRegionOnce fails t unless the pane's history and screen hold
// the idle live region once and no row of a turn's live region (the status
// line, a permission prompt).
func checkLiveRegionOnce(t *testing.T, lines []string) {
	t.Helper()
	for want, n := range map[string]int{"esc esc to interrupt": 0, "waiting for your answer": 0, "allow write_file?": 0, "ask anything": 1, "· normal": 1} {
		if c := count(lines, want); c != n {
			t.Errorf("%q appears %d times, want %d", want, c, n)
		}
	}
	if t.Failed() {
		t.Logf("screen:\n%s", strings.Join(lines, "\n"))
	}
}

// TestEndToEndNarrowingKeepsOneCopy is the QA report on narrowing: while a
// long paragraph streams (its unfinished lines fill the live region) and
// while idle with a footer that has to wrap, narrowing the pane leaves no
// second copy of the live region in the scrollback and every word of the
// paragraph exactly once. tmux scrolls the screen into its history when
// the erase starts on the screen's first row (scroll-on-clear); erase.go
// keeps the erase from looking like that. A long paragraph hands its
// finished rows to the scrollback as it streams (markdown.Stream), so the
// live region stays short enough to survive the rewrap.
//
// The 15-row pane narrowed to 60 columns once left one paragraph row twice
// in every run: the renderer shortens a live row with "erase to the end of
// the line", which leaves the row's count of used cells at its old length,
// tmux splits a row by that count when it rewraps (grid_reflow,
// https://github.com/tmux/tmux/blob/3.3a/grid.c), so the row took one row
// more than its text, and the erase, placed by counting from the frame's
// text the rows the rewrap added above the cursor (then in the input box),
// started one row low. Since the cursor rests on the region's
// first cell (reflow.go), which tmux carries with it through the rewrap
// (screen_reflow, https://github.com/tmux/tmux/blob/3.3a/screen.c), such
// rows lie below the cursor and the erase takes them.
//
// Not covered, and known to fail: narrowing a 15-row pane to under half
// its width (80 to 30). Each live row then rewraps into three, the live
// region grows taller than the pane, and tmux moves its top rows, the
// resting cell's included, into the history, where no erase reaches
// (screen_resize_y in screen.c, as above); one streamed row is left there.
func TestEndToEndNarrowingKeepsOneCopy(t *testing.T) {
	bin := buildZero(t)
	for _, size := range []struct{ w, h, to int }{{100, 30, 80}, {80, 15, 60}, {80, 15, 45}} {
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
			for i := 1; i <= n; i++ {
				if c := strings.Count(all, fmt.Sprintf("W%03d", i)); c != 1 {
					t.Errorf("W%03d appears %d times", i, c)
				}
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

// TestEndToEndResizeWithPromptOpen: narrowing, widening and height
// changes, at a person's pace and in bursts 100 ms apart, while a
// permission prompt waits below a reply that filled the screen leave one
// prompt on screen and none in the scrollback (second QA: each resize left
// a full copy of it), and every line of the reply once.
func TestEndToEndResizeWithPromptOpen(t *testing.T) {
	bin := buildZero(t)
	for _, tc := range []struct {
		name  string
		sizes [][2]int
		gap   time.Duration
	}{
		{"narrow-and-widen", [][2]int{{40, 30}, {120, 30}, {60, 30}}, 350 * time.Millisecond},
		{"height", [][2]int{{60, 20}, {60, 34}, {60, 16}, {60, 30}}, 350 * time.Millisecond},
		{"burst", [][2]int{{45, 30}, {90, 20}, {40, 34}, {100, 16}, {50, 24}, {60, 30}}, 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			var reply strings.Builder
			for i := 1; i <= 40; i++ {
				fmt.Fprintf(&reply, "context line %02d of the reply, long enough to wrap when narrow\n", i)
			}
			srv.Script(
				llmtest.Reply(llmtest.Text(reply.String()), llmtest.ToolCall("write_file", `{"path":"w0.txt","content":"line one\nline two\n"}`)),
				llmtest.Reply(llmtest.Text("done writing\n")),
			)
			x := startZero(t, bin, t.TempDir(), t.TempDir(), "w", 60, 30, "--base-url", srv.URL(), "--model", "e2e-model")
			x.waitFor("the footer", func(l []string) bool { return contains(l, "· normal") })
			x.typeLine("write it")
			x.waitFor("the prompt", func(l []string) bool { return contains(l, "allow write_file?") })
			for _, size := range tc.sizes {
				x.run("resize-window", "-t", "zero", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
				time.Sleep(tc.gap)
			}
			x.waitFor("the prompt at 60 columns", func(l []string) bool { return contains(l, "[n] deny") })
			lines := x.screen()
			for _, want := range []string{"allow write_file?", "› write it", "waiting for your answer"} {
				if c := count(lines, want); c != 1 {
					t.Errorf("%q appears %d times:\n%s", want, c, strings.Join(lines, "\n"))
				}
			}
			pause()
			x.run("send-keys", "-t", "zero", "n")
			x.waitFor("the reason field", func(l []string) bool { return contains(l, "reason (enter sends") })
			x.run("send-keys", "-t", "zero", "Enter")
			x.waitFor("the end", func(l []string) bool { return contains(l, "done writing") && contains(l, "ask anything") })
			lines = x.screen()
			for i := 1; i <= 40; i++ {
				if c := count(lines, fmt.Sprintf("context line %02d of the reply", i)); c != 1 {
					t.Errorf("context line %02d appears %d times", i, c)
				}
			}
			checkLiveRegionOnce(t, lines)
			x.exit()
		})
	}
}

package tui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/event"
)

// reflow resizes the terminal the way tmux does (screen_resize_y, then
// screen_reflow in tmux's screen.c): a shorter screen first deletes the
// rows below the cursor, whatever they hold, and pushes the rest into the
// scrollback; a row wider than the new width is rewrapped onto more rows
// (by what it shows),
// the cursor moves with its cell and the bottom of the content stays at
// the bottom (x/vt's own Resize truncates rows, like xterm). Only text is
// kept.
func (t *vterm) reflow(w, h int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var old []string
	if sb := t.emu.Scrollback(); sb != nil {
		for _, l := range sb.Lines() {
			old = append(old, strings.TrimRight(l.String(), " "))
		}
	}
	pos := t.emu.CursorPosition()
	cur := len(old) + pos.Y
	screen := strings.Split(t.emu.String(), "\n")
	if needed := len(screen) - h; needed > 0 {
		below := len(screen) - 1 - pos.Y
		screen = screen[:len(screen)-min(needed, below)]
	}
	for _, l := range screen {
		old = append(old, strings.TrimRight(l, " "))
	}
	end := len(old) // empty rows below the cursor are not content
	for end > cur+1 && old[end-1] == "" {
		end--
	}
	var rows []string
	curRow := 0
	for i, l := range old[:end] {
		if i == cur {
			curRow = len(rows) + pos.X/w
		}
		r := []rune(l)
		for len(r) > w {
			rows = append(rows, string(r[:w]))
			r = r[w:]
		}
		rows = append(rows, string(r))
	}
	t.emu.Resize(w, h)
	t.emu.WriteString("\x1b[H\x1b[2J")
	t.emu.ClearScrollback()
	t.emu.WriteString(strings.Join(rows, "\r\n"))
	top := max(len(rows)-h, 0)
	t.emu.WriteString(ansi.CursorPosition(pos.X%w+1, curRow-top+1))
}

// TestTerminalReflowWhileStreaming narrows a terminal that rewraps its rows
// (tmux) in the middle of a reply (issue 4: "resize while streaming
// re-wraps without duplicating scrollback"): every transcript line shows
// once and no row of the old live region (status line, rules, the
// streaming tail) is left behind.
func TestTerminalReflowWhileStreaming(t *testing.T) {
	for _, size := range []struct{ from, to int }{{60, 30}, {80, 40}, {100, 60}} {
		t.Run(fmt.Sprintf("%dto%d", size.from, size.to), func(t *testing.T) {
			f := newFake()
			g := newGate()
			f.script["go"] = g.play
			scr := newTerm(size.from, 16)
			inR, inW := keyboard(scr)
			p, _ := newProgram(context.Background(), f, RunOptions{
				Options: Options{Width: size.from, Height: 16, Tick: -1},
				Input:   inR, Output: scr, Env: []string{"TERM=xterm-kitty"},
			})
			errc := make(chan error, 1)
			go func() { _, err := p.Run(); errc <- err }()
			scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
			io.WriteString(inW, "go\r")
			scr.waitFor(t, "the turn", func(l []string) bool { return contains(l, "interrupt") })
			var sent strings.Builder
			for i := range 20 {
				fmt.Fprintf(&sent, "row-%03d\n", i)
			}
			tail := "an unfinished line " + strings.Repeat("that keeps going ", size.from/17)
			g.events <- text(sent.String() + tail)
			<-g.ack
			scr.waitFor(t, "the stream", func(l []string) bool { return contains(l, "row-019") && contains(l, "an unfinished line") })

			scr.reflow(size.to, 16)
			p.Send(tea.WindowSizeMsg{Width: size.to, Height: 16})
			g.events <- text("\nlast line\n")
			<-g.ack
			g.done <- event.StopCompleted
			scr.waitFor(t, "the end of the turn", func(l []string) bool {
				return contains(l, "last line") && contains(l, "ask anything") && !contains(l, "interrupt")
			})

			lines := scr.lines()
			t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
			for i := range 20 {
				if n := count(lines, fmt.Sprintf("row-%03d", i)); n != 1 {
					t.Errorf("row-%03d shown %d times", i, n)
				}
			}
			for _, want := range []string{"› go", "an unfinished line", "last line", "ask anything"} {
				if n := count(lines, want); n != 1 {
					t.Errorf("%q shown %d times", want, n)
				}
			}
			rules := 0
			for _, l := range lines {
				if l != "" && strings.Trim(l, "─") == "" {
					rules++
				}
			}
			if rules != 2 {
				t.Errorf("%d rule rows, want the input box's 2", rules)
			}
			io.WriteString(inW, "\x04")
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
			inW.Close()
		})
	}
}

// TestTerminalShrinkRaceWhileStreaming is the height half of issue 4's
// "resize while streaming": the terminal gets shorter and deletes the rows
// below the cursor (the live region's lower rows), lines are printed
// before the program hears of the resize (tmux tells it up to 250 ms
// late), then the resize arrives. Every line shows once and nothing of the
// old live region is left behind.
func TestTerminalShrinkRaceWhileStreaming(t *testing.T) {
	for _, to := range []int{20, 12} {
		t.Run(fmt.Sprintf("30to%d", to), func(t *testing.T) {
			f := newFake()
			g := newGate()
			f.script["go"] = g.play
			scr := newTerm(80, 30)
			inR, inW := keyboard(scr)
			p, _ := newProgram(context.Background(), f, RunOptions{
				Options: Options{Width: 80, Height: 30, Tick: -1},
				Input:   inR, Output: scr, Env: []string{"TERM=xterm-kitty"},
			})
			errc := make(chan error, 1)
			go func() { _, err := p.Run(); errc <- err }()
			scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
			io.WriteString(inW, "go\r")
			scr.waitFor(t, "the turn", func(l []string) bool { return contains(l, "interrupt") })
			send := func(from, to int) {
				for i := from; i < to; i++ {
					g.events <- text(fmt.Sprintf("row-%03d\n", i))
					<-g.ack
				}
				last := fmt.Sprintf("row-%03d", to-1)
				scr.waitFor(t, last, func(l []string) bool { return contains(l, last) })
			}
			send(0, 20)
			scr.reflow(80, to)
			send(20, 26) // printed before the program knows
			p.Send(tea.WindowSizeMsg{Width: 80, Height: to})
			send(26, 40)
			g.done <- event.StopCompleted
			scr.waitFor(t, "the end of the turn", func(l []string) bool {
				return contains(l, "ask anything") && !contains(l, "interrupt")
			})

			lines := scr.lines()
			for i := range 40 {
				if n := count(lines, fmt.Sprintf("row-%03d", i)); n != 1 {
					t.Errorf("row-%03d shown %d times", i, n)
				}
			}
			rules := 0
			for _, l := range lines {
				if l != "" && strings.Trim(l, "─") == "" {
					rules++
				}
			}
			if rules != 2 || count(lines, "esc esc") != 0 {
				t.Errorf("%d rule rows (want the input box's 2), %d status lines (want 0)", rules, count(lines, "esc esc"))
			}
			if t.Failed() {
				t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
			}
			io.WriteString(inW, "\x04")
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
			inW.Close()
		})
	}
}

// TestSteadyInsert rewrites Bubble Tea's print above a 5-row frame
// (bubbletea v2.1 cursedRenderer.insertAbove) into one that starts on the
// frame's first row, where the cursor rests, and ends there.
func TestSteadyInsert(t *testing.T) {
	frame := []string{"status", "rule", "› input", "rule", "footer"}
	in := "\r\x1b[4B\n\n\x1b[6A\x1b[2Lone\x1b[K\r\ntwo\x1b[K\r\n"
	got, ok := steadyInsert([]byte(in), frame)
	want := "\r\x1b[2Kone\x1b[K\r\n\x1b[2Ktwo\x1b[K\r\n\x1b[?7l\x1b[2Kstatus\x1b[K\r\n\x1b[2Krule\x1b[K\r\n\x1b[2K› input\x1b[K\r\n\x1b[2Krule\x1b[K\r\n\x1b[2Kfooter\x1b[K\x1b[J\x1b[?7h\r\x1b[4A"
	if !ok || string(got) != want {
		t.Errorf("steadyInsert = %q, %v\nwant %q", got, ok, want)
	}
	// Before the first frame the renderer's row is -1: it moves down the
	// whole height.
	if pr, ok := parseInsert([]byte("\r\x1b[30B\n\x1b[30A\x1b[Lx\x1b[K\r\n")); !ok || pr.row != 0 || pr.height != 30 {
		t.Errorf("print before the first frame: %+v %v", pr, ok)
	}
	for _, bad := range []string{"", "x", "\r\x1b[2B\n\x1b[6A\x1b[2Lone\x1b[K\r\n", "\r\x1b[2Bone\x1b[K\r\n", "\r\n\x1b[3A\x1b[1Mx\x1b[K\r\n"} {
		if _, ok := steadyInsert([]byte(bad), frame); ok {
			t.Errorf("steadyInsert(%q) accepted", bad)
		}
	}
}

// FuzzSteadyInsert: any input is rewritten or refused without a panic; a
// rewrite starts at the frame's first row and ends back on it.
func FuzzSteadyInsert(f *testing.F) {
	f.Add([]byte("\r\x1b[2B\n\n\x1b[6A\x1b[2Lone\x1b[K\r\ntwo\x1b[K\r\n"))
	f.Add([]byte("\r\n\x1b[A\x1b[L\x1b[K\r\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		out, ok := steadyInsert(p, []string{"a", "b"})
		if ok && (!bytes.HasPrefix(out, []byte("\r")) || !bytes.HasSuffix(out, []byte("b\x1b[K\x1b[J\x1b[?7h\r\x1b[A"))) {
			t.Fatalf("rewrite %q of %q", out, p)
		}
	})
}

// TestKeepErase: an erase below at column 0 never reaches the terminal as
// ED (tmux would scroll the screen into its history if the cursor were on
// the top-left cell); one after text on the row stays, unless the renderer
// wrote it (it erases only at column 0).
func TestKeepErase(t *testing.T) {
	for _, tc := range []struct {
		in         string
		byRenderer bool
		want       string
	}{
		{"\r\x1b[3A\x1b[J", false, "\r\x1b[3A\x1b[2G\x1b[J\x1b[2K\r"},
		{"line\r\n\x1b[J", false, "line\r\n\x1b[2G\x1b[J\x1b[2K\r"},
		{"footer\x1b[K\x1b[J", false, "footer\x1b[K\x1b[J"},
		{"\x1b[?25l\x1b[6A\x1b[Jframe", true, "\x1b[?25l\x1b[6A\x1b[2G\x1b[J\x1b[2K\rframe"},
		{"\x1b[?25l\x1b[6A\x1b[Jframe", false, "\x1b[?25l\x1b[6A\x1b[Jframe"},
		{"no erase", true, "no erase"},
	} {
		if got := string(keepErase([]byte(tc.in), tc.byRenderer)); got != tc.want {
			t.Errorf("keepErase(%q, %v) = %q, want %q", tc.in, tc.byRenderer, got, tc.want)
		}
	}
}

// steadyInsert parses a print and rewrites it (parseInsert, buildInsert).
func steadyInsert(p []byte, frame []string) (out []byte, ok bool) {
	pr, ok := parseInsert(p)
	if !ok {
		return nil, false
	}
	return buildInsert(pr.lines, frame), true
}

// TestTerminalResizeWithOutputInFlight is the race behind a flaky tmux
// resize test: the terminal resizes (rewrapping its rows, deleting the rows
// below the cursor when it gets shorter) while output the program wrote
// for the old size still waits in the pty, unread (tmux reads its panes
// and runs resize-window in one event loop, so on a busy machine a print
// and a few frames arrive after the rewrap). Nothing the program wrote
// may depend on the rows above the cursor: every transcript line shows
// once and no row of the old live region stays behind.
func TestTerminalResizeWithOutputInFlight(t *testing.T) {
	for _, c := range []struct{ w, h, toW, toH int }{{80, 20, 40, 20}, {80, 20, 50, 12}, {60, 20, 100, 14}, {90, 24, 30, 24}} {
		t.Run(fmt.Sprintf("%dx%d-to-%dx%d", c.w, c.h, c.toW, c.toH), func(t *testing.T) {
			f := newFake()
			g := newGate()
			f.script["go"] = g.play
			scr := newTerm(c.w, c.h)
			inR, inW := keyboard(scr)
			p, _ := newProgram(context.Background(), f, RunOptions{
				Options: Options{Width: c.w, Height: c.h, Tick: -1},
				Input:   inR, Output: scr, Env: []string{"TERM=tmux-256color"},
			})
			errc := make(chan error, 1)
			go func() { _, err := p.Run(); errc <- err }()
			scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
			io.WriteString(inW, "go\r")
			scr.waitFor(t, "the turn", func(l []string) bool { return contains(l, "interrupt") })
			long := " of the reply, long enough to wrap when the terminal narrows"
			g.events <- text("row-000" + long + "\nrow-001" + long + "\nrow-002 unfinished" + long)
			<-g.ack
			scr.waitFor(t, "the stream", func(l []string) bool { return contains(l, "row-002 unfinished") })

			scr.hold()
			g.events <- text("\nrow-003" + long + "\nrow-004 unfinished")
			<-g.ack
			deadline := time.Now().Add(10 * time.Second)
			for {
				scr.mu.Lock()
				ok := bytes.Contains(scr.held, []byte("row-003")) // the print, and the frame under it
				scr.mu.Unlock()
				if ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the program never printed row-003")
				}
				time.Sleep(5 * time.Millisecond)
			}
			scr.reflow(c.toW, c.toH)
			scr.release()
			p.Send(tea.WindowSizeMsg{Width: c.toW, Height: c.toH})
			g.events <- text(long + "\nrow-005 last\n")
			<-g.ack
			g.done <- event.StopCompleted
			scr.waitFor(t, "the end of the turn", func(l []string) bool {
				return contains(l, "row-005 last") && contains(l, "ask anything") && !contains(l, "interrupt")
			})

			lines := scr.lines()
			for i := range 6 {
				if n := count(lines, fmt.Sprintf("row-%03d", i)); n != 1 {
					t.Errorf("row-%03d shown %d times", i, n)
				}
			}
			rules := 0
			for _, l := range lines {
				if l != "" && strings.Trim(l, "─") == "" {
					rules++
				}
			}
			if rules != 2 || count(lines, "esc esc") != 0 || count(lines, "ask anything") != 1 {
				t.Errorf("%d rule rows (want the input box's 2), %d status lines (want 0), %d input boxes (want 1)",
					rules, count(lines, "esc esc"), count(lines, "ask anything"))
			}
			if t.Failed() {
				t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
			}
			io.WriteString(inW, "\x04")
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
			inW.Close()
		})
	}
}

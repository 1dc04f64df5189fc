package tui

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// TestSessionChangeRefreshesFooter: after /clear, /new, /resume or
// /compact the footer shows what the backend reports now, not the usage of
// the conversation that was replaced.
func TestSessionChangeRefreshesFooter(t *testing.T) {
	tests := []struct {
		cmd  string
		used int
		want string
	}{
		{"/clear", 0, "~0/8.2k ctx (0%)"},
		{"/new", 0, "~0/8.2k ctx (0%)"},
		{"/resume s9", 900, "~900/8.2k ctx (10%)"},
		{"/compact", 500, "~500/8.2k ctx (6%)"},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			f := newFake()
			f.info.ContextWindow, f.info.UsedTokens = 8192, 100
			f.script["q"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
				sink.Emit(event.Event{Type: event.Usage, Usage: &llm.Usage{InputTokens: 2500, OutputTokens: 100}})
				sink.Emit(text("answer"))
				return event.StopCompleted
			}
			d := newDriver(t, f, Options{})
			d.typeText("q")
			d.press("enter")
			d.until(func() bool { return !d.m.turn.running })
			d.settle()
			mustContain(t, "footer before", d.live(), "2.6k/8.2k ctx (31%)")
			f.mu.Lock()
			f.info.UsedTokens, f.info.Estimated = tt.used, true
			f.mu.Unlock()
			d.typeText(tt.cmd)
			d.press("enter")
			d.until(func() bool { return !d.m.turn.running })
			d.settle()
			mustContain(t, "footer after", d.live(), tt.want)
		})
	}
}

// TestClearScrollsScreenClear runs /clear in a virtual terminal: the old
// conversation leaves the screen (the terminal's scrollback keeps it) and
// the input box and footer are drawn once.
func TestClearScrollsScreenClear(t *testing.T) {
	f := newFake()
	scr, kb, done := runInTerm(t, f, Options{Greeting: "zero dev"}, 60, 16)
	scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
	io.WriteString(kb, "hello\r")
	scr.waitFor(t, "the reply", func(l []string) bool { return contains(l, "echo: hello") })
	io.WriteString(kb, "/clear\r")
	scr.waitFor(t, "the new session and the idle input box", func(l []string) bool { return contains(l, "new session s2") && contains(l, "ask anything") })
	scr.mu.Lock()
	screen := strings.Split(scr.emu.String(), "\n")
	scr.mu.Unlock()
	all := scr.lines()
	done()
	for _, gone := range []string{"zero dev", "› hello", "echo: hello"} {
		if contains(screen, gone) {
			t.Errorf("%q still on the screen after /clear:\n%s", gone, strings.Join(screen, "\n"))
		}
		if n := countExact(all, gone); n != 1 {
			t.Errorf("%q in the terminal %d times, want once (in the scrollback)", gone, n)
		}
	}
	mustContain(t, "screen", screen, "new session s2", "ask anything", "qwen3-coder")
	if n := count(all, "ask anything"); n != 1 {
		t.Errorf("input box drawn %d times:\n%s", n, strings.Join(all, "\n"))
	}
}

package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// term is a virtual terminal the real tea.Program draws into: what it
// shows is what a user's terminal would show, scrollback included.
type vterm struct {
	mu     sync.Mutex
	emu    *vt.Emulator
	titles []string
	alt    bool
	// held: output the terminal has not read yet (hold), as bytes sit in
	// a pty's buffer while tmux is busy.
	held    []byte
	holding bool
}

func newTerm(w, h int) *vterm {
	t := &vterm{emu: vt.NewEmulator(w, h)}
	t.emu.SetCallbacks(vt.Callbacks{
		Title:     func(s string) { t.titles = append(t.titles, s) },
		AltScreen: func(on bool) { t.alt = t.alt || on },
	})
	return t
}

// Write feeds program output to the emulator. Like a tty whose input is
// not in raw mode (Bubble Tea leaves a non-tty input alone), it maps "\n"
// to "\r\n" (termios ONLCR).
func (t *vterm) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.holding {
		t.held = append(t.held, p...)
		return len(p), nil
	}
	if _, err := t.emu.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// hold keeps the program's output from the terminal until release.
func (t *vterm) hold() {
	t.mu.Lock()
	t.holding = true
	t.mu.Unlock()
}

// release lets the terminal read the output held since hold.
func (t *vterm) release() {
	t.mu.Lock()
	held := t.held
	t.held, t.holding = nil, false
	t.mu.Unlock()
	t.Write(held)
}

// keyboard returns the program's input: what the test writes to the
// returned writer, and the emulator's replies to the program's queries.
func keyboard(scr *vterm) (*io.PipeReader, *io.PipeWriter) {
	inR, inW := io.Pipe()
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := scr.emu.Read(buf)
			if err != nil {
				return
			}
			inW.Write(buf[:n])
		}
	}()
	return inR, inW
}

// lines returns the scrollback followed by the screen, trailing spaces
// trimmed.
func (t *vterm) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	if sb := t.emu.Scrollback(); sb != nil {
		for _, l := range sb.Lines() {
			out = append(out, strings.TrimRight(l.String(), " "))
		}
	}
	for _, l := range strings.Split(t.emu.String(), "\n") {
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}

// waitFor polls the terminal until cond holds; the deadline only guards
// against a hang.
func (t *vterm) waitFor(tb testing.TB, what string, cond func([]string) bool) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond(t.lines()) {
		if time.Now().After(deadline) {
			tb.Fatalf("terminal never showed %s:\n%s", what, strings.Join(t.lines(), "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTerminalShowsWhatWeMean runs the real Bubble Tea program into a
// virtual terminal: the transcript lands in the scrollback once, the footer
// stays at the bottom, and hostile model output changes neither the title
// nor the screen mode.
func TestTerminalShowsWhatWeMean(t *testing.T) {
	f := newFake()
	zero := 0
	f.script["hello"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		sink.Emit(text("Hi \x1b]0;pwned\x07there.\x1b[2J\x1b[H\n"))
		sink.Emit(event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "1", Name: "bash", Arguments: `{"command":"ls"}`}})
		sink.Emit(event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "bash", Content: "a.go\n", ExitCode: &zero, ElapsedMs: 5}})
		for i := range 30 {
			sink.Emit(text("line " + string(rune('A'+i%26)) + string(rune('a'+i/26)) + "\n"))
		}
		sink.Emit(text("done."))
		return event.StopCompleted
	}
	scr := newTerm(60, 16)
	inR, inW := io.Pipe()
	go func() { // the terminal's replies to queries go back to the app's input
		buf := make([]byte, 256)
		for {
			n, err := scr.emu.Read(buf)
			if err != nil {
				return
			}
			inW.Write(buf[:n])
		}
	}()
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), f, RunOptions{
			Options: Options{Width: 60, Height: 16},
			Input:   inR, Output: scr,
			Env: []string{"TERM=xterm-256color"},
		})
	}()
	scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder · 127.0.0.1:8000") })
	io.WriteString(inW, "hello\r")
	scr.waitFor(t, "the end of the reply", func(l []string) bool { return contains(l, "done.") && !contains(l, "interrupt") })

	lines := scr.lines()
	t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
	for _, want := range []string{"› hello", "Hi there.", "⚙ bash(ls)", "↳ exit 0 · 5ms · 1 line", "  a.go", "line Aa", "line Db", "done."} {
		if n := count(lines, want); n != 1 {
			t.Errorf("%q shown %d times:\n%s", want, n, strings.Join(lines, "\n"))
		}
	}
	if len(scr.titles) > 0 {
		t.Errorf("model output changed the title: %q", scr.titles)
	}
	if scr.alt {
		t.Error("the app entered the alternate screen")
	}
	// The footer is the last non-empty line on the screen.
	var last string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			last = l
		}
	}
	if !strings.HasPrefix(last, "qwen3-coder · 127.0.0.1:8000 · ") {
		t.Errorf("last line = %q, want the footer", last)
	}
	io.WriteString(inW, "\x04") // ^D on an empty line exits
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	inW.Close()
	// The emulator stays open: vt's Close races with a pending Read.
}

// TestTerminalResizeWhileStreaming narrows the terminal in the middle of a
// reply: the live region re-wraps and nothing reaches the scrollback twice.
// x/vt truncates rows on a resize as xterm does (XTERM_VERSION says so);
// TestTerminalReflowWhileStreaming covers terminals that rewrap them.
func TestTerminalResizeWhileStreaming(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["go"] = g.play
	scr := newTerm(60, 16)
	inR, inW := keyboard(scr)
	p, _ := newProgram(context.Background(), f, RunOptions{
		Options: Options{Width: 60, Height: 16},
		Input:   inR, Output: scr, Env: []string{"TERM=xterm-256color", "XTERM_VERSION=XTerm(390)"},
	})
	errc := make(chan error, 1)
	go func() { _, err := p.Run(); errc <- err }()
	scr.waitFor(t, "the footer", func(l []string) bool { return contains(l, "qwen3-coder") })
	io.WriteString(inW, "go\r")
	scr.waitFor(t, "the turn", func(l []string) bool { return contains(l, "interrupt") })
	g.events <- text("first finished line\nsecond finished line\na long unfinished line that keeps")
	<-g.ack
	scr.waitFor(t, "the stream", func(l []string) bool { return contains(l, "a long unfinished line") })

	scr.mu.Lock()
	scr.emu.Resize(30, 16)
	scr.mu.Unlock()
	p.Send(tea.WindowSizeMsg{Width: 30, Height: 16})
	g.events <- text(" growing until the end\nlast line\n")
	<-g.ack
	g.done <- event.StopCompleted
	scr.waitFor(t, "the end of the turn", func(l []string) bool { return contains(l, "last line") && contains(l, "ask anything") })

	lines := scr.lines()
	t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
	for _, want := range []string{"first finished line", "second finished line", "last line", "› go"} {
		if n := count(lines, want); n != 1 {
			t.Errorf("%q shown %d times", want, n)
		}
	}
	if n := count(lines, "ask anything"); n != 1 {
		t.Errorf("the input box is drawn %d times", n)
	}
	for _, l := range lines {
		if len([]rune(l)) > 60 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
	io.WriteString(inW, "\x04")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	inW.Close()
}

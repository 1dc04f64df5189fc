package tui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// fakeBackend replays scripted turns. script maps a prompt to the function
// that plays it; unknown prompts get a one-line echo reply.
type fakeBackend struct {
	mu      sync.Mutex
	info    Info
	script  map[string]func(ctx context.Context, t Turn, sink event.Sink) event.StopReason
	turns   []Turn
	calls   []string
	shell   ShellResult
	resumed Resumed
}

func newFake() *fakeBackend {
	return &fakeBackend{
		info:   Info{Model: "qwen3-coder", Host: "127.0.0.1:8000", ContextWindow: 32768, UsedTokens: 1200, Estimated: true, SessionID: "s1"},
		script: map[string]func(context.Context, Turn, event.Sink) event.StopReason{},
	}
}

func (f *fakeBackend) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeBackend) Run(ctx context.Context, t Turn, sink event.Sink) event.StopReason {
	f.mu.Lock()
	f.turns = append(f.turns, t)
	play := f.script[t.Prompt]
	f.mu.Unlock()
	if play == nil {
		sink.Emit(event.Event{Type: event.Text, Text: "echo: " + t.Prompt})
		sink.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopCompleted})
		return event.StopCompleted
	}
	return play(ctx, t, sink)
}

func (f *fakeBackend) Shell(ctx context.Context, cmd string, mode Mode) ShellResult {
	f.record("shell " + cmd)
	return f.shell
}

func (f *fakeBackend) Info() Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info
}

func (f *fakeBackend) Report(ctx context.Context, kind ReportKind) (string, error) {
	f.record("report " + string(kind))
	return "report of " + string(kind), nil
}

func (f *fakeBackend) Sessions(ctx context.Context) ([]Session, error) {
	f.record("sessions")
	return []Session{{ID: "20261130-abc", Turns: 3, Preview: "fix the bug", Updated: "2m ago"}}, nil
}

func (f *fakeBackend) Resume(ctx context.Context, id string) (Resumed, error) {
	f.record("resume " + id)
	return f.resumed, nil
}

func (f *fakeBackend) NewSession(ctx context.Context) (string, error) {
	f.record("new")
	return "s2", nil
}

func (f *fakeBackend) Compact(ctx context.Context) (string, error) {
	f.record("compact")
	return "42k → 6k tokens", nil
}

func (f *fakeBackend) MCP(ctx context.Context, arg string) (string, error) {
	return "mcp " + arg, nil
}

func (f *fakeBackend) Rules(ctx context.Context, arg string) (string, error) {
	f.record("rules " + arg)
	return "rule no-deploy: deploys go through CI", nil
}

func (f *fakeBackend) SetModel(ctx context.Context, name string) error {
	f.record("model " + name)
	f.mu.Lock()
	f.info.Model = name
	f.mu.Unlock()
	return nil
}

func (f *fakeBackend) Models(ctx context.Context) ([]string, error) {
	f.record("models")
	return []string{"qwen3-coder", "qwen3-coder-30b", "llama-3.3-70b"}, nil
}

func (f *fakeBackend) lastTurn() Turn {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.turns[len(f.turns)-1]
}

func (f *fakeBackend) nturns() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.turns)
}

func (f *fakeBackend) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// driver runs the Model the way tea.Program does: commands in goroutines,
// their messages back through one channel, Println output collected as
// the terminal's scrollback.
type driver struct {
	t          *testing.T
	m          *Model
	msgs       chan tea.Msg
	inflight   atomic.Int32
	scrollback []string
	quit       bool
	clipboard  []string
	raw        []string  // what the app wrote to the terminal itself (tea.Raw)
	clock      time.Time // the model's clock unless the test brings its own
}

func newDriver(t *testing.T, b Backend, opts Options) *driver {
	t.Helper()
	if opts.Copy == nil {
		opts.Copy = func(string) error { return nil }
	}
	if opts.Tick == 0 {
		opts.Tick = -1 // no refresh ticks: settle would wait for them
	}
	d := &driver{t: t, msgs: make(chan tea.Msg, 4096), clock: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	if opts.Now == nil {
		// Each key press advances the clock by a second: every key is its
		// own burst of typing, as a person answering a prompt would be.
		opts.Now = func() time.Time { return d.clock }
	}
	d.m = New(b, opts)
	d.m.SetSender(func(msg tea.Msg) { d.msgs <- msg })
	d.exec(d.m.Init())
	d.settle()
	return d
}

// exec runs cmd as Bubble Tea would.
func (d *driver) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	d.inflight.Add(1)
	go func() {
		defer d.inflight.Add(-1)
		d.deliver(cmd())
	}()
}

// deliver sends msg, unpacking batches (concurrently) and sequences (in
// order), which tea.Program handles internally.
func (d *driver) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		sequence := v.Type().Name() == "sequenceMsg"
		for i := 0; i < v.Len(); i++ {
			c, _ := v.Index(i).Interface().(tea.Cmd)
			if sequence {
				if c != nil {
					d.deliver(c())
				}
			} else {
				d.exec(c)
			}
		}
		return
	}
	d.msgs <- msg
}

// handle applies one message.
func (d *driver) handle(msg tea.Msg) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		d.clock = d.clock.Add(time.Second)
	}
	v := reflect.ValueOf(msg)
	switch {
	case v.Kind() == reflect.Struct && v.Type().Name() == "printLineMessage":
		d.scrollback = append(d.scrollback, strings.Split(v.FieldByName("messageBody").String(), "\n")...)
	case v.Type() == reflect.TypeOf(tea.QuitMsg{}):
		d.quit = true
		return
	case v.Kind() == reflect.String && v.Type().Name() == "setClipboardMsg":
		d.clipboard = append(d.clipboard, v.String())
	case v.Type() == reflect.TypeOf(tea.RawMsg{}):
		d.raw = append(d.raw, fmt.Sprint(msg.(tea.RawMsg).Msg))
	}
	_, cmd := d.m.Update(msg)
	d.exec(cmd)
}

// send applies msg and lets everything it caused settle.
func (d *driver) send(msgs ...tea.Msg) {
	for _, msg := range msgs {
		d.handle(msg)
	}
	d.settle()
}

// settle pumps messages until none are pending and no command is running
// other than long-lived turns (which block until the test unblocks them).
func (d *driver) settle() {
	d.until(func() bool { return len(d.msgs) == 0 && d.inflight.Load() <= d.blocked() })
}

// blocked is how many command goroutines wait on a test (a turn that is
// running).
func (d *driver) blocked() int32 {
	if d.m.turn.running {
		return 1
	}
	return 0
}

// until pumps messages until cond holds. The deadline only guards against
// a hung test; no assertion depends on timing.
func (d *driver) until(cond func() bool) {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.handle(msg)
		case <-deadline:
			d.t.Fatalf("condition not reached; screen:\n%s", strings.Join(d.screen(), "\n"))
		case <-time.After(time.Millisecond):
		}
	}
}

// typeText presses one key per grapheme of s.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.handle(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d.settle()
}

// press presses named keys.
func (d *driver) press(names ...string) {
	for _, n := range names {
		k, ok := keyNames[n]
		if !ok {
			d.t.Fatalf("unknown key %q", n)
		}
		d.handle(tea.KeyPressMsg(k))
		d.settle()
	}
}

var keyNames = map[string]tea.Key{
	"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown},
	"backspace": {Code: tea.KeyBackspace},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl}, "ctrl+d": {Code: 'd', Mod: tea.ModCtrl},
	"ctrl+q": {Code: 'q', Mod: tea.ModCtrl}, "ctrl+r": {Code: 'r', Mod: tea.ModCtrl},
	"ctrl+j": {Code: 'j', Mod: tea.ModCtrl}, "ctrl+o": {Code: 'o', Mod: tea.ModCtrl},
	"ctrl+l": {Code: 'l', Mod: tea.ModCtrl}, "ctrl+t": {Code: 't', Mod: tea.ModCtrl}, "ctrl+u": {Code: 'u', Mod: tea.ModCtrl},
	"y": {Code: 'y', Text: "y"}, "a": {Code: 'a', Text: "a"}, "n": {Code: 'n', Text: "n"}, "v": {Code: 'v', Text: "v"},
}

// live returns the live region without styling.
func (d *driver) live() []string {
	return strings.Split(ansi.Strip(d.m.View().Content), "\n")
}

// plainScrollback returns the scrollback without styling.
func (d *driver) plainScrollback() []string {
	out := make([]string, len(d.scrollback))
	for i, l := range d.scrollback {
		out[i] = ansi.Strip(l)
	}
	return out
}

// screen is what the user sees: scrollback then the live region.
func (d *driver) screen() []string { return append(d.plainScrollback(), d.live()...) }

// gate is a turn that emits events on demand and ends when released or
// cancelled.
type gate struct {
	events chan event.Event
	ack    chan struct{}
	done   chan event.StopReason
}

func newGate() *gate {
	return &gate{events: make(chan event.Event), ack: make(chan struct{}), done: make(chan event.StopReason, 1)}
}

func (g *gate) play(ctx context.Context, t Turn, sink event.Sink) event.StopReason {
	for {
		select {
		case e := <-g.events:
			sink.Emit(e)
			g.ack <- struct{}{}
		case stop := <-g.done:
			sink.Emit(event.Event{Type: event.RunEnd, StopReason: stop})
			return stop
		case <-ctx.Done():
			sink.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopInterrupted})
			return event.StopInterrupted
		}
	}
}

// emit hands events to the running turn and lets them render.
func (d *driver) emit(g *gate, evs ...event.Event) {
	for _, e := range evs {
		g.events <- e
		<-g.ack
		d.settle()
	}
}

// finish ends the running turn with stop and waits until the app is idle.
func (d *driver) finish(g *gate, stop event.StopReason) {
	g.done <- stop
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
}

func text(s string) event.Event      { return event.Event{Type: event.Text, Text: s} }
func reasoning(s string) event.Event { return event.Event{Type: event.Reasoning, Text: s} }
func toolCall(name, args string) event.Event {
	return event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "c1", Name: name, Arguments: args}}
}

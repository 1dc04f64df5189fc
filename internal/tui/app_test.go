package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func contains(lines []string, want string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) })
}

func count(lines []string, want string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, want) {
			n++
		}
	}
	return n
}

func mustContain(t *testing.T, where string, lines []string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !contains(lines, w) {
			t.Errorf("%s lacks %q:\n%s", where, w, strings.Join(lines, "\n"))
		}
	}
}

func lastLine(lines []string) string { return lines[len(lines)-1] }

func TestFooter(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{})
	if got, want := lastLine(d.live()), "qwen3-coder · 127.0.0.1:8000 · ~1.2k/33k ctx (3%) · normal"; got != want {
		t.Errorf("footer = %q, want %q", got, want)
	}
	g := newGate()
	f.script["go"] = g.play
	d.typeText("go")
	d.press("enter")
	u := llm.Usage{InputTokens: 4000, OutputTokens: 96}
	d.emit(g, event.Event{Type: event.Usage, Usage: &u})
	if got, want := lastLine(d.live()), "qwen3-coder · 127.0.0.1:8000 · 4.1k/33k ctx (12%) · normal"; got != want {
		t.Errorf("footer after usage = %q, want %q", got, want)
	}
	d.finish(g, event.StopCompleted)
	if got := lastLine(d.live()); !strings.Contains(got, " 4.1k/33k") {
		t.Errorf("server usage lost after the run: %q", got)
	}
}

// A priced model's usage events carry their cost: the footer shows the
// session's total.
func TestFooterShowsTheSessionsCost(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{})
	g := newGate()
	f.script["go"] = g.play
	d.typeText("go")
	d.press("enter")
	u := llm.Usage{InputTokens: 4000, OutputTokens: 96}
	d.emit(g, event.Event{Type: event.Usage, Usage: &u, CostUSD: 0.0312})
	d.emit(g, event.Event{Type: event.Usage, Usage: &u, CostUSD: 0.011})
	if got, want := lastLine(d.live()), "qwen3-coder · 127.0.0.1:8000 · 4.1k/33k ctx (12%) · $0.042 · normal"; got != want {
		t.Errorf("footer = %q, want %q", got, want)
	}
	d.finish(g, event.StopCompleted)
}

func TestInlineLayoutNoAltScreen(t *testing.T) {
	d := newDriver(t, newFake(), Options{})
	v := d.m.View()
	if v.AltScreen {
		t.Fatal("the app must render inline, not in the alternate screen")
	}
	live := d.live()
	if len(live) != 4 {
		t.Errorf("idle live region should be rule, input, rule, footer; got %q", live)
	}
	if c := d.m.cursor; c == nil || c.Y != 1 || c.X != 2 {
		t.Errorf("cursor drawn at %+v, want (2,1)", c)
	}
	if v.Cursor == nil || v.Cursor.X != 0 || v.Cursor.Y != 0 {
		t.Errorf("terminal cursor at %+v, want parked at (0,0)", v.Cursor)
	}
}

func TestStreamingKeepsInputLive(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["explain"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("explain")
	d.press("enter")
	d.emit(g, text("# Title\nHello **wor"), text("ld** and"))
	mustContain(t, "scrollback", d.plainScrollback(), "› explain", "Title")
	if contains(d.plainScrollback(), "Hello") {
		t.Error("an unfinished line reached the scrollback")
	}
	mustContain(t, "live region", d.live(), "Hello world and", "esc esc to interrupt")
	d.typeText("next question")
	if d.m.Value() != "next question" {
		t.Errorf("input while streaming = %q", d.m.Value())
	}
	d.emit(g, text(" more\n"))
	mustContain(t, "scrollback", d.plainScrollback(), "Hello world and more")
	d.finish(g, event.StopCompleted)
	if n := count(d.plainScrollback(), "Hello world and more"); n != 1 {
		t.Errorf("line printed %d times", n)
	}
	if d.m.Value() != "next question" {
		t.Errorf("typed-ahead text lost: %q", d.m.Value())
	}
}

func TestReasoningPreviewCollapses(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["think"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("think")
	d.press("enter")
	d.emit(g, reasoning("step one\nstep two\nstep three\nstep four"))
	live := d.live()
	mustContain(t, "live", live, "∴ thinking…", "step four")
	if contains(live, "step one") {
		t.Error("collapsed preview shows more than the last lines")
	}
	d.emit(g, text("answer\n"))
	sb := d.plainScrollback()
	mustContain(t, "scrollback", sb, "∴ thought for 4 lines", "answer")
	if contains(sb, "step two") {
		t.Error("collapsed reasoning printed in full")
	}
	d.finish(g, event.StopCompleted)

	// ctrl+o prints the summarised reasoning in full and expands later
	// reasoning.
	g2 := newGate()
	f.script["again"] = g2.play
	d.press("ctrl+o")
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "step one", "step two", "step four")
	d.typeText("again")
	d.press("enter")
	d.emit(g2, reasoning("alpha\nbeta"), text("ok\n"))
	mustContain(t, "scrollback", d.plainScrollback(), "alpha", "beta")
	d.finish(g2, event.StopCompleted)
}

func TestToolCards(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["fix"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("fix")
	d.press("enter")
	zero, one := 0, 1
	d.emit(g,
		text("Let me run the tests."),
		toolCall("bash", `{"command":"go test ./..."}`),
		event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: "c1", Name: "bash", Content: "ok  \tzero/a\t0.2s\nok  \tzero/b\t0.1s\n", ExitCode: &zero, ElapsedMs: 1234}},
		toolCall("edit_file", `{"path":"a.go","old_string":"x","new_string":"y"}`),
		event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: "c2", Name: "edit_file", Content: "edited a.go", Diff: "--- a/a.go\n+++ b/a.go\n@@ -10,3 +10,3 @@\n func f() {\n-\treturn x\n+\treturn y\n }\n"}},
		toolCall("bash", `{"command":"false"}`),
		event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "bash", Content: "", ExitCode: &one, ElapsedMs: 80, IsError: true}},
	)
	sb := d.plainScrollback()
	mustContain(t, "scrollback", sb,
		"Let me run the tests.",
		"⚙ bash(go test ./...)",
		"↳ exit 0 · 1.2s · 2 lines",
		"  ok      zero/a  0.2s",
		"⚙ edit_file(a.go)",
		"↳ edited a.go",
		"  10   func f() {",
		"  11 -     return x",
		"  11 +     return y",
		"  12   }",
		"⚙ bash(false)",
		"↳ exit 1 · 80ms · no output",
	)
	// The text before the card is printed before it.
	if slices.IndexFunc(sb, func(l string) bool { return strings.Contains(l, "Let me run") }) >
		slices.IndexFunc(sb, func(l string) bool { return strings.Contains(l, "⚙ bash") }) {
		t.Error("tool card printed before the text that preceded it")
	}
	d.finish(g, event.StopCompleted)
}

func TestQueueWhileRunning(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["first"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("first")
	d.press("enter")
	d.typeText("second")
	d.press("enter")
	d.typeText("third")
	d.press("enter")
	mustContain(t, "live", d.live(), "⏎ queued: second", "⏎ queued: third")
	if d.m.Value() != "" {
		t.Errorf("input not cleared after queueing: %q", d.m.Value())
	}
	// ^Q edits the queue: newest first, ↑ moves to the older item.
	d.press("ctrl+q")
	if d.m.Value() != "third" {
		t.Fatalf("editing %q, want third", d.m.Value())
	}
	d.press("ctrl+u")
	d.typeText("3rd")
	d.press("up")
	if d.m.Value() != "second" {
		t.Fatalf("after up editing %q", d.m.Value())
	}
	d.press("ctrl+u") // empty an item to drop it
	d.press("enter")
	if got := d.m.queue.items; !slices.Equal(got, []string{"3rd"}) {
		t.Fatalf("queue after edit = %q", got)
	}
	d.finish(g, event.StopCompleted)
	d.until(func() bool { return f.nturns() == 2 && !d.m.turn.running })
	if got := f.lastTurn().Prompt; got != "3rd" {
		t.Errorf("queued prompt run = %q", got)
	}
	mustContain(t, "scrollback", d.plainScrollback(), "echo: 3rd")
}

func TestQueuedSlashCommandDoesNotStallQueue(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["first"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("first")
	d.press("enter")
	for _, s := range []string{"/help", "/context", "second"} {
		d.typeText(s)
		d.press("enter")
	}
	d.finish(g, event.StopCompleted)
	d.until(func() bool { return f.nturns() == 2 && !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "commands", "report of context", "echo: second")
}

func TestInterrupt(t *testing.T) {
	for _, keys := range [][]string{{"ctrl+c"}, {"esc", "esc"}} {
		t.Run(strings.Join(keys, " "), func(t *testing.T) {
			f := newFake()
			g := newGate()
			f.script["long"] = g.play
			d := newDriver(t, f, Options{})
			d.typeText("long")
			d.press("enter")
			d.emit(g, text("partial line one\npartial tw"))
			d.typeText("queued")
			d.press("enter")
			d.press(keys...)
			d.until(func() bool { return !d.m.turn.running })
			d.settle()
			sb := d.plainScrollback()
			mustContain(t, "scrollback", sb, "partial line one", "partial tw", "⏹ interrupted")
			if d.m.Value() != "queued" || len(d.m.queue.items) != 0 {
				t.Errorf("queue after interrupt: input %q queue %q", d.m.Value(), d.m.queue.items)
			}
			if f.nturns() != 1 {
				t.Errorf("queued message ran after an interrupt")
			}
		})
	}
}

func TestAltEscIsEscEsc(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["long"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("long")
	d.press("enter")
	d.handle(tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt}) // "\x1b\x1b" in one read
	d.until(func() bool { return !d.m.turn.running })
	d.typeText("abc")
	d.handle(tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt})
	if d.m.Value() != "" {
		t.Errorf("esc esc at idle should clear the line, got %q", d.m.Value())
	}
}

func TestBigPasteShowsWindow(t *testing.T) {
	d := newDriver(t, newFake(), Options{Width: 40, Height: 20})
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	d.send(tea.PasteMsg{Content: b.String()})
	live := d.live()
	if len(live) > 20 {
		t.Fatalf("live region %d rows for a 20-row terminal", len(live))
	}
	mustContain(t, "live", live, "pasted line 199", "more lines")
	d.m.View()
	if c := d.m.cursor; c == nil || c.Y >= len(live) {
		t.Errorf("cursor %+v outside the %d-row region", c, len(live))
	}
	if f := strings.Count(d.m.Value(), "\n"); f != 200 {
		t.Errorf("paste kept %d lines", f)
	}
}

func TestStuckInterruptCanStillExit(t *testing.T) {
	f := newFake()
	release := make(chan struct{})
	f.script["stuck"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		<-release // ignores cancellation
		return event.StopInterrupted
	}
	d := newDriver(t, f, Options{})
	d.typeText("stuck")
	d.press("enter", "ctrl+c")
	mustContain(t, "live", d.live(), "interrupting…")
	d.press("ctrl+c")
	if d.quit {
		t.Fatal("quit on the first ctrl+c after an interrupt")
	}
	mustContain(t, "live", d.live(), "press ctrl+c again to exit")
	d.press("ctrl+c")
	if !d.quit {
		t.Fatal("could not exit while the backend ignores the interrupt")
	}
	close(release)
}

func TestStatusShowsElapsed(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["x"] = g.play
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := newDriver(t, f, Options{Now: func() time.Time { return now }})
	d.typeText("x")
	d.press("enter")
	mustContain(t, "live", d.live(), "● working · esc esc")
	now = now.Add(12500 * time.Millisecond)
	mustContain(t, "live", d.live(), "● working 12s · esc esc")
	now = now.Add(2 * time.Minute)
	mustContain(t, "live", d.live(), "● working 2m12s")
	d.finish(g, event.StopCompleted)
}

func TestSingleEscDoesNotInterrupt(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["long"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("long")
	d.press("enter", "esc")
	d.typeText("x")
	d.press("esc")
	if !d.m.turn.running {
		t.Fatal("esc, key, esc interrupted")
	}
	d.finish(g, event.StopCompleted)
}

func TestModes(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{})
	for _, want := range []Mode{ModeAutoAccept, ModePlan, ModeNormal, ModeAutoAccept} {
		d.press("shift+tab")
		if d.m.CurrentMode() != want {
			t.Fatalf("mode = %s, want %s", d.m.CurrentMode(), want)
		}
		if !strings.HasSuffix(lastLine(d.live()), string(want)) {
			t.Errorf("footer %q lacks mode %s", lastLine(d.live()), want)
		}
	}
	d.typeText("hi")
	d.press("enter")
	d.until(func() bool { return f.nturns() == 1 && !d.m.turn.running })
	if f.lastTurn().Mode != ModeAutoAccept {
		t.Errorf("turn mode = %s", f.lastTurn().Mode)
	}
}

func TestCtrlCAndCtrlD(t *testing.T) {
	d := newDriver(t, newFake(), Options{})
	d.typeText("abc")
	d.press("ctrl+c")
	if d.m.Value() != "" || d.quit {
		t.Fatalf("ctrl+c on text: value %q quit %v", d.m.Value(), d.quit)
	}
	d.press("ctrl+c")
	if d.quit {
		t.Fatal("first ctrl+c on an empty line quit")
	}
	mustContain(t, "live", d.live(), "press ctrl+c again to exit")
	d.press("ctrl+c")
	if !d.quit {
		t.Fatal("second ctrl+c did not quit")
	}

	d = newDriver(t, newFake(), Options{})
	d.typeText("ab")
	d.press("ctrl+d")
	if d.quit {
		t.Fatal("ctrl+d with text quit")
	}
	d.press("ctrl+u", "ctrl+d")
	if !d.quit {
		t.Fatal("ctrl+d on empty line did not quit")
	}
}

func TestHistoryAndSearch(t *testing.T) {
	d := newDriver(t, newFake(), Options{History: []string{"make build", "go test ./...", "git status"}})
	d.press("up")
	if d.m.Value() != "git status" {
		t.Fatalf("up = %q", d.m.Value())
	}
	d.press("up", "down", "down")
	if d.m.Value() != "" {
		t.Fatalf("down past newest = %q", d.m.Value())
	}
	d.typeText("draft")
	d.press("ctrl+r")
	d.typeText("t")
	mustContain(t, "live", d.live(), "(reverse-i-search)`t': git status")
	d.press("ctrl+r")
	mustContain(t, "live", d.live(), "(reverse-i-search)`t': go test ./...")
	d.press("esc")
	if d.m.Value() != "draft" {
		t.Fatalf("esc should restore the draft, got %q", d.m.Value())
	}
	d.press("ctrl+r")
	d.typeText("ma")
	d.press("enter")
	if d.m.Value() != "make build" {
		t.Fatalf("accepted search = %q", d.m.Value())
	}
	// Multi-line input: ↑ moves between lines before recalling history.
	d.press("ctrl+u")
	d.typeText("one")
	d.press("ctrl+j")
	d.typeText("two")
	d.press("up")
	if d.m.Value() != "one\ntwo" {
		t.Fatalf("up on line 2 recalled history: %q", d.m.Value())
	}
}

func TestPermissionPrompt(t *testing.T) {
	tests := []struct {
		keys   []string
		typed  string
		want   Decision
		banner string
	}{
		{[]string{"y"}, "", Decision{Choice: AllowOnce}, "allowed once"},
		{[]string{"a"}, "", Decision{Choice: AllowSession}, "allowed for this session"},
		{[]string{"A"}, "", Decision{Choice: AllowAlways}, "allowed always"},
		{[]string{"4"}, "", Decision{Choice: Deny}, "denied"},
		{[]string{"n"}, "use the test target instead", Decision{Choice: Deny, Reason: "use the test target instead"}, "denied (use the test target instead)"},
		{[]string{"down", "down", "down", "down", "enter"}, "", Decision{Choice: Deny}, "denied"},
		{[]string{"down", "down", "down", "enter"}, "", Decision{Choice: AllowAlways}, "allowed always"},
		{[]string{"up", "enter"}, "", Decision{Choice: Deny}, "denied"},
		{[]string{"down", "enter"}, "", Decision{Choice: AllowOnce}, "allowed once"},
		{[]string{"esc"}, "", Decision{Choice: Deny}, "denied"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, "+"), func(t *testing.T) {
			f := newFake()
			asked := make(chan struct{})
			var got Decision
			f.script["clean"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
				close(asked)
				req := PermissionRequest{ID: "p1", Tool: "bash", Command: "rm -rf build/ && make \\\n  all", Why: "flagged: rm -r"}
				got = turn.Approve(ctx, req)
				sink.Emit(event.Event{Type: event.PermissionDecision, Permission: got.Event(req)})
				return event.StopCompleted
			}
			d := newDriver(t, f, Options{})
			d.typeText("clean")
			d.press("enter")
			<-asked
			d.until(func() bool { return d.m.perm != nil })
			mustContain(t, "prompt", d.live(), "? allow bash?  flagged: rm -r", "$ 2 lines, 29B:", "1 │ rm -rf build/ && make \\", "2 │   all", "[y] allow once", "[a] allow this command for the session", "[A] allow this command always", "[n] deny")
			answer(d, tt.keys...)
			if d.m.perm != nil && tt.typed != "" {
				mustContain(t, "prompt", d.live(), "reason (enter sends")
				d.typeText(tt.typed)
				d.press("enter")
			}
			if d.m.perm != nil && d.m.perm.typing {
				d.press("enter")
			}
			d.until(func() bool { return !d.m.turn.running })
			d.settle()
			if got != tt.want {
				t.Errorf("decision = %+v, want %+v", got, tt.want)
			}
			mustContain(t, "scrollback", d.plainScrollback(), "bash: "+tt.banner)
		})
	}
}

func TestTypeAheadDoesNotAnswerPrompt(t *testing.T) {
	f := newFake()
	asked := make(chan struct{})
	var got Decision
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		close(asked)
		got = turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "make deploy"})
		return event.StopCompleted
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := newDriver(t, f, Options{Now: func() time.Time { return now }})
	d.typeText("go")
	d.press("enter")
	<-asked
	d.until(func() bool { return d.m.perm != nil })
	// Still typing (keys 100ms apart): "yes and also" must not approve.
	for _, r := range "yes and also" {
		now = now.Add(100 * time.Millisecond)
		d.typeText(string(r))
	}
	if d.m.perm == nil {
		t.Fatalf("type-ahead answered the prompt: %+v", got)
	}
	mustContain(t, "live", d.live(), "pause, then answer")
	now = now.Add(2 * time.Second) // a pause, then a deliberate answer
	d.press("n", "enter")
	d.until(func() bool { return !d.m.turn.running })
	if got.Choice != Deny {
		t.Errorf("decision = %+v", got)
	}
}

func TestPermissionShowsDiffAndHiddenText(t *testing.T) {
	f := newFake()
	asked := make(chan struct{})
	f.script["edit"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		close(asked)
		turn.Approve(ctx, PermissionRequest{Tool: "edit_file", Path: "src/ma\u202egnp.go", Diff: "@@ -1,2 +1,2 @@\n package x\n-var a = 1\n+var a = 2\n"})
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{})
	d.typeText("edit")
	d.press("enter")
	<-asked
	d.until(func() bool { return d.m.perm != nil })
	mustContain(t, "prompt", d.live(), `src/ma\u202egnp.go`, "1   package x", "2 - var a = 1", "2 + var a = 2")
	d.press("y")
	d.until(func() bool { return !d.m.turn.running })
}

func TestInterruptWhileAsking(t *testing.T) {
	f := newFake()
	asked := make(chan struct{})
	var got Decision
	f.script["x"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		close(asked)
		got = turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "make"})
		return event.StopInterrupted
	}
	d := newDriver(t, f, Options{})
	d.typeText("x")
	d.press("enter")
	<-asked
	d.until(func() bool { return d.m.perm != nil })
	d.press("ctrl+c")
	d.until(func() bool { return !d.m.turn.running })
	if got.Choice != Deny {
		t.Errorf("decision after ^C = %+v", got)
	}
	if d.m.perm != nil {
		t.Error("prompt left open")
	}
}

func TestHostileOutputIsInert(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["x"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("x")
	d.press("enter")
	hostile := "safe\x1b]0;pwned-title\x07 \x1b[2J\x1b[H\x1b[1A\r> Allow? [y/N] \x1bP+q\x1b\\ \u202eevil\u200b \x9b31m\n"
	d.emit(g,
		text(hostile),
		toolCall("bash\x1b[2J", `{"command":"cat \u001b]52;c;Zm9v\u0007x"}`),
		event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "bash", Content: "out\x1b[31m\x1b]8;;http://x\x1b\\link\rover\x1b[?1049h"}},
		event.Event{Type: event.Warning, Text: "warn\x1b[3J"},
	)
	d.finish(g, event.StopCompleted)
	for _, l := range append(d.scrollback, d.m.View().Content) {
		// Our own styling is SGR only: CSI params then 'm'.
		rest := l
		for {
			i := strings.IndexByte(rest, 0x1b)
			if i < 0 {
				break
			}
			j := i + 2
			for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == ';') {
				j++
			}
			if i+1 >= len(rest) || rest[i+1] != '[' || j >= len(rest) || rest[j] != 'm' {
				t.Fatalf("non-SGR escape reached the terminal: %q", l)
			}
			rest = rest[j+1:]
		}
		for _, r := range l {
			if (r < 0x20 && r != 0x1b && r != '\n') || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x200b {
				t.Fatalf("control %U reached the terminal: %q", r, l)
			}
		}
	}
	sb := d.plainScrollback()
	mustContain(t, "scrollback", sb, "safe", "> Allow? [y/N]", "evil", "⚙ bash(cat x)", "outlink", "over", "! warn")
	if contains(sb, "pwned-title") || contains(sb, "Zm9v") {
		t.Error("OSC payload shown as text")
	}
}

func TestResizeRewrapsWithoutDuplicates(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["x"] = g.play
	d := newDriver(t, f, Options{Width: 40})
	d.typeText("x")
	d.press("enter")
	d.emit(g, text("first finished line\nan unfinished line that is fairly long and keeps growing"))
	d.send(tea.WindowSizeMsg{Width: 20, Height: 24})
	for _, l := range d.live() {
		if w := len([]rune(l)); w > 20 {
			t.Errorf("live line wider than the new width: %q", l)
		}
	}
	d.emit(g, text(" until it ends\nlast\n"))
	d.send(tea.WindowSizeMsg{Width: 60, Height: 24})
	d.finish(g, event.StopCompleted)
	sb := d.plainScrollback()
	if n := count(sb, "first finished line"); n != 1 {
		t.Errorf("first line printed %d times:\n%s", n, strings.Join(sb, "\n"))
	}
	if n := count(sb, "last"); n != 1 {
		t.Errorf("last line printed %d times", n)
	}
	joined := strings.Join(sb, " ")
	if !strings.Contains(strings.Join(strings.Fields(joined), " "), "an unfinished line that is fairly long and keeps growing until it ends") {
		t.Errorf("wrapped line lost words:\n%s", strings.Join(sb, "\n"))
	}
}

func TestFinalWithoutStreaming(t *testing.T) {
	f := newFake()
	f.script["q"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		sink.Emit(event.Event{Type: event.Final, Text: "whole answer\nline two"})
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{})
	d.typeText("q")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "whole answer", "line two")
	if n := count(d.plainScrollback(), "whole answer"); n != 1 {
		t.Errorf("printed %d times", n)
	}
}

// TestParallelResultsNameTheirCall: calls in one reply print every card
// first; each result then says which call it answers. A result right after
// its own card needs no name.
func TestParallelResultsNameTheirCall(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["read"] = g.play
	d := newDriver(t, f, Options{})
	d.typeText("read")
	d.press("enter")
	call := func(id, path string) event.Event {
		return event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "read_file", Arguments: `{"path":"` + path + `"}`}}
	}
	result := func(id, content string) event.Event {
		return event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: id, Name: "read_file", Content: content}}
	}
	d.emit(g, call("a", "a.go"), call("b", "b.go"), result("a", "package a"), result("b", "package b"),
		call("c", "c.go"), result("c", "package c"))
	d.finish(g, event.StopCompleted)
	mustContain(t, "scrollback", d.plainScrollback(), "↳ read_file(a.go): package a", "↳ read_file(b.go): package b", "↳ package c")
}

// A paste of many lines shows in the transcript as [pasted N lines]
// beside what was typed; the model gets it whole.
func TestManyLinePasteFoldsInTheTranscript(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{Width: 60, Height: 20})
	d.typeText("explain this log: ")
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "log line %d\n", i)
	}
	d.send(tea.PasteMsg{Content: b.String()})
	d.press("enter")
	d.until(func() bool { return f.nturns() == 1 && contains(d.plainScrollback(), "[pasted 30 lines]") })
	if got := f.lastTurn().Prompt; !strings.Contains(got, "log line 29") || !strings.HasPrefix(got, "explain this log: log line 0") {
		t.Fatalf("the model got %q", got)
	}
	sb := d.plainScrollback()
	mustContain(t, "scrollback", sb, "› explain this log: [pasted 30 lines]")
	if contains(sb, "log line 12") {
		t.Errorf("the paste is printed whole in the transcript")
	}
}

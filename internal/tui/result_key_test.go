package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
)

// A tool card shows the first lines of a long result; ctrl+t prints the
// last result in full (every line, once), and before any result says so.
func TestCtrlTShowsTheLastToolResultInFull(t *testing.T) {
	f := newFake()
	g := newGate()
	f.script["test"] = g.play
	d := newDriver(t, f, Options{})
	d.press("ctrl+t")
	mustContain(t, "live", d.live(), "no tool result yet")
	d.typeText("test")
	d.press("enter")
	zero := 0
	var out strings.Builder
	for i := range 38 {
		fmt.Fprintf(&out, "--- PASS: TestCase%02d\n", i)
	}
	out.WriteString("[exit code 0]\n")
	d.emit(g, toolCall("bash", `{"command":"go test -v"}`),
		event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: "c1", Name: "bash", Content: out.String(), ExitCode: &zero, ElapsedMs: 900}})
	sb := d.plainScrollback()
	mustContain(t, "card", sb, "↳ exit 0 · 900ms · 38 lines", "  --- PASS: TestCase03", "  … +34 lines · ctrl+t shows all")
	if contains(sb, "TestCase04") || contains(sb, "[exit code 0]") {
		t.Fatalf("card not collapsed, or the exit code doubled:\n%s", strings.Join(sb, "\n"))
	}
	d.press("ctrl+t")
	sb = d.plainScrollback()
	mustContain(t, "full result", sb, "↳ bash(go test -v): exit 0 · 900ms · 38 lines")
	for i := range 38 {
		if n := count(sb, fmt.Sprintf("TestCase%02d", i)); n != 1+btoi(i < 4) {
			t.Errorf("TestCase%02d shown %d times", i, n)
		}
	}
	d.finish(g, event.StopCompleted)
	mustContain(t, "help", shownHelp(d), "ctrl+t               show the last tool result in full")
}

// shownHelp is the scrollback after /help.
func shownHelp(d *driver) []string {
	d.typeText("/help")
	d.press("enter")
	return d.plainScrollback()
}

// /help names every key the app itself handles (keys.go's switch, the
// permission prompt's v and its answers), each once in the keys column.
func TestHelpListsEveryKey(t *testing.T) {
	d := newDriver(t, newFake(), Options{Width: 100})
	help := strings.Join(shownHelp(d), "\n")
	for _, k := range []string{"enter", "ctrl+j", "shift+enter", "ctrl+c", "ctrl+d", "esc esc", "shift+tab", "tab", "↑/↓",
		"ctrl+r", "ctrl+q", "ctrl+l", "ctrl+o", "ctrl+t", "ctrl+w", "ctrl+u/k", "ctrl+y", "home/end", "y a p A n", "!cmd"} {
		if !strings.Contains(help, k) {
			t.Errorf("/help does not name %q:\n%s", k, help)
		}
	}
	if !strings.Contains(help, "v                    in a permission prompt: the whole command or diff") {
		t.Errorf("/help does not name the prompt's v:\n%s", help)
	}
}

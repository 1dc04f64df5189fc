package tui

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

var update = flag.Bool("update", false, "rewrite golden screens under testdata/golden")

// checkGolden compares the user's view (scrollback, a marker, the live
// region) with testdata/golden/name.golden.
func checkGolden(t *testing.T, d *driver, name string) {
	t.Helper()
	got := strings.Join(d.plainScrollback(), "\n") + "\n┄┄┄┄ live region ┄┄┄┄\n" + strings.Join(d.live(), "\n") + "\n"
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("screen %s differs from golden:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestGoldenScreens(t *testing.T) {
	zero := 0
	t.Run("idle", func(t *testing.T) {
		d := newDriver(t, newFake(), Options{Width: 60, Greeting: "zero 0.1 · /help for commands"})
		checkGolden(t, d, "idle")
	})
	t.Run("streaming", func(t *testing.T) {
		f := newFake()
		g := newGate()
		f.script["refactor the parser"] = g.play
		d := newDriver(t, f, Options{Width: 60})
		d.typeText("refactor the parser")
		d.press("enter")
		d.emit(g,
			reasoning("The parser has two entry points.\nBoth duplicate the header logic.\nI will merge them."),
			text("## Plan\n\n1. Merge `parseHeader` and **parseHead**\n2. Add tests\n\n```go\nfunc parse(b []byte) error {\n\treturn nil // todo\n}\n```\nStarting with the mer"),
		)
		d.typeText("also update the docs")
		d.press("enter")
		d.typeText("and the chan")
		checkGolden(t, d, "streaming")
		d.finish(g, event.StopCompleted)
	})
	t.Run("tools", func(t *testing.T) {
		f := newFake()
		g := newGate()
		f.script["fix the test"] = g.play
		d := newDriver(t, f, Options{Width: 60})
		d.press("shift+tab")
		d.typeText("fix the test")
		d.press("enter")
		d.emit(g,
			event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "1", Name: "read_file", Arguments: `{"path":"parse.go"}`}},
			event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "read_file", Content: "package parse\n\nfunc Parse() {}\nfunc helper() {}\nfunc more() {}\n", ElapsedMs: 2}},
			event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "2", Name: "edit_file", Arguments: `{"path":"parse.go","old_string":"Parse() {}","new_string":"Parse() error { return nil }"}`}},
			event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "edit_file", Content: "edited parse.go", Diff: "--- a/parse.go\n+++ b/parse.go\n@@ -1,3 +1,3 @@\n package parse\n \n-func Parse() {}\n+func Parse() error { return nil }\n"}},
			event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: "3", Name: "bash", Arguments: `{"command":"go test ./parse/"}`}},
			event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{Name: "bash", Content: "ok  \tzero/parse\t0.01s\n", ExitCode: &zero, ElapsedMs: 2310}},
			event.Event{Type: event.Usage, Usage: &llm.Usage{InputTokens: 9000, OutputTokens: 500}},
			text("Fixed: `Parse` now returns an error.\n"),
		)
		d.finish(g, event.StopCompleted)
		checkGolden(t, d, "tools")
	})
	t.Run("permission", func(t *testing.T) {
		f := newFake()
		asked := make(chan struct{})
		f.script["clean up"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
			close(asked)
			turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "rm -rf ./build && find . -name '*.tmp' -delete", Why: "flagged: recursive delete"})
			return event.StopCompleted
		}
		d := newDriver(t, f, Options{Width: 60})
		d.typeText("clean up")
		d.press("enter")
		<-asked
		d.until(func() bool { return d.m.perm != nil })
		d.press("n")
		d.typeText("keep the build dir")
		checkGolden(t, d, "permission")
		d.press("enter")
		d.until(func() bool { return !d.m.turn.running })
	})
	t.Run("permission-prefix", func(t *testing.T) {
		f := newFake()
		asked := make(chan struct{})
		f.script["run the tests"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
			close(asked)
			turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "go test ./internal/...", Why: "commands ask in normal mode", Prefix: "go test"})
			return event.StopCompleted
		}
		d := newDriver(t, f, Options{Width: 50})
		d.typeText("run the tests")
		d.press("enter")
		<-asked
		d.until(func() bool { return d.m.perm != nil })
		d.press("down", "down", "down")
		checkGolden(t, d, "permission-prefix")
		d.press("esc")
		d.until(func() bool { return !d.m.turn.running })
	})
	t.Run("wide-input", func(t *testing.T) {
		d := newDriver(t, newFake(), Options{Width: 13})
		d.typeText("你好世界，你好世界 ok 🎉")
		checkGolden(t, d, "wide-input")
		d.m.View()
		// Rows of 10 cells, broken at words: "你好世界，", "你好世界 ",
		// "ok 🎉"; the cursor follows the 2-cell emoji: indent 2 + "ok 🎉"
		// 5 = column 7, row 3 (below the rule).
		if c := d.m.cursor; c == nil || c.X != 7 || c.Y != 3 {
			t.Errorf("cursor = %+v, want (7,3)", c)
		}
	})
}

func BenchmarkFirstFrame(b *testing.B) {
	f := newFake()
	for b.Loop() {
		m := New(f, Options{Width: 100, Height: 40})
		m.Init()
		_ = m.View()
	}
}

package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// startZero starts the binary with args in a detached tmux session named
// "zero" on a private socket, with the given HOME and work dir.
func startZero(t *testing.T, bin, home, work, socket string, w, h int, args ...string) tmux {
	x := tmux{t: t, socket: tmuxSocket(t, socket)}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	cmd := fmt.Sprintf("env -i HOME=%s PATH=%s TERM=tmux-256color LANG=C.UTF-8 ZERO_SESSION_DIR=%s %s %s; echo ZERO-EXITED-$?; sleep 60",
		home, os.Getenv("PATH"), filepath.Join(home, "sessions"), bin, strings.Join(args, " "))
	x.run("new-session", "-d", "-s", "zero", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", work, cmd)
	return x
}

// TestEndToEndTypeAheadAndHiddenCommand, on the real binary: text typed
// and Enter pressed just as a prompt for a padded, tall command appears
// neither approve it nor hide its dangerous part.
func TestEndToEndTypeAheadAndHiddenCommand(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	hiding := "ls" + strings.Repeat(" ", 200) + "; touch EVIL_HIDDEN.txt" + strings.Repeat("\n", 80) + "echo listing done"
	args, _ := json.Marshal(map[string]string{"command": hiding})
	srv.Script(
		llmtest.Reply(llmtest.Text("let me look\n"), llmtest.ToolCall("bash", string(args))),
		llmtest.Reply(llmtest.Text("ok, not running it")),
	)
	home, work := t.TempDir(), t.TempDir()
	x := startZero(t, bin, home, work, "p", 90, 24, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("list the files")
	x.waitFor("the prompt", func(l []string) bool { return contains(l, "allow bash?") })
	x.typeLine("and then also check the tests")
	x.waitFor("the prompt to show the whole command", func(l []string) bool {
		return contains(l, "ls ␣×200 ; touch EVIL_HIDDEN.txt") && contains(l, "⏎×79 empty lines") &&
			contains(l, "81 │ echo listing done") && contains(l, "[y] allow once") && contains(l, "kept in the input")
	})
	pause()
	x.run("send-keys", "-t", "zero", "n")
	x.waitFor("the reason field", func(l []string) bool { return contains(l, "reason (enter sends") })
	x.run("send-keys", "-t", "zero", "Enter")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "ok, not running it") && contains(l, "e2e-model") })
	x.waitFor("the typed text back in the input", func(l []string) bool { return contains(l, "› and then also check the tests") })
	lines := x.screen()
	t.Logf("screen:\n%s", strings.Join(lines, "\n"))
	if contains(lines, "allowed") {
		t.Error("the command was allowed")
	}
	mustContain(t, "screen", lines, "bash: denied", "⚙ bash(ls ␣×200 ; touch EVIL_HIDDEN.txt ⏎ ⏎×79 ⏎ echo listing done)")
	if _, err := os.Stat(filepath.Join(work, "EVIL_HIDDEN.txt")); err == nil {
		t.Error("the hidden command ran")
	}
	x.run("send-keys", "-t", "zero", "C-u")
	x.exit()
}

// TestEndToEndResumeShowsWholeConversation: `zero --resume` on a real
// terminal shows every turn of the previous session exactly once.
func TestEndToEndResumeShowsWholeConversation(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	const turns = 15
	var script []llmtest.Turn
	for i := 1; i <= turns; i++ {
		script = append(script, llmtest.Reply(llmtest.Text(fmt.Sprintf("answer number %d\nmore", i))))
	}
	srv.Script(script...)
	home, work := t.TempDir(), t.TempDir()
	x := startZero(t, bin, home, work, "first", 100, 30, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	for i := 1; i <= turns; i++ {
		x.typeLine(fmt.Sprintf("question number %d", i))
		want := fmt.Sprintf("answer number %d", i)
		x.waitFor(want, func(l []string) bool { return countExact(l, want) == 1 && contains(l, "ask anything") })
	}
	x.exit()

	y := startZero(t, bin, home, work, "second", 100, 30, "--resume", "--base-url", srv.URL(), "--model", "e2e-model")
	y.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "ask anything") })
	lines := y.screen()
	t.Logf("screen:\n%s", strings.Join(lines, "\n"))
	for i := 1; i <= turns; i++ {
		for _, want := range []string{fmt.Sprintf("› question number %d", i), fmt.Sprintf("answer number %d", i)} {
			if n := countExact(lines, want); n != 1 {
				t.Errorf("%q shown %d times", want, n)
			}
		}
	}
	y.exit()
}

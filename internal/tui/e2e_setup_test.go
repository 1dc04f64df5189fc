package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndFirstStartSetup: with nothing configured and no server on
// the usual ports, `zero` opens the setup instead of exiting; it lists the
// fake server a scan of 127.0.0.1 found (ZERO_SCAN_PORTS points the scan
// at it), "1" Enter saves it as the active profile and the app starts on
// it, the setup's rows gone from the pane. Esc in a fresh home quits with
// the old message.
func TestEndToEndFirstStartSetup(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.SetModels("setup-model")
	srv.Script(llmtest.Reply(llmtest.Text("hello from the picked server")))
	scan := "ZERO_SCAN_PORTS=" + strconv.Itoa(portOf(t, srv.URL())) + " " + bin

	home := t.TempDir()
	x, _ := startAppWithHome(t, scan, home)
	x.waitFor("the setup", func(l []string) bool {
		return contains(l, "1. setup-model") && contains(l, "anthropic") && contains(l, "number, then Enter (Esc quits):")
	})
	x.typeLine("1")
	x.waitFor("the app on the picked server", func(l []string) bool { return contains(l, "setup-model ·") && contains(l, "ask anything") })
	if lines := x.screen(); contains(lines, "number, then Enter") || contains(lines, "anthropic") {
		t.Errorf("the setup was left in the pane:\n%s", strings.Join(lines, "\n"))
	}
	x.typeLine("hi")
	x.waitFor("the reply", func(l []string) bool {
		return contains(l, "hello from the picked server") && contains(l, "ask anything")
	})
	x.exit()
	data, err := os.ReadFile(filepath.Join(home, ".config", "zero", "config.json"))
	if err != nil || !strings.Contains(string(data), `"activeProvider": "local-`) || !strings.Contains(string(data), srv.URL()+"/v1") {
		t.Errorf("saved config: %v\n%s", err, data)
	}

	y, _ := startAppWithHome(t, scan, t.TempDir())
	y.waitFor("the setup", func(l []string) bool { return contains(l, "number, then Enter (Esc quits):") })
	y.run("send-keys", "-t", "zero", "Escape")
	y.waitFor("the old message", func(l []string) bool {
		return contains(l, "no model configured and no local server found") && contains(l, "ZERO-EXITED-2")
	})
}

// TestEndToEndResumePicker: `zero --resume` with two sessions in the
// project opens the picker (newest first, with each first prompt); ↓
// Enter resumes the older one, whose conversation the app then shows on a
// clean pane: the picker's rows are gone.
func TestEndToEndResumePicker(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("older answer")), llmtest.Reply(llmtest.Text("newer answer")))
	home, work := t.TempDir(), t.TempDir()
	for _, p := range []string{"the older question", "the newer question"} {
		cmd := exec.Command(bin, "exec", "--base-url", srv.URL(), "--model", "e2e-model", p)
		cmd.Dir = work
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ZERO_SESSION_DIR=" + filepath.Join(home, "sessions")}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("zero exec %q: %v\n%s", p, err, out)
		}
	}
	x, _ := startAppIn(t, bin, home, work, "--resume", "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the picker", func(l []string) bool {
		return contains(l, "resume which session of this project? (2;") && contains(l, "› ") && contains(l, "1 prompt  the newer question") && contains(l, "1 prompt  the older question")
	})
	x.run("send-keys", "-t", "zero", "Down")
	x.run("send-keys", "-t", "zero", "Enter")
	x.waitFor("the older session resumed", func(l []string) bool {
		return contains(l, "› the older question") && contains(l, "older answer") && contains(l, "ask anything")
	})
	if lines := x.screen(); contains(lines, "newer answer") || contains(lines, "resume which session") || contains(lines, "the newer question") {
		t.Errorf("the newer session was shown:\n%s", strings.Join(lines, "\n"))
	}
	x.exit()
}

// TestEndToEndSetupWithMoreServersThanRows: 30 models do not fit a
// 24-row pane; the setup shows a window of them (↓ scrolls), any number
// can be typed, and once it closes no setup row is left in the pane or
// its scrollback (a frame taller than the pane scrolled rows into the
// history, where erasing cannot reach them).
func TestEndToEndSetupWithMoreServersThanRows(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	var models []string
	for i := 1; i <= 30; i++ {
		models = append(models, "model-"+strconv.Itoa(100+i))
	}
	srv.SetModels(models...)
	srv.Script(llmtest.Reply(llmtest.Text("hello from model 125")))
	scan := "ZERO_SCAN_PORTS=" + strconv.Itoa(portOf(t, srv.URL())) + " " + bin

	x, _ := startAppWithHome(t, scan, t.TempDir())
	x.waitFor("the setup's window", func(l []string) bool {
		return contains(l, " 1. model-101") && contains(l, "1-15 of 30 shown") && !contains(l, "model-116") && contains(l, "number, then Enter")
	})
	for range 12 {
		x.run("send-keys", "-t", "zero", "Down")
	}
	x.waitFor("the window scrolled", func(l []string) bool {
		return contains(l, "27. model-127") && contains(l, "13-27 of 30 shown") && !contains(l, " 1. model-101")
	})
	x.typeLine("25")
	x.waitFor("the app on model 25", func(l []string) bool { return contains(l, "model-125 ·") && contains(l, "ask anything") })
	for _, l := range x.screen() {
		if strings.Contains(l, ". model-1") || strings.Contains(l, "of 30 shown") || strings.Contains(l, "hosted, with your API key") {
			t.Fatalf("a setup row was left in the pane or its scrollback: %q\n%s", l, strings.Join(x.screen(), "\n"))
		}
	}
	x.typeLine("hi")
	x.waitFor("the reply", func(l []string) bool { return contains(l, "hello from model 125") })
	x.exit()
}

package tui

import (
	"os"
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
// it. Esc in a fresh home quits with the old message.
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

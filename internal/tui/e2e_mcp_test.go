package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// The app with an MCP server configured (the project's test server):
// /mcp shows it connected, a call to one of its tools asks in normal
// mode, "y" runs it, and the result is shown.
func TestAppRunsAnMCPToolAfterAsking(t *testing.T) {
	home := homeWithTestServer(t)

	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("mcp__tester__echo", `{"text":"from the app"}`)),
		llmtest.Reply(llmtest.Text("The server echoed it.")),
	)
	x, _ := startAppWithHome(t, buildZero(t), home, "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.waitMCPConnected("tester")
	x.typeLine("echo through the server")
	x.waitFor("the MCP prompt", func(l []string) bool { return contains(l, "allow mcp__tester__echo?") })
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "y")
	x.waitFor("the answer", func(l []string) bool {
		return contains(l, "The server echoed it.") && contains(l, "from the app") && contains(l, "ask anything")
	})
}

// homeWithTestServer is a HOME whose Zero config has the project's MCP
// test server as "tester", its tools offered directly.
func homeWithTestServer(t *testing.T) string {
	t.Helper()
	server, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "zero")
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(`{"mcpServers": {"tester": {"command": "`+server+`", "alwaysLoad": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// waitMCPConnected types /mcp until it shows server connected: /mcp
// reports the state at that moment, and on a loaded machine the server
// may still be starting when the first frame is up.
func (x tmux) waitMCPConnected(server string) {
	x.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		x.typeLine("/mcp")
		for i := 0; i < 50; i++ {
			if l := x.screen(); contains(l, server) && contains(l, "connected") {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("/mcp never showed %s connected:\n%s", server, strings.Join(x.screen(), "\n"))
		}
	}
}

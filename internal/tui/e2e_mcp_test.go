package tui

import (
	"os"
	"path/filepath"
	"testing"

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
	x.typeLine("/mcp")
	x.waitFor("the server in /mcp", func(l []string) bool { return contains(l, "tester") && contains(l, "connected") })
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

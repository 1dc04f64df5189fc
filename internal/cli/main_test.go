package cli

import (
	"os"
	"testing"

	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// TestMain removes the MCP test server the MCP tests built, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	mcptest.Cleanup()
	os.Exit(code)
}

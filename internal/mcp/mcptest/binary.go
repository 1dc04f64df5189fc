package mcptest

import "github.com/zero-agent/zero/internal/testbin"

// Binary returns the path of cmd/mcptestserver, built once per test
// process (testbin.Build). Errors carry the compiler's output.
func Binary() (string, error) {
	return testbin.Build("github.com/zero-agent/zero/internal/mcp/mcptest/cmd/mcptestserver")
}

// Cleanup removes the built binaries; call it at the end of TestMain.
func Cleanup() { testbin.Cleanup() }

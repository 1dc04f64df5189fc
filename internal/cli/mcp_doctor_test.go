package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// zero mcp doctor starts each server once: a working one shows its tools,
// a broken one fails the command with its log named.
func TestMCPDoctorStartsEachServerOnce(t *testing.T) {
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	isolate(t)
	os.MkdirAll(config.Dir(), 0o700)
	os.WriteFile(filepath.Join(config.Dir(), "mcp.json"), []byte(`{"mcpServers": {
		"tester": {"command": "`+bin+`"},
		"broken": {"command": "/bin/sh", "args": ["-c", "echo no such thing >&2; exit 3"]}}}`), 0o600)
	r := zero("mcp", "doctor")
	if r.code != ExitFailed {
		t.Fatalf("exit %d: %s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"tester", "connected, ", " tools", "broken", "failed", "log: "} {
		if !strings.Contains(r.out, want) {
			t.Errorf("output lacks %q:\n%s", want, r.out)
		}
	}
}

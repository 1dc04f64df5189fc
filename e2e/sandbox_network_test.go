package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sandbox"
)

// TestShellNetworkIsOffUnlessTheUserTurnsItOn: under the OS sandbox a
// shell command reaches no network, not even a server on 127.0.0.1, and
// the model is told why; "sandbox": {"network": "on"} in the user's
// config lets it through, and so does --no-sandbox for one run.
func TestShellNetworkIsOffUnlessTheUserTurnsItOn(t *testing.T) {
	if b := sandbox.Backend(); b != sandbox.BackendBubblewrap {
		t.Fatalf("this test needs bubblewrap (the backend here is %s; .ci/run installs it)", b)
	}
	ping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "pong") }))
	defer ping.Close()
	cmd := `{"command":"curl -sS --max-time 5 ` + ping.URL + `/"}`
	run := func(e *env, args ...string) string {
		t.Helper()
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(tc("n1", "bash", cmd)), llmtest.Reply(llmtest.Text("ok")))
		r := e.run(t.TempDir(), "", append([]string{"exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "fetch it"}, args...)...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return toolResult(t, r.stdout, "n1")
	}

	e := newEnv(t)
	if got := run(e); strings.Contains(got, "pong") || !strings.Contains(got, "network access is off") {
		t.Errorf("network off: %q", got)
	}
	if got := run(e, "--no-sandbox"); !strings.Contains(got, "pong") {
		t.Errorf("--no-sandbox: %q", got)
	}
	dir := filepath.Join(e.home, ".config", "zero")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"sandbox": {"network": "on"}}`), 0o600)
	if got := run(e); !strings.Contains(got, "pong") {
		t.Errorf("network on: %q", got)
	}
}

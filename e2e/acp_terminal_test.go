package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// acpTerminalRun has the official client, offering terminal/*, run one
// bash command through zero acp in auto-accept mode; optIn writes
// acp.terminal to the user's config.
func acpTerminalRun(t *testing.T, optIn bool) (acpRun, *llmtest.Server) {
	t.Helper()
	e := newEnv(t)
	cfg := filepath.Join(e.home, ".config", "zero", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"acp":{"terminal":false}}`
	if optIn {
		body = `{"acp":{"terminal":true}}`
	}
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("c1", "bash", `{"command":"echo from the command; exit 4"}`)), llmtest.Reply(llmtest.Text("Done.")))
	r := acpClient(t, e, t.TempDir(), srv, nil, "auto", "run it", "ZERO_ACP_TERMINAL=1")
	if r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	return r, srv
}

func TestACPRunsCommandsInTheEditorsTerminalWhenOptedIn(t *testing.T) {
	r, srv := acpTerminalRun(t, true)
	var methods []string
	for _, q := range r.TerminalRequests {
		methods = append(methods, q["method"].(string))
	}
	got := strings.Join(methods, " ")
	if !strings.HasPrefix(got, "create wait_for_exit") || !strings.Contains(got, "output") || !strings.HasSuffix(got, "release") {
		t.Errorf("terminal requests %q", got)
	}
	if r.OpenTerminals != 0 {
		t.Errorf("%d terminals left unreleased", r.OpenTerminals)
	}
	var embedded bool
	for _, u := range r.Updates {
		b, _ := json.Marshal(u["content"])
		embedded = embedded || strings.Contains(string(b), `"type":"terminal"`) && strings.Contains(string(b), `"terminalId":"term-1"`)
	}
	if !embedded {
		t.Error("the terminal is not in the tool call's content")
	}
	reqs := srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "from the command") || !strings.Contains(body, "[exit code 4]") {
		t.Errorf("the model did not read the terminal's output: %s", body)
	}
	if !strings.Contains(r.stderr, "outside Zero's sandbox") {
		t.Errorf("zero acp did not say the commands leave the sandbox: %s", r.stderr)
	}
}

func TestACPKeepsCommandsInTheSandboxWithoutTheOptIn(t *testing.T) {
	r, srv := acpTerminalRun(t, false)
	if len(r.TerminalRequests) != 0 {
		t.Errorf("the editor's terminal was used: %v", r.TerminalRequests)
	}
	reqs := srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "from the command") {
		t.Errorf("the command did not run in Zero's sandbox: %s", body)
	}
}

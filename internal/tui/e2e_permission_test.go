package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndPrefixGrant: the real binary in tmux, normal mode. A shell
// call asks and offers its command prefix; p grants `go test …` for the
// session, so the next `go test` call runs without a prompt (one would
// block the turn: nothing answers it, and the final reply never comes).
func TestEndToEndPrefixGrant(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"go test ./first"}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"go test -run X ./second"}`)),
		llmtest.Reply(llmtest.Text("both test runs done")),
	)
	x, _ := startInTmux(t, bin, srv.URL())
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("run the tests")
	x.waitFor("the shell prompt", func(l []string) bool {
		return contains(l, "allow bash?") && contains(l, "$ go test ./first") && contains(l, "[p] allow `go test …` commands for the session")
	})
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "p")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "both test runs done") && contains(l, "ask anything") })

	lines := x.screen()
	for _, want := range []string{"bash: allowed `go test …` for this session", "⚙ bash(go test ./first)", "⚙ bash(go test -run X ./second)"} {
		if n := count(lines, want); n != 1 {
			t.Errorf("%q shown %d times:\n%s", want, n, strings.Join(lines, "\n"))
		}
	}
	var turns []llmtest.Request // the model requests, not the window probes
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			turns = append(turns, r)
		}
	}
	if len(turns) != 3 {
		t.Fatalf("%d model requests, want 3", len(turns))
	}
	body, _ := json.Marshal(turns[2].Map()["messages"])
	if strings.Contains(string(body), "denied") {
		t.Errorf("a call was denied: %s", body)
	}
	x.exit()
}

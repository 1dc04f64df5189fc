package tui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestEndToEndNetworkAsk: the real binary in tmux with "sandbox":
// {"network": "ask"}, auto-accept mode. A curl call asks "with network",
// naming the command and offering its prefix; p gives `curl …` the
// network for the session, so both calls reach the server on 127.0.0.1
// and the second one asks nothing (a prompt would block the turn).
func TestEndToEndNetworkAsk(t *testing.T) {
	if b := sandbox.Backend(); b != sandbox.BackendBubblewrap {
		t.Fatalf("this test needs bubblewrap (the backend here is %s; .ci/run installs it)", b)
	}
	var hits atomic.Int32
	ping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1); fmt.Fprint(w, "pong") }))
	defer ping.Close()
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"curl -sS --max-time 5 `+ping.URL+`/a"}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"curl -sS --max-time 5 `+ping.URL+`/b"}`)),
		llmtest.Reply(llmtest.Text("both fetched")),
	)
	home := t.TempDir()
	testbin.WriteTree(t, home, map[string]string{".config/zero/config.json": `{"sandbox": {"network": "ask"}}`})
	x, _ := startAppWithHome(t, bin, home, "--base-url", srv.URL(), "--model", "e2e-model", "--auto-approve")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })
	x.typeLine("fetch twice")
	x.waitFor("the network prompt", func(l []string) bool {
		return contains(l, "allow bash with network?") && contains(l, "$ curl -sS --max-time 5 "+ping.URL+"/a") && contains(l, "[p] allow `curl …` commands for the session")
	})
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "p")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "both fetched") && contains(l, "ask anything") })
	if n := hits.Load(); n != 2 {
		t.Errorf("the server saw %d requests, want 2", n)
	}
	x.exit()
}

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/testbin"
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

// TestNetworkAskNamesTheCommandAndGrantsPerPrefix: with "sandbox":
// {"network": "ask"}, a command the table knows to need the network
// (curl, wget) gets a permission_request that names it and carries
// "network": true; allowed for the session with its prefix, the command
// and a later one of the same prefix really reach a server on 127.0.0.1;
// a denied one does not run; a command the table does not know (a perl
// script that fetches) runs offline without a question, and the
// model is told why.
func TestNetworkAskNamesTheCommandAndGrantsPerPrefix(t *testing.T) {
	if b := sandbox.Backend(); b != sandbox.BackendBubblewrap {
		t.Fatalf("this test needs bubblewrap (the backend here is %s; .ci/run installs it)", b)
	}
	var hits atomic.Int32
	ping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1); fmt.Fprint(w, "pong") }))
	defer ping.Close()
	dir := t.TempDir()
	// perl-base is essential on Debian, so the script runs on every machine.
	testbin.WriteTree(t, dir, map[string]string{"fetch.pl": "use IO::Socket::INET;\nmy $s = IO::Socket::INET->new(PeerAddr => '" + strings.TrimPrefix(ping.URL, "http://") +
		"', Timeout => 5) or die \"connect: $!\\n\";\nprint $s \"GET /four HTTP/1.0\\r\\n\\r\\n\";\nprint <$s>;\n"})
	e := newEnv(t)
	testbin.WriteTree(t, e.home, map[string]string{".config/zero/config.json": `{"sandbox": {"network": "ask"}}`})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("n1", "bash", `{"command":"curl -sS --max-time 5 `+ping.URL+`/one"}`)),
		llmtest.Reply(tc("n2", "bash", `{"command":"curl -sS --max-time 5 `+ping.URL+`/two"}`)),
		llmtest.Reply(tc("n3", "bash", `{"command":"wget -qO- `+ping.URL+`/three; touch ran.txt"}`)),
		llmtest.Reply(tc("n4", "bash", `{"command":"perl fetch.pl"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	var requests []map[string]any
	events, code := e.converse(dir, func(ev map[string]any) []string {
		if ev["type"] != "permission_request" {
			return nil
		}
		p := ev["permission"].(map[string]any)
		requests = append(requests, p)
		if p["id"] == "n1" {
			return []string{`{"type":"permission_decision","id":"n1","decision":"allow_session","prefix":"curl"}`}
		}
		return []string{fmt.Sprintf(`{"type":"permission_decision","id":%q,"decision":"deny","reason":"no downloads"}`, p["id"])}
	}, "exec", "-i", "stream-json", "-o", "stream-json", "--auto-approve", "-p", "fetch", "--base-url", srv.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exec: exit %d", code)
	}
	if len(requests) != 2 || requests[0]["id"] != "n1" || requests[1]["id"] != "n3" {
		t.Fatalf("want requests for n1 and n3 only, got %v", requests)
	}
	for _, r := range requests {
		if r["network"] != true || !strings.Contains(r["command"].(string), ping.URL) || !strings.Contains(r["reason"].(string), "needs the network") {
			t.Errorf("request does not name the command and its network: %v", r)
		}
	}
	if requests[0]["prefix"] != "curl" || requests[1]["prefix"] != "wget" {
		t.Errorf("prefixes %v, %v", requests[0]["prefix"], requests[1]["prefix"])
	}
	out := map[string]string{}
	for _, r := range toolResults(events) {
		out[r["callId"].(string)], _ = r["content"].(string)
	}
	if !strings.Contains(out["n1"], "pong") || !strings.Contains(out["n2"], "pong") {
		t.Errorf("granted curl did not reach the server: n1 %q, n2 %q", out["n1"], out["n2"])
	}
	if !strings.Contains(out["n3"], "did not run: no downloads") {
		t.Errorf("denied wget: %q", out["n3"])
	}
	if !strings.Contains(out["n4"], "network access is off") || !strings.Contains(out["n4"], `sandbox.network is "ask"`) {
		t.Errorf("an unknown command must run offline and say why: %q", out["n4"])
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("the denied command ran")
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the server saw %d requests, want 2 (the denied and the offline command must not reach it)", n)
	}
}

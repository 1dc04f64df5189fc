package e2e

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// TestMCPLoginThenExecUsesTheStoredToken: a remote server behind OAuth
// refuses Zero until `zero mcp login`, which runs the authorization code
// flow against the server's own authorization server on 127.0.0.1 (the
// "browser" is curl, through $BROWSER), stores the token 0600, and the
// next `zero exec` calls the server's tool with it.
func TestMCPLoginThenExecUsesTheStoredToken(t *testing.T) {
	o := mcptest.NewOAuthServer()
	ts := httptest.NewUnstartedServer(o)
	o.Base = "http://" + ts.Listener.Addr().String()
	ts.Start()
	t.Cleanup(ts.Close)

	e := newEnv(t)
	writeMCP(t, e, `{"mcpServers": {"remote": {"type": "http", "url": "`+o.Base+`/mcp", "alwaysLoad": true}}}`)
	work := t.TempDir()

	// Before login: the run goes on without the server and says how to fix it.
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("No server.")))
	r := e.run(work, "", "exec", "--base-url", srv.URL(), "--model", "m", "hi")
	if r.code != 0 || !strings.Contains(r.stderr, "zero mcp login remote") {
		t.Fatalf("before login: exit %d, stderr does not say to log in:\n%s", r.code, r.stderr)
	}

	e.vars = append(e.vars, "BROWSER=curl -sfL -o /dev/null")
	r = e.run(work, "", "mcp", "login", "remote")
	if r.code != 0 || !strings.Contains(r.stdout, "Logged in to remote") || !strings.Contains(r.stdout, o.Base+"/authorize?") {
		t.Fatalf("login: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	tokenFile := filepath.Join(e.home, ".config", "zero", "mcp-auth", "remote.json")
	if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}

	srv = llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("m1", "mcp__remote__echo", `{"text":"through oauth"}`)),
		llmtest.Reply(llmtest.Text("Echoed.")),
	)
	evs, r := execStream(t, e, work, "--auto-approve", "--base-url", srv.URL(), "--model", "m", "echo it")
	res := toolResults(evs)
	if r.code != 0 || len(res) != 1 || res[0]["content"] != "through oauth" {
		t.Fatalf("exit %d, results %v: %s", r.code, res, r.stderr)
	}
	if o.Authorized.Load() != 1 {
		t.Errorf("codes exchanged = %d: exec authorized again instead of using the token", o.Authorized.Load())
	}

	r = e.run(work, "", "mcp", "logout", "remote")
	if _, err := os.Stat(tokenFile); r.code != 0 || !os.IsNotExist(err) {
		t.Fatalf("logout: exit %d, token file %v: %s", r.code, err, r.stdout)
	}
}

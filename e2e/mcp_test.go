package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// The MCP tests drive real servers from npm (e2e/mcpservers, installed by
// .ci/run with npm ci) through zero exec.

// npmServer is the path of an MCP server's bin from e2e/mcpservers.
func npmServer(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("mcpservers", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed: run `npm ci --prefix e2e/mcpservers` (.ci/run does)", name)
	}
	return p
}

// writeMCP writes Zero's own MCP file (mcp.json in the config dir) for e.
func writeMCP(t *testing.T, e *env, body string) {
	t.Helper()
	dir := filepath.Join(e.home, ".config", "zero")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// withEverything configures npm's server-everything over stdio for e;
// alwaysLoad offers its tools directly (else they are many enough for an
// 8K window to go behind mcp_search).
func withEverything(t *testing.T, e *env, alwaysLoad bool) {
	t.Helper()
	writeMCP(t, e, fmt.Sprintf(`{"mcpServers": {"everything": {"command": %q, "alwaysLoad": %v}}}`, npmServer(t, "mcp-server-everything"), alwaysLoad))
}

func requestTools(t *testing.T, srv *llmtest.Server) []string {
	t.Helper()
	reqs := completions(srv)
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	var names []string
	tools, _ := reqs[0].Map()["tools"].([]any)
	for _, x := range tools {
		f, _ := x.(map[string]any)["function"].(map[string]any)
		names = append(names, f["name"].(string))
	}
	return names
}

func TestMCPServerFromNPMIsCalledThroughExec(t *testing.T) {
	e := newEnv(t)
	withEverything(t, e, true)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("m1", "mcp__everything__echo", `{"message":"hi there"}`)),
		llmtest.Reply(llmtest.Text("It echoed.")),
	)
	evs, r := execStream(t, e, t.TempDir(), "--auto-approve", "--base-url", srv.URL(), "--model", "m", "echo hi there")
	if r.code != 0 || final(evs) != "It echoed." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	names := strings.Join(requestTools(t, srv), " ")
	if !strings.Contains(names, "mcp__everything__echo") || !strings.Contains(names, "read_file") {
		t.Fatalf("tools offered: %s", names)
	}
	res := toolResults(evs)
	if len(res) != 1 || res[0]["isError"] == true || !strings.Contains(res[0]["content"].(string), "hi there") {
		t.Fatalf("tool results %v", res)
	}
}

func TestMCPToolAsksInNormalMode(t *testing.T) {
	// A headless run has no one to ask: the call is refused with a reason
	// the model reads, and the server's tool never runs.
	e := newEnv(t)
	withEverything(t, e, true)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("m1", "mcp__everything__echo", `{"message":"hi"}`)),
		llmtest.Reply(llmtest.Text("Refused.")),
	)
	evs, r := execStream(t, e, t.TempDir(), "--base-url", srv.URL(), "--model", "m", "echo hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	res := toolResults(evs)
	if len(res) != 1 || res[0]["isError"] != true || !strings.Contains(res[0]["content"].(string), "MCP server") {
		t.Fatalf("tool results %v", res)
	}
}

func TestRequiredMCPServerThatFailsEndsExec(t *testing.T) {
	e := newEnv(t)
	writeMCP(t, e, `{"mcpServers": {"broken": {"command": "/nonexistent/mcp-server", "required": true}}}`)
	srv := llmtest.NewServer(t)
	r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "hi")
	if r.code != 5 || !strings.Contains(r.stderr, `required MCP server "broken" did not start`) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := len(completions(srv)); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
}

func TestManyMCPToolsAreOfferedThroughSearch(t *testing.T) {
	// server-everything's schemas take more than a tenth of the window:
	// Zero offers mcp_search and mcp_call instead, and the call still
	// reaches the server (and the gate sees the real tool).
	e := newEnv(t)
	withEverything(t, e, false)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("s1", "mcp_search", `{"query":"echo"}`)),
		llmtest.Reply(tc("c1", "mcp_call", `{"name":"mcp__everything__echo","arguments":{"message":"via search"}}`)),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	evs, r := execStream(t, e, t.TempDir(), "--auto-approve", "--base-url", srv.URL(), "--model", "m", "echo via search")
	if r.code != 0 || final(evs) != "Done." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	names := strings.Join(requestTools(t, srv), " ")
	if strings.Contains(names, "mcp__everything__") || !strings.Contains(names, "mcp_search") || !strings.Contains(names, "mcp_call") {
		t.Fatalf("tools offered: %s", names)
	}
	res := toolResults(evs)
	if len(res) != 2 || !strings.Contains(res[0]["content"].(string), "mcp__everything__echo") || !strings.Contains(res[1]["content"].(string), "via search") {
		t.Fatalf("tool results %v", res)
	}
	if !strings.Contains(r.stderr, "offering them through mcp_search and mcp_call") {
		t.Errorf("stderr: %s", r.stderr)
	}
	// Every request offers the same tools: the list never changes.
	reqs := completions(srv)
	first, _ := json.Marshal(reqs[0].Map()["tools"])
	for i, q := range reqs[1:] {
		if b, _ := json.Marshal(q.Map()["tools"]); string(b) != string(first) {
			t.Fatalf("request %d offers other tools", i+2)
		}
	}
}

func TestMCPStreamableHTTPServerFromNPM(t *testing.T) {
	// server-everything over streamable HTTP on a loopback port.
	port := freeLoopbackPort(t)
	cmd := exec.Command(npmServer(t, "mcp-server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitListening(t, port, &logs)

	e := newEnv(t)
	writeMCP(t, e, fmt.Sprintf(`{"mcpServers": {"remote": {"type": "http", "url": "http://127.0.0.1:%d/mcp", "alwaysLoad": true}}}`, port))
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("m1", "mcp__remote__get-sum", `{"a":2,"b":40}`)),
		llmtest.Reply(llmtest.Text("It is 42.")),
	)
	evs, r := execStream(t, e, t.TempDir(), "--auto-approve", "--base-url", srv.URL(), "--model", "m", "add 2 and 40")
	if r.code != 0 || final(evs) != "It is 42." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	res := toolResults(evs)
	if len(res) != 1 || res[0]["isError"] == true || !strings.Contains(res[0]["content"].(string), "42") {
		t.Fatalf("tool results %v", res)
	}
}

func TestMCPFilesystemServerFromNPM(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("kept by the filesystem server\n"), 0o644)
	e := newEnv(t)
	writeMCP(t, e, `{"mcpServers": {"fs": {"command": "`+npmServer(t, "mcp-server-filesystem")+`", "args": ["`+dir+`"], "alwaysLoad": true}}}`)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("m1", "mcp__fs__read_text_file", `{"path":"`+filepath.Join(dir, "notes.txt")+`"}`)),
		llmtest.Reply(llmtest.Text("Read.")),
	)
	evs, r := execStream(t, e, dir, "--auto-approve", "--base-url", srv.URL(), "--model", "m", "read notes through the server")
	if r.code != 0 || final(evs) != "Read." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	res := toolResults(evs)
	if len(res) != 1 || !strings.Contains(res[0]["content"].(string), "kept by the filesystem server") {
		t.Fatalf("tool results %v", res)
	}
}

func freeLoopbackPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits until something accepts connections on port.
func waitListening(t *testing.T, port int, logs fmt.Stringer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %d:\n%s", port, logs)
}

func TestMCPServersSeeTheWorkspaceAsRoots(t *testing.T) {
	// server-everything's get-roots-list answers with the roots the client
	// declared: the workspace and every --add-dir folder.
	e := newEnv(t)
	withEverything(t, e, true)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("r1", "mcp__everything__get-roots-list", `{}`)),
		llmtest.Reply(llmtest.Text("Listed.")),
	)
	dir, extra := t.TempDir(), t.TempDir()
	evs, r := execStream(t, e, dir, "--auto-approve", "--add-dir", extra, "--base-url", srv.URL(), "--model", "m", "list the roots")
	if r.code != 0 || final(evs) != "Listed." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	res := toolResults(evs)
	if len(res) != 1 {
		t.Fatalf("tool results %v", res)
	}
	out := res[0]["content"].(string)
	for _, want := range []string{"file://" + dir, "file://" + extra} {
		if !strings.Contains(out, want) {
			t.Errorf("roots lack %s:\n%s", want, out)
		}
	}
}

// lastUserMessage is the text of the first request's last message.
func firstRequestPrompt(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	msgs := completions(srv)[0].Map()["messages"].([]any)
	s, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	return s
}

func TestMCPPromptsAndResourcesReachTheModel(t *testing.T) {
	e := newEnv(t)
	withEverything(t, e, false)
	t.Run("a server's prompt as a slash command", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(llmtest.Text("Sunny.")))
		r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "/mcp__everything__args-prompt Portland Oregon")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if got := firstRequestPrompt(t, srv); got != "What's weather in Portland, Oregon?" {
			t.Fatalf("prompt sent: %q", got)
		}
	})
	t.Run("an @server:uri resource attached", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(llmtest.Text("Read.")))
		r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "summarize @everything:demo://resource/static/document/features.md please")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		got := firstRequestPrompt(t, srv)
		if !strings.HasPrefix(got, "summarize @everything:") || strings.Count(got, `<resource server="everything" uri="demo://resource/static/document/features.md">`) != 1 || !strings.Contains(got, "# Everything Server") {
			t.Fatalf("prompt sent:\n%s", got[:min(len(got), 600)])
		}
	})
	t.Run("an unknown prompt is an error", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "/mcp__everything__nope")
		if r.code != 2 || !strings.Contains(r.stderr, "no MCP prompt /mcp__everything__nope") || len(completions(srv)) != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
}

func TestTwoHundredMCPToolsKeepTheFirstRequestInBudget(t *testing.T) {
	// 200 tools from one server, an 8K window: the schemas go behind
	// mcp_search and mcp_call, and the first request stays within the 8 KB
	// budget of a default run (TestFixBugStreamJSONThenResume).
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	writeMCP(t, e, `{"mcpServers": {"many": {"command": "`+bin+`", "args": ["-tools", "200"]}}}`)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	r := e.run(t.TempDir(), "", "exec", "--base-url", srv.URL(), "--model", "m", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	names := requestTools(t, srv)
	// 11 built-in tools (TestSmallWindowUsesTheMinimalProfile) + mcp_search + mcp_call
	if n := len(completions(srv)[0].Body); n > 8192 || len(names) > 13 {
		t.Fatalf("first request %d bytes with %d tools: %v", n, len(names), names)
	}
	t.Logf("first request with 200 MCP tools configured: %d bytes, %d tools offered", len(completions(srv)[0].Body), len(names))
}

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// The `zero mcp serve` tests run the real binary as an MCP server and
// drive it with the official clients: the Go SDK's (over its command
// transport) and the TypeScript SDK's from npm (e2e/mcpservers).

// serveClient starts `zero mcp serve args...` in dir and connects a Go SDK
// client with copts to it.
func serveClient(t *testing.T, e *env, dir string, copts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(zeroBin, append([]string{"mcp", "serve"}, args...)...)
	cmd.Dir, cmd.Env = dir, e.vars
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, copts).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to zero mcp serve: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestMCPServeAgentModeOverStdio(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the answer is 42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "read_file", `{"path":"notes.txt"}`)),
		llmtest.Reply(llmtest.Text("It is 42.")),
		llmtest.Reply(llmtest.Text("Yes, 42.")),
	)
	cs := serveClient(t, e, dir, nil, "--base-url", srv.URL(), "--model", "m")
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"zero", "zero_reply"}) {
		t.Fatalf("tools %v", names)
	}
	first := callOutcome(t, cs, "zero", map[string]any{"prompt": "what is in notes.txt?"})
	if first["answer"] != "It is 42." || first["status"] != "completed" || first["threadId"] == "" {
		t.Fatalf("zero: %v", first)
	}
	next := callOutcome(t, cs, "zero_reply", map[string]any{"threadId": first["threadId"], "prompt": "sure?"})
	if next["answer"] != "Yes, 42." || next["threadId"] != first["threadId"] {
		t.Fatalf("zero_reply: %v", next)
	}
	reqs := completions(srv)
	if b, _ := json.Marshal(reqs[len(reqs)-1].Map()["messages"]); !strings.Contains(string(b), "the answer is 42") {
		t.Fatalf("the reply's request lacks the first exchange: %s", b)
	}
}

// Tools mode asks no model anything, so it serves with none configured
// (newEnv sets no provider and no local server listens).
func TestMCPServeToolsModeNeedsNoModelReadsAndRefusesAWrite(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the answer is 42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := serveClient(t, e, dir, nil, "--tools")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "notes.txt"}})
	if err != nil || res.IsError || !strings.Contains(contentText(res), "the answer is 42") {
		t.Fatalf("read_file: %v %q", err, contentText(res))
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "touch made.txt"}})
	if err != nil || !res.IsError || !strings.Contains(contentText(res), "cannot elicit") {
		t.Fatalf("bash: %v %q", err, contentText(res))
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("made.txt exists (%v)", err)
	}
}

func TestMCPServeWithTheTypeScriptSDKClient(t *testing.T) {
	// The npm client declares elicitation and accepts: the write runs,
	// and progress notifications arrive while it does.
	script, err := filepath.Abs(filepath.Join("mcpservers", "zero-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("mcpservers", "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatal("@modelcontextprotocol/sdk is not installed: run `npm ci --prefix e2e/mcpservers` (.ci/run does)")
	}
	e := newEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "write_file", `{"path":"hello.txt","content":"hello\n"}`)),
		llmtest.Reply(llmtest.Text("Wrote hello.txt.")),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, zeroBin, "write hello.txt", "--base-url", srv.URL(), "--model", "m")
	cmd.Dir, cmd.Env = dir, e.vars
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got struct {
		Tools  []string `json:"tools"`
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
			IsError           bool           `json:"isError"`
		} `json:"result"`
		Progress     []string `json:"progress"`
		Elicitations []string `json:"elicitations"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	oc := got.Result.StructuredContent
	if !slices.Equal(got.Tools, []string{"zero", "zero_reply"}) || got.Result.IsError || oc["answer"] != "Wrote hello.txt." || oc["status"] != "completed" {
		t.Fatalf("%s", out)
	}
	if files, _ := oc["changedFiles"].([]any); len(files) != 1 || files[0] != "hello.txt" {
		t.Fatalf("changedFiles %v", oc["changedFiles"])
	}
	if len(got.Elicitations) != 1 || !strings.Contains(got.Elicitations[0], "write_file") {
		t.Fatalf("elicitations %q", got.Elicitations)
	}
	if !slices.ContainsFunc(got.Progress, func(m string) bool { return strings.HasPrefix(m, "tool write_file") }) {
		t.Fatalf("progress %q", got.Progress)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt: %q %v", b, err)
	}
}

// callOutcome calls a tool and returns its structured content.
func callOutcome(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", name, contentText(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func contentText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

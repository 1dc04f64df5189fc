package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// withMCPServer writes Zero's mcp.json with the project's test server
// under name (after openTest isolated the home).
func withMCPServer(t *testing.T, name string, args ...string) {
	t.Helper()
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	quoted := `"` + bin + `"`
	argList := `[]`
	if len(args) > 0 {
		argList = `["` + strings.Join(args, `","`) + `"]`
	}
	if err := os.MkdirAll(config.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	body := `{"mcpServers": {"` + name + `": {"command": ` + quoted + `, "args": ` + argList + `, "alwaysLoad": true}}}`
	if err := os.WriteFile(filepath.Join(config.Dir(), "mcp.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMCPCommandsReportReconnectAndRemove(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	withMCPServer(t, "tester")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	if err := s.PrepareMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	status, err := rt.MCP(ctx, "")
	if err != nil || !strings.Contains(status, "tester") || !strings.Contains(status, "connected") || !strings.Contains(status, "log: ") {
		t.Fatalf("/mcp: %q, %v", status, err)
	}
	list, _ := rt.MCP(ctx, "tools")
	if !strings.Contains(list, "mcp__tester__echo  external") || !strings.Contains(list, "mcp__tester__peek  external-read") {
		t.Fatalf("/mcp tools:\n%s", list)
	}
	if out, err := rt.MCP(ctx, "reconnect tester"); err != nil || !strings.Contains(out, "reconnected tester") {
		t.Fatalf("/mcp reconnect: %q, %v", out, err)
	}
	if _, err := rt.MCP(ctx, "bogus"); err == nil {
		t.Fatal("an unknown /mcp verb was accepted")
	}
	if out, err := rt.MCP(ctx, "remove tester"); err != nil || !strings.Contains(out, "removed tester") {
		t.Fatalf("/mcp remove: %q, %v", out, err)
	}
	data, _ := os.ReadFile(filepath.Join(config.Dir(), "mcp.json"))
	if strings.Contains(string(data), "tester") {
		t.Fatalf("mcp.json still holds the server:\n%s", data)
	}
}

func TestPlanModeOffersOnlyReadOnlyMCPTools(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	withMCPServer(t, "tester")
	rt, _ := openIsolated(t, srv, Options{Mode: "plan"})
	s := openSession(t, rt, Which{})
	srv.Script(llmtest.Reply(llmtest.Text("a plan")))
	s.Prompt(context.Background(), Turn{Prompt: "plan it"})
	var names []string
	for _, x := range srv.Requests()[len(srv.Requests())-1].Map()["tools"].([]any) {
		names = append(names, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	got := strings.Join(names, " ")
	if !strings.Contains(got, "mcp__tester__peek") || strings.Contains(got, "mcp__tester__echo") {
		t.Fatalf("plan mode offers: %s", got)
	}
}

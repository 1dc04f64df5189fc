package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// shMCPServer is a stdio MCP server in sh: it answers initialize and
// tools/list (one tool, "wait"), then on tools/call hangs ($1 = hang) or
// dies ($1 = crash). Its start-up may hang or crash too ($1 = hang-start,
// crash-start).
const shMCPServer = `#!/bin/sh
case "$1" in
hang-start) exec sleep 600 ;;
crash-start) echo "boom: cannot start" >&2; exit 1 ;;
esac
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id": *\([0-9][0-9]*\).*/\1/p')
  case "$line" in
  *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"faulty","version":"1"}}}\n' "$id" ;;
  *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"wait","description":"waits","inputSchema":{"type":"object"}}]}}\n' "$id" ;;
  *'"tools/call"'*) [ "$1" = crash ] && { echo "boom: crashed mid-call" >&2; exit 1; }; exec sleep 600 ;;
  *'"ping"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
  esac
done
`

// extFault is an MCP server or a hook that misbehaves, and the reply the
// model then gives once the run has gone on.
type extFault struct {
	name  string
	mcp   string         // the shMCPServer mode; "" none
	hook  map[string]any // a PreToolUse hook on bash; nil none
	calls []llmtest.Step // the model's first reply
	check func(t *testing.T, evs []map[string]any)
}

func extFaults() []extFault {
	bashCall := []llmtest.Step{tc("h1", "bash", `{"command":"echo ran"}`)}
	mcpCall := []llmtest.Step{tc("m1", "mcp__faulty__wait", `{}`)}
	result := func(want string) func(t *testing.T, evs []map[string]any) {
		return func(t *testing.T, evs []map[string]any) {
			res := toolResults(evs)
			if len(res) != 1 || !strings.Contains(fmt.Sprint(res[0]["content"]), want) {
				t.Errorf("want a tool result holding %q, got %v", want, res)
			}
		}
	}
	return []extFault{
		{name: "MCP server hangs at start-up", mcp: "hang-start", calls: bashCall, check: result("ran")},
		{name: "MCP server crashes at start-up", mcp: "crash-start", calls: bashCall, check: result("ran")},
		{name: "MCP tool call hangs", mcp: "hang", calls: mcpCall, check: result("timed out")},
		{name: "MCP server crashes mid-call", mcp: "crash", calls: mcpCall, check: result("boom: crashed mid-call")},
		{name: "hook hangs", hook: map[string]any{"type": "command", "command": "sleep 600", "timeout": 1}, calls: bashCall, check: result("ran")},
		{name: "hook crashes", hook: map[string]any{"type": "command", "command": "echo hook broke >&2; exit 1"}, calls: bashCall, check: result("ran")},
		{name: "hook marked onError block hangs", hook: map[string]any{"type": "command", "command": "sleep 600", "timeout": 1, "onError": "block"},
			calls: bashCall, check: result("onError: block")},
	}
}

// extensionFaults runs each hanging or crashing extension: the run goes
// on past it (within its timeout) and reaches the final answer.
func extensionFaults(t *testing.T, tally *faultTally) {
	for _, f := range extFaults() {
		t.Run(strings.ReplaceAll(f.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			tally.add(runPastExtensionFault(t, f), 0)
		})
	}
}

func runPastExtensionFault(t *testing.T, f extFault) bool {
	dir := t.TempDir()
	e := newEnv(t)
	cfgDir := filepath.Join(e.home, ".config", "zero")
	os.MkdirAll(cfgDir, 0o700)
	if f.mcp != "" {
		script := filepath.Join(cfgDir, "faulty-mcp.sh")
		os.WriteFile(script, []byte(shMCPServer), 0o755)
		writeMCP(t, e, fmt.Sprintf(`{"mcpServers": {"faulty": {"command": %q, "args": [%q], "startupTimeout": 1, "toolTimeout": 1, "alwaysLoad": true}}}`, script, f.mcp))
	}
	if f.hook != nil {
		settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{
			"PreToolUse": []map[string]any{{"matcher": "Bash", "hooks": []map[string]any{f.hook}}}}})
		os.WriteFile(filepath.Join(cfgDir, "settings.json"), settings, 0o600)
	}
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(f.calls...), llmtest.Reply(llmtest.Text("Went on.")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "do it")
	evs := parseStream(t, r.stdout)
	if r.code != 0 || final(evs) != "Went on." {
		t.Errorf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
		return false
	}
	f.check(t, evs)
	return !t.Failed()
}

package permission

import (
	"context"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

// A server-wide grant ("mcp__github__*", the prompt's p for an MCP tool)
// runs every tool of that server and no other server's.
func TestServerWideGrantCoversThatServersTools(t *testing.T) {
	e := newEnv(t)
	en := e.engine(t, ModeNormal)
	if err := en.Grant(Grant{Scope: ScopeSession, Tool: ServerPrefix("mcp__github__create_issue") + "*"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool string
		want Action
	}{
		{"mcp__github__list_issues", Allow},
		{"mcp__github__create_issue", Allow},
		{"mcp__gitlab__list_issues", Ask},
		{"mcp__github", Ask},
	} {
		tl := fakeTool{tc.tool, tools.SideExternal}
		if d := en.Decide(context.Background(), call(tc.tool, map[string]any{}), tl); d.Action != tc.want {
			t.Errorf("%s: %+v, want %s", tc.tool, d, tc.want)
		}
	}
	if ServerPrefix("read_file") != "" || ServerPrefix("mcp____x") != "" {
		t.Error("a prefix for a tool that is no server's")
	}
}

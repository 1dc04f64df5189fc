package tui

import "testing"

// For an MCP tool the prompt's p grants every tool of its server for the
// session; A is the tool alone, always.
func TestMCPPromptOffersTheServerForTheSession(t *testing.T) {
	cs := permChoices(PermissionRequest{Tool: "mcp__github__create_issue", Prefix: "mcp__github__"})
	var p, a *permChoice
	for i := range cs {
		switch cs[i].key {
		case "p":
			p = &cs[i]
		case "A":
			a = &cs[i]
		}
	}
	if p == nil || p.label != "allow every `mcp__github__*` tool for the session" || p.d.Prefix != "mcp__github__" || p.d.Choice != AllowSession {
		t.Fatalf("p: %+v", p)
	}
	if a == nil || a.d.Prefix != "" || a.d.Choice != AllowAlways {
		t.Fatalf("A: %+v", a)
	}
}

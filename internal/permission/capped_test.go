package permission

import (
	"context"
	"testing"
)

// A cap narrows the engine's mode and never widens it: a sub-agent in
// normal mode under an auto-accept parent asks; one that asks for
// auto-accept under a normal parent still asks; plan denies writes.
func TestDecideCappedNeverWidensTheMode(t *testing.T) {
	e := newEnv(t)
	write := call("write_file", map[string]any{"path": "new.go", "content": "x"})
	for _, c := range []struct {
		engine, limit Mode
		want          Action
	}{
		{ModeAutoAccept, "", Allow},
		{ModeAutoAccept, ModeNormal, Ask},
		{ModeNormal, ModeAutoAccept, Ask},
		{ModeAutoAccept, ModePlan, Deny},
		{ModePlan, ModeAutoAccept, Deny},
	} {
		if d := e.engine(t, c.engine).DecideCapped(context.Background(), write, writeTool, c.limit); d.Action != c.want {
			t.Errorf("engine %s, cap %q: %s, want %s", c.engine, c.limit, d.Action, c.want)
		}
	}
	if Narrower(ModeNormal, ModeAutoAccept) != ModeNormal || Narrower("", ModePlan) != ModePlan || !ModeAutoAccept.Wider(ModeNormal) || ModePlan.Wider(ModeNormal) {
		t.Error("Narrower/Wider order is not plan < normal < auto-accept")
	}
}

// An agent definition's tools name Zero's tools by Claude's names too.
func TestRuleNamesCoversClaudeAndZeroNames(t *testing.T) {
	for _, c := range []struct {
		name, tool string
		want       bool
	}{{"Read", "grep", true}, {"Read", "write_file", false}, {"read_file", "read_file", true}, {"Bash(git:*)", "bash", true}, {"mcp__gh", "mcp__gh__issues", true}, {"Frobnicate", "bash", false}} {
		if got := RuleNames(c.name, c.tool); got != c.want {
			t.Errorf("RuleNames(%q, %q) = %v", c.name, c.tool, got)
		}
	}
}

package permission

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

var (
	execTool  = fakeTool{tools.ExecCommandName, tools.SideShell}
	stdinTool = fakeTool{tools.WriteStdinName, tools.SideShell}
	planTool  = fakeTool{tools.UpdatePlanName, tools.SideNone}
)

func TestDecideExecAndPlanTools(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name string
		mode Mode
		tool fakeTool
		args map[string]any
		want Action
		rule string
	}{
		{"exec normal asks", ModeNormal, execTool, map[string]any{"cmd": "npm run dev"}, Ask, RuleModeNormal},
		{"exec auto runs", ModeAutoAccept, execTool, map[string]any{"cmd": "python3 -m http.server 8000"}, Allow, RuleModeAuto},
		{"exec guard deny", ModeAutoAccept, execTool, map[string]any{"cmd": "rm -rf ~"}, Deny, "delete.protected"},
		{"exec workdir outside", ModeAutoAccept, execTool, map[string]any{"cmd": "ls", "workdir": "../other"}, Deny, RuleBadArguments},
		{"exec workdir absolute inside", ModeAutoAccept, execTool, map[string]any{"cmd": "ls", "workdir": filepath.Join(e.ws, "sub")}, Allow, RuleModeAuto},
		{"exec plan denied", ModePlan, execTool, map[string]any{"cmd": "ls"}, Deny, RulePlan},
		{"exec empty cmd", ModeAutoAccept, execTool, map[string]any{}, Deny, RuleBadArguments},
		{"stdin runs in normal", ModeNormal, stdinTool, map[string]any{"session_id": 1, "chars": "y\n"}, Allow, RuleStdin},
		{"stdin poll", ModeNormal, stdinTool, map[string]any{"session_id": 1}, Allow, RuleStdin},
		{"stdin typed command the guard refuses", ModeAutoAccept, stdinTool, map[string]any{"session_id": 1, "chars": "ls\nrm -rf /\n"}, Deny, "delete.protected"},
		{"stdin plan denied", ModePlan, stdinTool, map[string]any{"session_id": 1, "chars": ""}, Deny, RulePlan},
		{"plan tool in plan mode", ModePlan, planTool, map[string]any{"plan": []any{}}, Allow, RuleSessionState},
		{"plan tool in normal mode", ModeNormal, planTool, map[string]any{}, Allow, RuleSessionState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.engine(t, tt.mode).Decide(context.Background(), call(tt.tool.name, tt.args), tt.tool)
			if d.Action != tt.want || d.Rule != tt.rule || d.Reason == "" {
				t.Errorf("Decide = %+v, want %s by %s", d, tt.want, tt.rule)
			}
		})
	}
}

func TestExecCommandPromptShowsTheCommandAndGrantsIt(t *testing.T) {
	e := newEnv(t)
	eng := e.engine(t, ModeNormal)
	var asked Request
	g := &Gate{Engine: eng, Ask: func(_ context.Context, r Request) Decision {
		asked = r
		return Decision{Choice: AllowSession}
	}}
	c := call(tools.ExecCommandName, map[string]any{"cmd": "npm run dev", "yield_time_ms": 500})
	if o := g.Decide(context.Background(), c, execTool); !o.Allow {
		t.Fatalf("not allowed: %+v", o)
	}
	if asked.Command != "npm run dev" {
		t.Fatalf("the prompt shows %q", asked.Command)
	}
	if d := eng.Decide(context.Background(), c, execTool); d.Action != Allow || d.Rule != RuleGrant {
		t.Fatalf("the session grant did not cover the same command: %+v", d)
	}
}

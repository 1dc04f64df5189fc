package permission

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// A question waits while the user changes the mode: Recheck says what
// the engine would decide now, so the asker can settle it.
func TestRecheckDecidesAWaitingCallInTheModeSetSince(t *testing.T) {
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	bash := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{ID: "c", Name: "bash", Arguments: string(b)}
	}
	write := llm.ToolCall{ID: "c", Name: "write_file", Arguments: `{"path":"a","content":"x"}`}
	for _, tc := range []struct {
		name string
		tool tools.Tool
		call llm.ToolCall
		to   Mode
		want Action
	}{
		{"a write asked in normal mode runs in auto-accept", sideTool{"write_file", tools.SideWrite}, write, ModeAutoAccept, Allow},
		{"a command asked in normal mode runs in auto-accept", sideTool{"bash", tools.SideShell}, bash("go test ./..."), ModeAutoAccept, Allow},
		{"a guard's question still asks in auto-accept", sideTool{"bash", tools.SideShell}, bash("git push --force"), ModeAutoAccept, Ask},
		{"a write is refused in plan mode", sideTool{"write_file", tools.SideWrite}, write, ModePlan, Deny},
		{"normal mode asks again", sideTool{"write_file", tools.SideWrite}, write, ModeNormal, Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *Verdict
			var g *Gate
			g = newPermissionGate(ws, ModeNormal, func(_ context.Context, req Request) Decision {
				g.Engine.SetMode(tc.to)
				v := req.Recheck()
				got = &v
				return Decision{Choice: Reject}
			})
			g.Decide(context.Background(), tc.call, tc.tool)
			if got == nil || got.Action != tc.want {
				t.Fatalf("recheck in %s: %+v, want %s", tc.to, got, tc.want)
			}
		})
	}
}

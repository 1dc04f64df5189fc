package permission

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// fixedHooks answers every PreToolUse with v and counts the calls.
type fixedHooks struct {
	v     HookVerdict
	calls int
}

func (f *fixedHooks) PreToolUse(context.Context, llm.ToolCall) HookVerdict { f.calls++; return f.v }

func TestPreToolUseVerdictsFoldIntoTheGate(t *testing.T) {
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	shell := sideTool{"bash", tools.SideShell}
	bash := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{ID: "c", Name: "bash", Arguments: string(b)}
	}
	yes := func(context.Context, Request) Decision { return Decision{Choice: AllowOnce} }
	for _, tc := range []struct {
		name    string
		mode    Mode
		ask     Asker
		hook    HookVerdict
		call    llm.ToolCall
		allow   bool
		reason  string
		rewrite string
		fired   int
	}{
		{"deny blocks with the hook's reason", ModeAutoAccept, nil, HookVerdict{Decision: Deny, Reason: "use make clean"}, bash("rm -rf build"), false, "PreToolUse hook blocked this call: use make clean", "", 1},
		{"allow spares normal mode's question", ModeNormal, nil, HookVerdict{Decision: Allow}, bash("go test ./..."), true, "", "", 1},
		{"allow does not answer the guard's question", ModeNormal, nil, HookVerdict{Decision: Allow}, bash("git push --force"), false, "no one can be asked", "", 1},
		{"the guard's refusal never reaches the hook", ModeAutoAccept, nil, HookVerdict{Decision: Allow}, bash("rm -rf /"), false, "refused in every mode", "", 0},
		{"ask makes auto-accept ask", ModeAutoAccept, nil, HookVerdict{Decision: Ask, Reason: "check first"}, bash("ls"), false, "check first", "", 1},
		{"ask is put to the person", ModeAutoAccept, yes, HookVerdict{Decision: Ask}, bash("ls"), true, "", "", 1},
		{"updated input is decided again", ModeAutoAccept, nil, HookVerdict{Arguments: `{"command":"rm -rf /"}`}, bash("ls"), false, "new call is refused", "", 1},
		{"updated input runs", ModeAutoAccept, nil, HookVerdict{Arguments: `{"command":"ls -la"}`}, bash("ls"), true, "", `{"command":"ls -la"}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newPermissionGate(ws, tc.mode, tc.ask)
			h := &fixedHooks{v: tc.hook}
			g.Hooks = h
			o := g.Decide(context.Background(), tc.call, shell)
			if o.Allow != tc.allow || !strings.Contains(o.Reason, tc.reason) || o.Rewrite != tc.rewrite || h.calls != tc.fired {
				t.Errorf("Decide = %+v (hook fired %d times), want allow %v, reason %q, rewrite %q", o, h.calls, tc.allow, tc.reason, tc.rewrite)
			}
		})
	}
}

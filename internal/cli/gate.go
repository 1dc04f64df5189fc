package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// Permission modes (issue 5): normal asks before writes and shell,
// auto-accept runs them (the guard's deny still denies), plan offers
// read-only tools only.
const (
	modeNormal     = "normal"
	modeAutoAccept = "auto-accept"
	modePlan       = "plan"
)

// askFunc asks someone (a person in the TUI, a client over stream-json) to
// approve one call. It returns whether to allow, whether the answer holds
// for the rest of the session, and a reason for a denial.
type askFunc func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) (allow, session bool, reason string)

// permissionGate decides each tool call from its side effect, the mode, the
// shell guard and the session's grants, asking through ask when a person
// must decide. A nil ask turns every "ask" into a denial the model can read
// (headless runs never block).
type permissionGate struct {
	ws   *workspace.Workspace
	mode string
	ask  askFunc

	mu     sync.Mutex
	grants map[string]bool // tool name or "bash:<command>" granted for the session
}

func newPermissionGate(ws *workspace.Workspace, mode string, ask askFunc) *permissionGate {
	if mode == "" {
		mode = modeNormal
	}
	return &permissionGate{ws: ws, mode: mode, ask: ask, grants: map[string]bool{}}
}

// Decide implements agent.Gate.
func (g *permissionGate) Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) agent.Decision {
	side := t.SideEffect()
	if side == tools.SideRead {
		return agent.Decision{Allow: true}
	}
	if g.mode == modePlan {
		return agent.Decision{Reason: fmt.Sprintf("plan mode offers read-only tools; %s is not available until the user leaves plan mode", t.Name())}
	}
	key := t.Name()
	why := fmt.Sprintf("%s changes files", t.Name())
	if side == tools.SideShell {
		cmd := commandOf(call)
		v := shellguard.Check(cmd, shellguard.Options{Workspace: g.ws.Root(), Roots: g.ws.Roots()[1:], Home: os.Getenv("HOME")})
		switch v.Verdict {
		case "deny":
			return agent.Decision{Reason: fmt.Sprintf("the shell guard refuses this command in every mode (%s, rule %s). Do not retry it; find a safer way.", v.Reason, v.Rule)}
		case "ask":
			why = "flagged: " + v.Reason
			key = "bash:" + cmd
		default:
			why = "shell commands need approval in normal mode"
			key = "bash:" + cmd
			if g.mode == modeAutoAccept {
				return agent.Decision{Allow: true}
			}
		}
	} else if g.mode == modeAutoAccept {
		return agent.Decision{Allow: true}
	}
	g.mu.Lock()
	granted := g.grants[key]
	g.mu.Unlock()
	if granted {
		return agent.Decision{Allow: true}
	}
	if g.ask == nil {
		return agent.Decision{Reason: fmt.Sprintf("%s needs approval (%s) and no one can approve it in this run; rerun with --auto-approve or --permission-mode auto-accept, or use -i stream-json to answer permission requests", t.Name(), why)}
	}
	allow, session, reason := g.ask(ctx, call, t, why)
	if !allow {
		if reason == "" {
			reason = "the user denied it"
		}
		return agent.Decision{Reason: "the user denied this call: " + reason}
	}
	if session {
		g.mu.Lock()
		g.grants[key] = true
		g.mu.Unlock()
	}
	return agent.Decision{Allow: true}
}

// commandOf returns the command argument of a shell call.
func commandOf(call llm.ToolCall) string {
	var a struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &a)
	return strings.TrimSpace(a.Command)
}

// visibleFor returns the tool filter of a mode: plan offers read-only tools.
func visibleFor(mode string) func(tools.Tool) bool {
	if mode == modePlan {
		return func(t tools.Tool) bool { return t.SideEffect() == tools.SideRead }
	}
	return nil
}

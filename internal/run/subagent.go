package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/tools"
)

// TaskToolName is the tool that hands a job to a sub-agent.
const TaskToolName = "task"

// Built-in sub-agents.
const (
	// AgentExplore reads and searches only (the tools plan mode offers)
	// and reports what it found.
	AgentExplore = "explore"
	// AgentGeneral has the parent's tools (each call gated as the
	// parent's are).
	AgentGeneral = "general"
)

// subagentBrief is added before a sub-agent's job: it works alone and
// its final answer is all its parent sees.
const subagentBrief = "You are a sub-agent: another agent handed you the job below. Work on your own (no one can answer questions), use the tools, and end with one final answer that holds everything the other agent needs (file paths, line numbers, findings, what you changed): it sees nothing else of your work."

// exploreBrief narrows the explorer.
const exploreBrief = " You are an explorer: read and search only, change nothing."

// taskTool runs a sub-agent in a child session of the same runtime: its
// own log (ParentID, RootID in its metadata) and context window, the
// parent's permission surface (requests labelled with the agent's name),
// the parent's cancellation. A child is never offered the task tool, so
// sub-agents do not nest.
type taskTool struct{ parent *Session }

func (*taskTool) Name() string { return TaskToolName }

func (*taskTool) Description() string {
	return "Hand a self-contained job to a sub-agent with a fresh context; its final answer is the result. agent: explore (read-only search and reading, the default) or general (may change files)."
}

func (*taskTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"},"agent":{"type":"string","enum":["explore","general"]}},"required":["prompt"]}`)
}

// SideEffect: the tool itself changes nothing; a general agent's own
// calls are gated one by one.
func (*taskTool) SideEffect() tools.SideEffect { return tools.SideRead }

func (t *taskTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Prompt string `json:"prompt"`
		Agent  string `json:"agent"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || strings.TrimSpace(a.Prompt) == "" {
		return tools.Result{Content: `task needs {"prompt": "the whole job, self-contained", "agent": "explore" or "general"}`, IsError: true}, nil
	}
	switch a.Agent {
	case "", AgentExplore:
		a.Agent = AgentExplore
	case AgentGeneral:
		if t.parent.rt.Engine.Mode().ReadOnly() {
			return tools.Result{Content: "a general sub-agent may change files, and this session is in plan mode: use agent explore", IsError: true}, nil
		}
	default:
		return tools.Result{Content: fmt.Sprintf("unknown agent %q: use explore or general", a.Agent), IsError: true}, nil
	}
	p := t.parent
	root := p.log.Meta().RootID
	if root == "" {
		root = p.ID()
	}
	child, err := p.rt.OpenSession(Which{Parent: p.ID(), Root: root})
	if err != nil {
		return tools.Result{Content: "the sub-agent could not start: " + err.Error(), IsError: true}, nil
	}
	defer child.Close()
	if a.Agent == AgentExplore {
		child.agent.SetVisible(child.toolFilter(permission.ModePlan))
	}
	brief := subagentBrief
	if a.Agent == AgentExplore {
		brief += exploreBrief
	}
	res := child.Prompt(ctx, Turn{
		Prompt:   brief + "\n\n" + a.Prompt,
		Sink:     p.surface, // the parent's surface sees the child's events
		Ask:      labelled(p.gate.Ask, a.Agent),
		Question: nil,
	})
	p.hooks.Fire(ctx, hooks.SubagentStop, hooks.Input{Reason: string(res.StopReason)})
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	note := fmt.Sprintf("\n\n[%s sub-agent, session %s (zero sessions show %s)]", a.Agent, child.ID(), child.ID())
	if res.StopReason != event.StopCompleted {
		msg := fmt.Sprintf("the %s sub-agent stopped (%s)", a.Agent, res.StopReason)
		if res.Err != nil {
			msg += ": " + res.Err.Error()
		}
		if strings.TrimSpace(res.Final) != "" {
			msg += "\nits last answer:\n" + res.Final
		}
		return tools.Result{Content: msg + note, IsError: true}, nil
	}
	return tools.Result{Content: strings.TrimSpace(res.Final) + note}, nil
}

// labelled passes a sub-agent's permission requests to the parent's
// asker, saying which agent asks; nil stays nil (no one to ask: the
// request becomes a denial, as in the parent).
func labelled(ask permission.Asker, agent string) permission.Asker {
	if ask == nil {
		return nil
	}
	return func(ctx context.Context, req permission.Request) permission.Decision {
		why := "asked by the " + agent + " sub-agent"
		if req.Why != "" {
			why += ": " + req.Why
		}
		req.Why = why
		return ask(ctx, req)
	}
}

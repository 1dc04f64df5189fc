package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/subagents"
	"github.com/zero-agent/zero/internal/tools"
)

// TaskToolName is the tool that hands a job to a sub-agent.
const TaskToolName = "task"

// Built-in sub-agents (internal/subagents holds their definitions).
const (
	// AgentExplore reads and searches only (the tools plan mode offers)
	// and reports what it found.
	AgentExplore = subagents.Explore
	// AgentGeneral has the parent's tools (each call gated as the
	// parent's are).
	AgentGeneral = subagents.General
)

// subagentBrief is added before a sub-agent's job: it works alone and
// its final answer is all its parent sees.
const subagentBrief = "You are a sub-agent: another agent handed you the job below. Work on your own (no one can answer questions), use the tools, and end with one final answer that holds everything the other agent needs (file paths, line numbers, findings, what you changed): it sees nothing else of your work."

// exploreBrief narrows the explorer.
const exploreBrief = " You are an explorer: read and search only, change nothing."

// taskTool runs a sub-agent in a child session of the same runtime: its
// own log (ParentID, RootID in its metadata) and context window, the
// parent's permission surface (its gate labels requests with the agent's
// name),
// the parent's cancellation. A child is never offered the task tool, so
// sub-agents do not nest. Several calls of one turn run at once, as many
// as the runtime's agent slots allow (subagent_parallel.go).
type taskTool struct {
	parent *Session
	agents *subagents.Set
}

// AddTaskTool adds the task tool to reg as a session of window tokens
// offers it (from 32K), with agents' names in its schema, for reports
// that run nothing (`zero context`): its bytes count there as in a run.
func AddTaskTool(reg *tools.Registry, agents *subagents.Set, window int) {
	if window >= taskMinWindow {
		reg.Add(&taskTool{agents: agents})
	}
}

func (*taskTool) Name() string { return TaskToolName }

// Description lists the agents; with the built-ins alone it is the same
// bytes as before definitions existed (the first request is unchanged).
func (t *taskTool) Description() string {
	var items []string
	for _, d := range t.agents.Agents {
		items = append(items, d.Name+" ("+d.Description+")")
	}
	list := strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
	return "Hand a self-contained job to a sub-agent with a fresh context; its final answer is the result. agent: " + list + "."
}

func (t *taskTool) Schema() json.RawMessage {
	names, _ := json.Marshal(t.agents.Names())
	return json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"},"agent":{"type":"string","enum":` + string(names) + `}},"required":["prompt"]}`)
}

// SideEffect: the tool itself changes nothing; a sub-agent's own calls
// are gated one by one.
func (*taskTool) SideEffect() tools.SideEffect { return tools.SideRead }

func (t *taskTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Prompt string `json:"prompt"`
		Agent  string `json:"agent"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || strings.TrimSpace(a.Prompt) == "" {
		return tools.Result{Content: `task needs {"prompt": "the whole job, self-contained", "agent": "explore" or "general"}`, IsError: true}, nil
	}
	p := t.parent
	if p == nil {
		return tools.Result{Content: "no session to run a sub-agent in", IsError: true}, nil
	}
	if a.Agent == "" {
		a.Agent = AgentExplore
	}
	def, ok := p.agents.Get(a.Agent)
	if !ok {
		return tools.Result{Content: fmt.Sprintf("unknown agent %q: use one of %s", a.Agent, strings.Join(p.agents.Names(), ", ")), IsError: true}, nil
	}
	if def.Name == AgentGeneral && def.Builtin && p.rt.Engine.Mode().ReadOnly() {
		return tools.Result{Content: "a general sub-agent may change files, and this session is in plan mode: use agent explore", IsError: true}, nil
	}
	callID := tools.CallID(ctx)
	p.children.start(callID, def.Name)
	defer p.children.end(callID)
	release, err := p.rt.agentSlot(ctx)
	if err != nil {
		return tools.Result{}, err
	}
	defer release()
	p.children.action(callID, "")
	child, brief, err := p.openChild(def, a.Prompt)
	if err != nil {
		return tools.Result{Content: "the sub-agent could not start: " + err.Error(), IsError: true}, nil
	}
	defer child.Close()
	res := child.Prompt(ctx, Turn{
		Prompt:   brief + "\n\n" + a.Prompt,
		Sink:     &childSink{next: p.surface, callID: callID, agent: def.Name, session: child.ID(), status: &p.children},
		Ask:      p.gate.Ask, // the child's gate labels its requests (openChild)
		Question: nil,
	})
	spent := res.Totals
	spent.CostUSD, _ = child.CostUSD()
	p.pricing.addSubagent(spent)
	if res.StopReason != event.StopCompleted { // it ended without an answer its hooks saw
		p.subagentStop(ctx, child, def.Name, false, res.Final)
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	return taskResult(def.Name, child.ID(), res, spent), nil
}

// subagentStop fires the parent's SubagentStop hooks for child, which
// gave final (active: it went on because of an earlier block). A block
// (exit 2 or decision: block) is the message that sends the sub-agent
// back to work, as a Stop hook's does for a session; "" lets it stop.
func (p *Session) subagentStop(ctx context.Context, child *Session, agentName string, active bool, final string) string {
	res := p.hooks.Fire(ctx, hooks.SubagentStop, hooks.Input{AgentID: child.ID(), AgentType: agentName,
		AgentTranscriptPath: child.log.EventsPath(), LastMessage: final, StopHookActive: active})
	if res.Blocked && !res.Stop {
		return "A SubagentStop hook asks you to continue before finishing: " + res.Reason
	}
	return ""
}

// taskResult is the parent's tool result: the child's final answer, or
// why it stopped, and a note naming its session and what it used.
func taskResult(agentName, id string, res agent.Result, spent event.Totals) tools.Result {
	note := fmt.Sprintf("\n\n[%s sub-agent, session %s; %d turns, %d tool calls, %d tokens in, %d out",
		agentName, id, spent.Turns, spent.ToolCalls, spent.Usage.InputTokens, spent.Usage.OutputTokens)
	if spent.CostUSD > 0 {
		note += fmt.Sprintf(", $%.4f", spent.CostUSD)
	}
	note += "]"
	if res.StopReason != event.StopCompleted {
		msg := fmt.Sprintf("the %s sub-agent stopped (%s)", agentName, res.StopReason)
		if res.Err != nil {
			msg += ": " + res.Err.Error()
		}
		if strings.TrimSpace(res.Final) != "" {
			msg += "\nits last answer:\n" + res.Final
		}
		return tools.Result{Content: msg + note, IsError: true}
	}
	return tools.Result{Content: strings.TrimSpace(res.Final) + note}
}

// childSink passes a sub-agent's events to its parent's surface tagged
// with the parent's task call, the agent's name and its session, and
// notes its last action for the parent's status (Session.Children).
type childSink struct {
	next    event.Sink
	callID  string
	agent   string
	session string
	status  *children
}

func (c *childSink) Emit(e event.Event) {
	e.ParentToolCallID, e.Agent, e.AgentSession = c.callID, c.agent, c.session
	if e.Type == event.ToolCall && e.ToolCall != nil {
		c.status.action(c.callID, e.ToolCall.Name+" "+oneLine(e.ToolCall.Arguments, 60))
	}
	c.next.Emit(e)
}

// oneLine is s on one line, at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

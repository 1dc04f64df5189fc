package run

// Several task calls of one turn run at once (the agent loop runs a
// turn's consecutive read-only calls in parallel, and the task tool is
// one), bounded by the runtime's agent slots: maxParallelAgents in the
// config (default 3), and never more than the requests a local server
// runs at once (llama.cpp's /props total_slots: a server started without
// -np has one slot, so its sub-agents run one at a time rather than
// queue inside the server, each holding its request open).

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/subagents"
)

// DefaultParallelAgents is how many sub-agents run at once by default.
const DefaultParallelAgents = 3

// ParallelAgents is how many sub-agents the runtime runs at once.
func (rt *Runtime) ParallelAgents() int {
	n := DefaultParallelAgents
	if c := rt.Config.MaxParallelAgents; c > 0 {
		n = c
	}
	if rt.slots > 0 && rt.slots < n {
		n = rt.slots
	}
	return n
}

// agentSlot waits for a free sub-agent slot (or ctx's end) and returns
// what frees it.
func (rt *Runtime) agentSlot(ctx context.Context) (release func(), err error) {
	rt.slotsOnce.Do(func() { rt.agentSlots = make(chan struct{}, rt.ParallelAgents()) })
	select {
	case rt.agentSlots <- struct{}{}:
		return func() { <-rt.agentSlots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Child is one sub-agent of a session's prompt under way, for a
// surface's status line.
type Child struct {
	// CallID is the parent's task call; Agent the sub-agent's name.
	CallID, Agent string
	// Running is false while it waits for a slot.
	Running bool
	// Action is its latest tool call, on one line ("" before the first).
	Action  string
	Started time.Time
}

// children are a session's sub-agents running now.
type children struct {
	mu   sync.Mutex
	list []*Child
}

func (c *children) start(callID, agent string) {
	c.mu.Lock()
	c.list = append(c.list, &Child{CallID: callID, Agent: agent, Started: time.Now()})
	c.mu.Unlock()
}

func (c *children) end(callID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, ch := range c.list {
		if ch.CallID == callID {
			c.list = append(c.list[:i], c.list[i+1:]...)
			return
		}
	}
}

// action notes a child's latest step (its run started, a tool call).
func (c *children) action(callID, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.list {
		if ch.CallID == callID {
			ch.Running = true
			if what != "" {
				ch.Action = what
			}
		}
	}
}

// Agents are the sub-agent definitions the task tool offers (built-ins
// only in a sub-agent's own session, which does not offer them).
func (s *Session) Agents() *subagents.Set {
	if s.agents == nil {
		return &subagents.Set{Agents: subagents.Builtins}
	}
	return s.agents
}

// Children are the sub-agents of the prompt under way, oldest first;
// safe to call while it runs.
func (s *Session) Children() []Child {
	s.children.mu.Lock()
	defer s.children.mu.Unlock()
	out := make([]Child, 0, len(s.children.list))
	for _, ch := range s.children.list {
		out = append(out, *ch)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// addSubagent adds a finished sub-agent's totals to the run under way:
// its run_end totals carry them in Subagents, and its cost (and the
// session's) includes theirs.
func (p *pricing) addSubagent(t event.Totals) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.children.Turns += t.Turns
	p.children.ToolCalls += t.ToolCalls
	p.children.Usage = p.children.Usage.Add(t.Usage)
	p.children.CostUSD += t.CostUSD
	p.children.ElapsedMs += t.ElapsedMs
	p.hasChildren = true
	p.session += t.CostUSD
}

package tui

// A sub-agent's events (event.ParentToolCallID set: the task tool runs
// it) are not the parent's transcript: its text, tool cards and answer
// stay in its own session log. While it runs the live area shows one
// status line per sub-agent, with its latest action; its warnings and
// errors are printed, named after it. Its permission requests reach the
// ordinary prompt, labelled by the run layer.

import (
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// child is one running sub-agent of the turn.
type child struct {
	callID, agent, action string
}

// childEvent follows one event of a sub-agent.
func (m *Model) childEvent(e event.Event) {
	i := -1
	for j, c := range m.turn.children {
		if c.callID == e.ParentToolCallID {
			i = j
		}
	}
	if i < 0 && e.Type != event.RunEnd {
		m.turn.children = append(m.turn.children, child{callID: e.ParentToolCallID, agent: e.Agent, action: "starting"})
		i = len(m.turn.children) - 1
	}
	switch e.Type {
	case event.ToolCall:
		if e.ToolCall != nil {
			m.turn.children[i].action = render.CallLabel(*e.ToolCall)
		}
	case event.Text:
		m.turn.children[i].action = "writing its answer"
	case event.Warning, event.Error:
		m.endStep()
		m.commit(render.Notice(e.Type, e.Agent+" sub-agent: "+e.Text, m.contentWidth())...)
	case event.Usage:
		m.info.CostUSD += e.CostUSD
	case event.RunEnd:
		if i >= 0 {
			m.turn.children = append(m.turn.children[:i], m.turn.children[i+1:]...)
		}
	}
}

// childLines are the live area's status lines of the running sub-agents.
func (m *Model) childLines() []string {
	var out []string
	for _, c := range m.turn.children {
		line := style.Accent.Render("  ↳") + " " + style.Dim.Render(sanitize.Line(c.agent)+" · "+c.action)
		out = append(out, cells.Truncate(line, m.width-1, "…"))
	}
	return out
}

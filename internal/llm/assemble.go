package llm

import (
	"sort"
	"strings"
)

// Assembler folds a completion's stream events into the assistant message
// they describe. Text and reasoning deltas are concatenated into one part
// each, in first-seen order; tool calls are ordered by Index. The zero
// value is ready to use.
type Assembler struct {
	text, reasoning strings.Builder
	signature       string
	order           []PartType
	calls           map[int]*ToolCall
	Usage           *Usage
	Finish          FinishReason
	Err             error
	Warnings        []string
}

// Add folds one event in.
func (a *Assembler) Add(ev Event) {
	switch ev.Type {
	case EventTextDelta:
		a.see(PartText)
		a.text.WriteString(ev.Text)
	case EventReasoningDelta:
		a.see(PartReasoning)
		a.reasoning.WriteString(ev.Text)
		if ev.Signature != "" {
			a.signature = ev.Signature
		}
	case EventToolCallStart, EventToolCallDelta, EventToolCallEnd:
		if a.calls == nil {
			a.calls = map[int]*ToolCall{}
		}
		c := a.calls[ev.Index]
		if c == nil {
			c = &ToolCall{}
			a.calls[ev.Index] = c
		}
		switch ev.Type {
		case EventToolCallStart:
			if ev.ToolCall != nil {
				c.ID, c.Name = ev.ToolCall.ID, ev.ToolCall.Name
				c.Arguments += ev.ToolCall.Arguments
			}
		case EventToolCallDelta:
			c.Arguments += ev.Text
		case EventToolCallEnd:
			if ev.ToolCall != nil {
				*c = *ev.ToolCall
			}
		}
	case EventUsage:
		if ev.Usage != nil {
			u := *ev.Usage
			a.Usage = &u
		}
	case EventFinish:
		a.Finish = ev.FinishReason
	case EventError:
		a.Err = ev.Err
	case EventWarning:
		a.Warnings = append(a.Warnings, ev.Text)
	}
}

func (a *Assembler) see(t PartType) {
	for _, o := range a.order {
		if o == t {
			return
		}
	}
	a.order = append(a.order, t)
}

// Message returns the assistant message assembled so far: reasoning and
// text parts in first-seen order, then tool calls by index.
func (a *Assembler) Message() Message {
	m := Message{Role: RoleAssistant}
	for _, t := range a.order {
		switch t {
		case PartReasoning:
			m.Parts = append(m.Parts, Part{Type: PartReasoning, Text: a.reasoning.String(), Signature: a.signature})
		case PartText:
			if a.text.Len() > 0 {
				m.Parts = append(m.Parts, Part{Type: PartText, Text: a.text.String()})
			}
		}
	}
	idx := make([]int, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		c := *a.calls[i]
		m.Parts = append(m.Parts, Part{Type: PartToolCall, ToolCall: &c})
	}
	return m
}

package llm

import "strings"

// Assembler folds a completion's stream events into the assistant message
// they describe, keeping the order in which parts began: consecutive text
// deltas form one text part, consecutive reasoning deltas one reasoning
// part until a signature closes it (Anthropic signs each thinking block;
// interleaved thinking must be replayed block by block), a redacted
// reasoning delta a part of its own (Part.Redacted, never merged with
// another), and each tool call sits where it started. The zero value is ready to use.
type Assembler struct {
	parts []asmPart
	calls map[int]int // tool-call index → position in parts
	// Usage is the last usage report, nil when none arrived.
	Usage *Usage
	// Finish is the finish reason of a completed stream.
	Finish FinishReason
	// Err is the stream's error, nil for a completed stream.
	Err error
	// Warnings collects EventWarning texts.
	Warnings []string
}

type asmPart struct {
	typ       PartType
	text      strings.Builder
	signature string
	redacted  bool
	call      *ToolCall
}

// Add folds one event in.
func (a *Assembler) Add(ev Event) {
	switch ev.Type {
	case EventTextDelta:
		a.open(PartText).text.WriteString(ev.Text)
	case EventReasoningDelta:
		if ev.Redacted {
			a.parts = append(a.parts, asmPart{typ: PartReasoning, redacted: true, signature: ev.Signature})
			a.parts[len(a.parts)-1].text.WriteString(ev.Text)
			return
		}
		p := a.open(PartReasoning)
		p.text.WriteString(ev.Text)
		if ev.Signature != "" {
			p.signature = ev.Signature
		}
	case EventToolCallStart, EventToolCallDelta, EventToolCallEnd:
		c := a.call(ev.Index)
		switch ev.Type {
		case EventToolCallStart:
			if ev.ToolCall != nil {
				c.ID, c.Name, c.Signature = ev.ToolCall.ID, ev.ToolCall.Name, ev.ToolCall.Signature
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

// open returns the part a delta of type t extends: the last part when it
// has that type (and, for reasoning, no signature yet and not redacted),
// else a new one.
func (a *Assembler) open(t PartType) *asmPart {
	if n := len(a.parts); n > 0 {
		last := &a.parts[n-1]
		if last.typ == t && (t != PartReasoning || (last.signature == "" && !last.redacted)) {
			return last
		}
	}
	a.parts = append(a.parts, asmPart{typ: t})
	return &a.parts[len(a.parts)-1]
}

func (a *Assembler) call(index int) *ToolCall {
	if a.calls == nil {
		a.calls = map[int]int{}
	}
	if i, ok := a.calls[index]; ok {
		return a.parts[i].call
	}
	a.calls[index] = len(a.parts)
	a.parts = append(a.parts, asmPart{typ: PartToolCall, call: &ToolCall{}})
	return a.parts[len(a.parts)-1].call
}

// Message returns the assistant message assembled so far. Empty text parts
// are left out.
func (a *Assembler) Message() Message {
	m := Message{Role: RoleAssistant}
	for i := range a.parts {
		p := &a.parts[i]
		switch p.typ {
		case PartText:
			if p.text.Len() > 0 {
				m.Parts = append(m.Parts, Part{Type: PartText, Text: p.text.String()})
			}
		case PartReasoning:
			m.Parts = append(m.Parts, Part{Type: PartReasoning, Text: p.text.String(), Signature: p.signature, Redacted: p.redacted})
		case PartToolCall:
			c := *p.call
			m.Parts = append(m.Parts, Part{Type: PartToolCall, ToolCall: &c})
		}
	}
	return m
}

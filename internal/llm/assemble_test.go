package llm

import (
	"errors"
	"testing"
)

func TestAssemblerOrderAndMerging(t *testing.T) {
	var a Assembler
	for _, ev := range []Event{
		{Type: EventReasoningDelta, Text: "think "},
		{Type: EventReasoningDelta, Text: "more"},
		{Type: EventReasoningDelta, Signature: "sig1"},
		{Type: EventReasoningDelta, Text: "second block", Signature: "sig2"},
		{Type: EventTextDelta, Text: "Hel"},
		{Type: EventTextDelta, Text: "lo"},
		{Type: EventToolCallStart, Index: 1, ToolCall: &ToolCall{ID: "b", Name: "grep", Arguments: `{"pat`}},
		{Type: EventToolCallStart, Index: 0, ToolCall: &ToolCall{ID: "a", Name: "read_file"}},
		{Type: EventToolCallDelta, Index: 1, Text: `tern":"x"}`},
		{Type: EventToolCallEnd, Index: 0, ToolCall: &ToolCall{ID: "a", Name: "read_file", Arguments: `{"path":"f"}`}},
		{Type: EventUsage, Usage: &Usage{InputTokens: 5}},
		{Type: EventFinish, FinishReason: FinishToolCalls},
	} {
		a.Add(ev)
	}
	m := a.Message()
	if len(m.Parts) != 5 {
		t.Fatalf("parts %+v", m.Parts)
	}
	if p := m.Parts[0]; p.Type != PartReasoning || p.Text != "think more" || p.Signature != "sig1" {
		t.Fatalf("first thinking block %+v", p)
	}
	if p := m.Parts[1]; p.Type != PartReasoning || p.Text != "second block" || p.Signature != "sig2" {
		t.Fatalf("second thinking block %+v", p)
	}
	if m.Text() != "Hello" || m.Reasoning() != "think moresecond block" {
		t.Fatalf("text %q reasoning %q", m.Text(), m.Reasoning())
	}
	calls := m.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "b" || calls[0].Arguments != `{"pattern":"x"}` || calls[1].Arguments != `{"path":"f"}` {
		t.Fatalf("calls %+v", calls)
	}
	if a.Usage.InputTokens != 5 || a.Finish != FinishToolCalls {
		t.Fatalf("usage/finish %+v %v", a.Usage, a.Finish)
	}
}

func TestAssemblerError(t *testing.T) {
	var a Assembler
	boom := &ProviderError{Kind: ErrOverloaded}
	a.Add(Event{Type: EventTextDelta, Text: "part"})
	a.Add(Event{Type: EventError, Err: boom})
	if !errors.Is(a.Err, boom) || a.Message().Text() != "part" || !IsRetryable(a.Err) {
		t.Fatalf("got %+v", a)
	}
}

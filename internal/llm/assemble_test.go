package llm

import (
	"errors"
	"strings"
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

// TestAssemblerRedacted: a redacted reasoning delta becomes a part of its
// own, never merged with the unsigned reasoning before it, another redacted
// block, or the reasoning after it, and never counted as shown reasoning.
func TestAssemblerRedacted(t *testing.T) {
	tests := []struct {
		name string
		evs  []Event
		want []Part
	}{
		{"alone", []Event{{Type: EventReasoningDelta, Text: "EuYBCkQ=", Redacted: true}},
			[]Part{{Type: PartReasoning, Text: "EuYBCkQ=", Redacted: true}}},
		{"between unsigned reasoning", []Event{
			{Type: EventReasoningDelta, Text: "first"},
			{Type: EventReasoningDelta, Text: "opaque1", Redacted: true},
			{Type: EventReasoningDelta, Text: "then"},
			{Type: EventReasoningDelta, Signature: "sig"},
		}, []Part{
			{Type: PartReasoning, Text: "first"},
			{Type: PartReasoning, Text: "opaque1", Redacted: true},
			{Type: PartReasoning, Text: "then", Signature: "sig"},
		}},
		{"two in a row, then text", []Event{
			{Type: EventReasoningDelta, Text: "opaque1", Redacted: true},
			{Type: EventReasoningDelta, Text: "opaque2", Redacted: true},
			{Type: EventTextDelta, Text: "Hi"},
		}, []Part{
			{Type: PartReasoning, Text: "opaque1", Redacted: true},
			{Type: PartReasoning, Text: "opaque2", Redacted: true},
			{Type: PartText, Text: "Hi"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a Assembler
			for _, ev := range tc.evs {
				a.Add(ev)
			}
			got := a.Message().Parts
			if len(got) != len(tc.want) {
				t.Fatalf("parts %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i].Type != tc.want[i].Type || got[i].Text != tc.want[i].Text ||
					got[i].Signature != tc.want[i].Signature || got[i].Redacted != tc.want[i].Redacted {
					t.Errorf("part %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			for _, p := range got {
				if p.Redacted && strings.Contains(a.Message().Reasoning(), p.Text) {
					t.Errorf("redacted data %q in Reasoning()", p.Text)
				}
			}
		})
	}
}

package sessions

import (
	"reflect"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func user(s string) llm.Message { return llm.TextMessage(llm.RoleUser, s) }

func calls(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant}
	for _, id := range ids {
		m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "bash", Arguments: "{}"}})
	}
	return m
}

func result(id string) llm.Message {
	return llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "bash", Content: "ok"})
}

func interrupted(id string) llm.Message {
	return llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: id, Name: "bash", Content: InterruptedResult, IsError: true}}}}
}

// interruptedAll is one tool message answering ids with InterruptedResult.
func interruptedAll(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleTool}
	for _, id := range ids {
		m.Parts = append(m.Parts, interrupted(id).Parts...)
	}
	return m
}

// userResults is an Anthropic-shaped user message: a result for id, then
// text when text is not "".
func userResults(id, text string) llm.Message {
	m := llm.Message{Role: llm.RoleUser, Parts: result(id).Parts}
	if text != "" {
		m.Parts = append(m.Parts, llm.Part{Type: llm.PartText, Text: text})
	}
	return m
}

func TestRepairToolPairs(t *testing.T) {
	anthropicStyle := llm.Message{Role: llm.RoleUser, Parts: []llm.Part{
		{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "a", Name: "bash", Content: "ok"}},
		{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "zz", Name: "bash", Content: "stray"}},
		{Type: llm.PartText, Text: "and continue"},
	}}
	anthropicKept := llm.Message{Role: llm.RoleUser, Parts: []llm.Part{anthropicStyle.Parts[0], anthropicStyle.Parts[2]}}
	tests := []struct {
		name      string
		in, want  []llm.Message
		wantWarns []WarningKind
	}{
		{"complete", []llm.Message{user("x"), calls("a"), result("a")}, []llm.Message{user("x"), calls("a"), result("a")}, nil},
		{"crash during the tool", []llm.Message{user("x"), calls("a")}, []llm.Message{user("x"), calls("a"), interrupted("a")}, []WarningKind{WarnSynthesized}},
		{"one of two results lost, then the user spoke", []llm.Message{user("x"), calls("a", "b"), result("b"), user("y")},
			[]llm.Message{user("x"), calls("a", "b"), result("b"), interrupted("a"), user("y")}, []WarningKind{WarnSynthesized}},
		{"orphan result", []llm.Message{user("x"), result("q"), calls("a"), result("a"), result("a")},
			[]llm.Message{user("x"), calls("a"), result("a")}, []WarningKind{WarnOrphanResult, WarnOrphanResult}},
		{"results inside a user message", []llm.Message{calls("a"), anthropicStyle}, []llm.Message{calls("a"), anthropicKept}, []WarningKind{WarnOrphanResult}},
		{"empty", nil, nil, nil},
		{"two calls lost: one synthetic message, call order", []llm.Message{user("x"), calls("a", "b")},
			[]llm.Message{user("x"), calls("a", "b"), interruptedAll("a", "b")}, []WarningKind{WarnSynthesized, WarnSynthesized}},
		{"repeated call id", []llm.Message{calls("a", "a"), result("a")}, []llm.Message{calls("a"), result("a")}, []WarningKind{WarnRepeatedCall}},
		{"result part without a result", []llm.Message{calls("a"), result("a"), {Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult}}}},
			[]llm.Message{calls("a"), result("a")}, []WarningKind{WarnOrphanResult}},
		{"missing result inside a mixed user message goes before its text", []llm.Message{calls("a", "b"), userResults("a", "go on")},
			[]llm.Message{calls("a", "b"), {Role: llm.RoleUser, Parts: []llm.Part{userResults("a", "").Parts[0], interrupted("b").Parts[0], {Type: llm.PartText, Text: "go on"}}}},
			[]WarningKind{WarnSynthesized}},
		{"consecutive prompts stay apart", []llm.Message{user("x"), user("y")}, []llm.Message{user("x"), user("y")}, nil},
		{"orphan after a summary is folded into it", []llm.Message{user("[Summary: fixed the parser]"), result("q")},
			[]llm.Message{user("[Summary: fixed the parser] [Last tool output before the summary: ok]")}, []WarningKind{WarnOrphanResult}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]llm.Message(nil), tt.in...)
			got, ws := RepairToolPairs(in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			var kinds []WarningKind
			for _, w := range ws {
				kinds = append(kinds, w.Kind)
			}
			if !reflect.DeepEqual(kinds, tt.wantWarns) {
				t.Errorf("warnings %v, want %v", ws, tt.wantWarns)
			}
			if !reflect.DeepEqual(in, tt.in) {
				t.Error("input modified")
			}
		})
	}
}

func TestRebuildHistoryCompaction(t *testing.T) {
	m := func(msg llm.Message) event.Event { return event.Event{Type: event.Message, Message: &msg} }
	summary := user("[summary] we fixed the parser")
	tests := []struct {
		name string
		evs  []event.Event
		want []llm.Message
	}{
		{"text summary", []event.Event{m(user("a")), m(calls("c1")), m(result("c1")), {Type: event.Compaction, Text: "[summary] we fixed the parser"}, m(user("b"))},
			[]llm.Message{summary, user("b")}},
		{"message summary", []event.Event{m(user("a")), {Type: event.Compaction, Message: &summary}, m(calls("c2")), m(result("c2"))},
			[]llm.Message{summary, calls("c2"), result("c2")}},
		{"other events ignored", []event.Event{{Type: event.Text, Text: "x"}, m(user("a")), {Type: event.Usage}},
			[]llm.Message{user("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ws := RebuildHistory(tt.evs)
			if !reflect.DeepEqual(got, tt.want) || ws != nil {
				t.Errorf("got %+v %v\nwant %+v", got, ws, tt.want)
			}
		})
	}
}

// A process killed between a tool_result event and its message left the
// result in the log as the event only: resume restores it from there,
// not as "interrupted"; a result logged both ways is not doubled.
func TestRebuildHistoryRestoresResultLoggedOnlyAsEvent(t *testing.T) {
	m := func(msg llm.Message) event.Event { return event.Event{Type: event.Message, Message: &msg} }
	res := func(id string) event.Event {
		return event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: id, Name: "bash", Content: "ok"}}
	}
	tests := []struct {
		name string
		evs  []event.Event
		want []llm.Message
	}{
		{"killed after the event", []event.Event{m(user("a")), m(calls("c1", "c2")), res("c1"), m(result("c1")), res("c2")},
			[]llm.Message{user("a"), calls("c1", "c2"), result("c1"), result("c2")}},
		{"resumed after the kill", []event.Event{m(user("a")), m(calls("c1")), res("c1"), {Type: event.RunStart}, m(user("continue"))},
			[]llm.Message{user("a"), calls("c1"), result("c1"), user("continue")}},
		{"logged both ways", []event.Event{m(user("a")), m(calls("c1")), res("c1"), m(result("c1")), m(user("b"))},
			[]llm.Message{user("a"), calls("c1"), result("c1"), user("b")}},
		{"killed before the event", []event.Event{m(user("a")), m(calls("c1"))},
			[]llm.Message{user("a"), calls("c1"), interrupted("c1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := RebuildHistory(tt.evs)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

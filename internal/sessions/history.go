package sessions

import (
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// InterruptedResult is the content of a tool result synthesized for a call
// whose result never reached the log (the process died while the tool ran,
// case B27/B26). It is marked IsError so the model knows to retry or check.
const InterruptedResult = "interrupted (session ended unexpectedly)"

// RebuildHistory returns the conversation recorded by events, for resume:
// every event.Message in order, with full tool calls and results.
//
// A Compaction event replaces everything before it with one summary
// message: its Message when set, else a user text message holding its Text.
// The compactor logs the messages it kept as Message events after the
// Compaction event.
//
// The result is repaired by RepairToolPairs, so every tool call has exactly
// one result and no result lacks its call.
func RebuildHistory(events []event.Event) ([]llm.Message, []Warning) {
	var msgs []llm.Message
	for _, ev := range events {
		switch ev.Type {
		case event.Message:
			if ev.Message != nil {
				msgs = append(msgs, *ev.Message)
			}
		case event.Compaction:
			msgs = msgs[:0:0]
			switch {
			case ev.Message != nil:
				msgs = append(msgs, *ev.Message)
			case ev.Text != "":
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: ev.Text}}})
			}
		}
	}
	return RepairToolPairs(msgs)
}

// RepairToolPairs makes a history valid for every provider after a crash
// or a damaged log:
//   - a tool call with no result before the next user or assistant message
//     (or the end) gets a synthesized error result with InterruptedResult,
//     placed after the results that did arrive;
//   - a tool result that answers no earlier unanswered call is dropped.
//
// Messages that need no change are returned as they were; msgs itself is
// not modified.
func RepairToolPairs(msgs []llm.Message) ([]llm.Message, []Warning) {
	var (
		out     []llm.Message
		warns   []Warning
		pending []*llm.ToolCall // calls of the last assistant message without a result yet
	)
	flush := func() {
		for _, c := range pending {
			if c == nil {
				continue
			}
			out = append(out, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{
				Type:       llm.PartToolResult,
				ToolResult: &llm.ToolResult{CallID: c.ID, Name: c.Name, Content: InterruptedResult, IsError: true},
			}}})
			warns = append(warns, Warning{Kind: WarnSynthesized, Detail: c.ID})
		}
		pending = nil
	}
	answer := func(id string) bool {
		for i, c := range pending {
			if c != nil && c.ID == id {
				pending[i] = nil
				return true
			}
		}
		return false
	}
	for _, m := range msgs {
		if !hasResults(m) {
			flush()
			out = append(out, m)
			for _, p := range m.Parts {
				if p.Type == llm.PartToolCall && p.ToolCall != nil {
					pending = append(pending, p.ToolCall)
				}
			}
			continue
		}
		kept := m
		kept.Parts = nil
		changed := false
		for _, p := range m.Parts {
			if p.Type == llm.PartToolResult {
				if p.ToolResult == nil || !answer(p.ToolResult.CallID) {
					id := ""
					if p.ToolResult != nil {
						id = p.ToolResult.CallID
					}
					warns = append(warns, Warning{Kind: WarnOrphanResult, Detail: id})
					changed = true
					continue
				}
			}
			kept.Parts = append(kept.Parts, p)
		}
		if !changed {
			kept = m
		}
		if len(kept.Parts) > 0 {
			out = append(out, kept)
		}
	}
	flush()
	return out, warns
}

// hasResults reports whether m carries tool results (a RoleTool message,
// or a user message holding result parts).
func hasResults(m llm.Message) bool {
	for _, p := range m.Parts {
		if p.Type == llm.PartToolResult {
			return true
		}
	}
	return false
}

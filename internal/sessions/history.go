package sessions

import (
	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// InterruptedResult is the content of a tool result synthesized on resume
// for a call whose result never reached the log (the process died while
// the tool ran, cases B27/B26). It is marked IsError so the model knows to
// retry or check. The wording is case B27's; RepairToolPairs passes it to
// contextmgr's repair, which otherwise writes its own request-time text.
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
//
// A Rewound event that restored the conversation cuts it back to what it
// was when prompt To began (prompts are numbered as Prompts numbers them).
//
// The loop logs a tool_result event just before the tool result message;
// a process killed between the two left the result the user saw in the
// log only as the event. Such a result is restored from the event, so a
// write the user saw succeed is not reported "interrupted" on resume.
func RebuildHistory(events []event.Event) ([]llm.Message, []Warning) {
	var msgs []llm.Message
	var starts [][]llm.Message // the history when each prompt began
	var pending []event.ToolOutcome
	flush := func() {
		for _, r := range pending {
			msgs = append(msgs, llm.ToolResultMessage(llm.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content, IsError: r.IsError}))
		}
		pending = nil
	}
	for _, ev := range events {
		switch ev.Type {
		case event.RunStart:
			flush()
			starts = append(starts, msgs[:len(msgs):len(msgs)])
		case event.Rewound:
			flush()
			starts = append(starts, msgs[:len(msgs):len(msgs)])
			if c := ev.Checkpoint; c != nil && c.Conversation && c.To >= 1 && c.To <= len(starts) {
				msgs = starts[c.To-1]
			}
		case event.ToolResult:
			if ev.Result != nil && ev.Result.CallID != "" {
				pending = append(pending, *ev.Result)
			}
		case event.Message:
			if ev.Message != nil {
				pending = answered(pending, *ev.Message)
				flush()
				msgs = append(msgs, *ev.Message)
			}
		case event.Compaction:
			pending = nil
			msgs = msgs[:0:0]
			switch {
			case ev.Message != nil:
				msgs = append(msgs, *ev.Message)
			case ev.Text != "":
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: ev.Text}}})
			}
		}
	}
	flush()
	return RepairToolPairs(msgs)
}

// answered drops from pending the results that m, a tool result message,
// carries.
func answered(pending []event.ToolOutcome, m llm.Message) []event.ToolOutcome {
	if len(pending) == 0 || m.Role != llm.RoleTool {
		return pending
	}
	out := pending[:0:0]
	for _, r := range pending {
		found := false
		for _, p := range m.Parts {
			if p.ToolResult != nil && p.ToolResult.CallID == r.CallID {
				found = true
			}
		}
		if !found {
			out = append(out, r)
		}
	}
	return out
}

// RepairToolPairs makes a history valid for every provider after a crash
// or a damaged log. It is contextmgr.RepairFixes (the one implementation
// of the tool-call invariant, also run before every request) with two
// options: consecutive user messages stay apart, so a resumed
// conversation reads as it was recorded, and synthetic results say
// InterruptedResult:
//   - a tool call with no result before the next user or assistant message
//     (or the end) gets a synthesized error result with InterruptedResult,
//     placed after the results that did arrive (WarnSynthesized);
//   - a tool result that answers no call of the assistant message right
//     before, or answers one a second time, is dropped (WarnOrphanResult);
//   - a call id repeated within one assistant message is dropped
//     (WarnRepeatedCall).
//
// Warning.Detail is the tool call id. Messages that need no change are
// returned as they were; msgs itself is not modified.
func RepairToolPairs(msgs []llm.Message) ([]llm.Message, []Warning) {
	out, fixes := contextmgr.RepairFixes(msgs, contextmgr.RepairOptions{KeepUserRuns: true, MissingContent: InterruptedResult})
	var warns []Warning
	for _, f := range fixes {
		kind := WarnOrphanResult
		switch f.Kind {
		case contextmgr.FixMissingResult:
			kind = WarnSynthesized
		case contextmgr.FixRepeatedCall:
			kind = WarnRepeatedCall
		}
		warns = append(warns, Warning{Kind: kind, Detail: f.CallID})
	}
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

package tui

import (
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/render"
)

// A resumed session is shown as the live app printed it: each prompt,
// the replies through the same markdown stream, and every tool call card
// with its result headline through turnState's toolCall and toolResult
// (run.go), so what the model did earlier is on screen again, collapsed
// as it was. A heading before says which session it is.

// resumedLines renders r at width: the heading, its warnings, then the
// conversation.
func resumedLines(r Resumed, width int) []string {
	lines := render.Block(resumedHeading(r), width)
	var t turnState
	turns := 0
	for _, msg := range r.History {
		if msg.Role == llm.RoleUser && strings.TrimSpace(msg.Text()) != "" {
			lines = append(lines, t.closeReply()...)
			if turns > 0 {
				lines = append(lines, "") // as a live turn ends
			}
			turns++
		}
		lines = append(lines, t.replay(msg, r.Outcomes, width)...)
	}
	return append(lines, t.closeReply()...)
}

// resumedHeading is "resumed session ID (N messages)" and a "! " line per
// warning.
func resumedHeading(r Resumed) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resumed session %s (%s)", r.ID, render.Plural(len(r.History), "message"))
	for _, w := range r.Warnings {
		b.WriteString("\n! " + w)
	}
	return b.String()
}

// replay renders one message of the history: a user prompt's first line
// as the prompt card (what follows it may be attached files), assistant
// text as a streamed reply, tool calls and results as their cards.
func (t *turnState) replay(msg llm.Message, logged map[string]event.ToolOutcome, width int) []string {
	var lines []string
	if msg.Role == llm.RoleUser {
		if first, _, _ := strings.Cut(strings.TrimSpace(msg.Text()), "\n"); first != "" {
			lines = render.Prompt(first, width)
		}
	}
	for _, p := range msg.Parts {
		switch {
		case p.Type == llm.PartText && msg.Role == llm.RoleAssistant:
			lines = append(lines, t.writeReply(p.Text, width)...)
		case p.ToolCall != nil:
			lines = append(lines, t.closeReply()...)
			lines = append(lines, t.toolCall(*p.ToolCall, width)...)
		case p.ToolResult != nil:
			lines = append(lines, t.closeReply()...)
			lines = append(lines, t.toolResult(outcomeOf(*p.ToolResult, logged), width)...)
		}
	}
	return lines
}

// outcomeOf is the logged outcome of result's call, or the result itself
// when the log has none (a result synthesized on resume).
func outcomeOf(r llm.ToolResult, logged map[string]event.ToolOutcome) event.ToolOutcome {
	if o, ok := logged[r.CallID]; ok {
		return o
	}
	return event.ToolOutcome{CallID: r.CallID, Name: r.Name, Content: r.Content, IsError: r.IsError}
}

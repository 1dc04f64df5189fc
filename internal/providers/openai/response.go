package openai

import (
	"encoding/json"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// Completion is a whole (non-streamed) reply in neutral form.
type Completion struct {
	// Message is the assistant message: reasoning, text, tool calls (with
	// ids generated where the server sent none).
	Message llm.Message
	Finish  llm.FinishReason
	// Usage is the server's report, or an estimate marked Estimated.
	Usage *llm.Usage
	// Warnings notes what was dropped or repaired (e.g. a tool call with
	// no function name, case B06).
	Warnings []string
}

// ParseResponse decodes a non-streaming Chat Completions body (object
// "chat.completion") with the same quirk handling as the stream: arguments
// given as an object are accepted and stored as their JSON text, empty ids
// are generated (9 alphanumerics when o.MistralIDs), entries without a
// function name are dropped with a warning, reasoning_content/reasoning
// fields and <think> tags become reasoning. Only o.Name, o.MistralIDs and
// o.ThinkPrefilled are read. An {"error":...} body returns a
// *llm.ProviderError.
func ParseResponse(body []byte, o Options) (*Completion, error) {
	return parseResponse(body, o, nil)
}

// parseResponse is ParseResponse with called tool names mapped back
// through names (nil: kept as sent).
func parseResponse(body []byte, o Options, names *schema.NameMap) (*Completion, error) {
	var c wireChunk
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, &llm.ProviderError{Kind: llm.ErrServer, Provider: o.Name, Message: "unreadable response body: " + err.Error(),
			Hint: "the server did not answer in the Chat Completions format; check the base URL"}
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return nil, transport.ClassifyStreamError(o.Name, "", body)
	}
	var a llm.Assembler
	d := newDecoder(&o, "", func(ev llm.Event) bool { a.Add(ev); return true })
	d.names = names
	if err := d.chunk(body); err != nil {
		return nil, err
	}
	d.sawFinish = true
	if err := d.finalize(); err != nil {
		return nil, err
	}
	return &Completion{Message: a.Message(), Finish: a.Finish, Usage: a.Usage, Warnings: a.Warnings}, nil
}

// completionEvents replays a parsed Completion as stream events, for a
// server that answered a stream request with one JSON body.
func completionEvents(c *Completion, emit func(llm.Event) bool) bool {
	for _, w := range c.Warnings {
		if !emit(llm.Event{Type: llm.EventWarning, Text: w}) {
			return false
		}
	}
	slot := 0
	for _, p := range c.Message.Parts {
		var ev llm.Event
		switch p.Type {
		case llm.PartReasoning:
			ev = llm.Event{Type: llm.EventReasoningDelta, Text: p.Text}
		case llm.PartText:
			ev = llm.Event{Type: llm.EventTextDelta, Text: p.Text}
		case llm.PartToolCall:
			tc := *p.ToolCall
			if !emit(llm.Event{Type: llm.EventToolCallStart, Index: slot, ToolCall: &llm.ToolCall{ID: tc.ID, Name: tc.Name}}) {
				return false
			}
			ev = llm.Event{Type: llm.EventToolCallEnd, Index: slot, ToolCall: &tc}
			slot++
		default:
			continue
		}
		if !emit(ev) {
			return false
		}
	}
	if c.Usage != nil && !emit(llm.Event{Type: llm.EventUsage, Usage: c.Usage}) {
		return false
	}
	return emit(llm.Event{Type: llm.EventFinish, FinishReason: c.Finish})
}

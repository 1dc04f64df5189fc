package anthropic

import (
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// decoder folds the Messages stream events of one response into llm
// events. It is a pure state machine over decoded events (no I/O), so it is
// tested and fuzzed directly.
type decoder struct {
	provider, model string
	// names maps wire tool names back to real ones.
	names *schema.NameMap

	// blocks maps a content block index to what it is.
	blocks map[int64]*block
	// tools counts tool_use blocks; a call's llm Index is its ordinal.
	tools int

	usage  llm.Usage
	finish llm.FinishReason
	// started is set by message_start; stopped by message_stop.
	started, stopped bool
}

type block struct {
	kind string // "text", "thinking", "redacted_thinking", "tool_use", other
	// For tool_use: the call so far.
	call  llm.ToolCall
	index int
	args  strings.Builder
	done  bool
}

func newDecoder(provider, model string, names *schema.NameMap) *decoder {
	if names == nil {
		names = schema.NewNameMap()
	}
	return &decoder{provider: provider, model: model, names: names, blocks: map[int64]*block{}}
}

// handle translates one stream event. done is true after message_stop,
// when the returned events end with EventUsage and EventFinish.
func (d *decoder) handle(ev sdk.MessageStreamEventUnion) (out []llm.Event, done bool) {
	switch ev.Type {
	case "message_start":
		d.started = true
		d.addUsage(ev.Message.Usage.InputTokens, ev.Message.Usage.CacheReadInputTokens,
			ev.Message.Usage.CacheCreationInputTokens, ev.Message.Usage.OutputTokens)
		if m := ev.Message.Model; m != "" && d.model == "" {
			d.model = string(m)
		}
	case "content_block_start":
		cb := ev.ContentBlock
		b := &block{kind: cb.Type}
		d.blocks[ev.Index] = b
		switch cb.Type {
		case "text":
			if cb.Text != "" {
				out = append(out, llm.Event{Type: llm.EventTextDelta, Text: cb.Text})
			}
		case "thinking":
			if cb.Thinking != "" || cb.Signature != "" {
				out = append(out, llm.Event{Type: llm.EventReasoningDelta, Text: cb.Thinking, Signature: cb.Signature})
			}
		case "redacted_thinking":
			// The block arrives whole; its data is opaque, never shown,
			// and must be replayed verbatim on later turns.
			out = append(out, llm.Event{Type: llm.EventReasoningDelta, Text: cb.Data, Redacted: true})
		case "tool_use":
			b.index = d.tools
			d.tools++
			b.call = llm.ToolCall{ID: cb.ID, Name: cb.Name}
			if real, ok := d.names.Real(cb.Name); ok {
				b.call.Name = real
			}
			if b.call.ID == "" {
				b.call.ID = fmt.Sprintf("toolu_zero_%d", b.index)
			}
			// A start block's input is normally {} with the real input
			// streamed as input_json_delta; keep a non-empty one.
			if raw := cb.JSON.Input.Raw(); raw != "" && raw != "{}" && raw != "null" {
				b.args.WriteString(raw)
			}
			call := b.call
			out = append(out, llm.Event{Type: llm.EventToolCallStart, Index: b.index, ToolCall: &call})
		}
	case "content_block_delta":
		b := d.blocks[ev.Index]
		switch ev.Delta.Type {
		case "text_delta":
			if ev.Delta.Text != "" {
				out = append(out, llm.Event{Type: llm.EventTextDelta, Text: ev.Delta.Text})
			}
		case "thinking_delta":
			if ev.Delta.Thinking != "" {
				out = append(out, llm.Event{Type: llm.EventReasoningDelta, Text: ev.Delta.Thinking})
			}
		case "signature_delta":
			if ev.Delta.Signature != "" {
				out = append(out, llm.Event{Type: llm.EventReasoningDelta, Signature: ev.Delta.Signature})
			}
		case "input_json_delta":
			if b == nil || b.kind != "tool_use" || ev.Delta.PartialJSON == "" {
				break
			}
			b.args.WriteString(ev.Delta.PartialJSON)
			out = append(out, llm.Event{Type: llm.EventToolCallDelta, Index: b.index, Text: ev.Delta.PartialJSON})
		}
	case "content_block_stop":
		b := d.blocks[ev.Index]
		if b == nil || b.kind != "tool_use" || b.done {
			break
		}
		b.done = true
		call := b.call
		call.Arguments = b.args.String()
		if strings.TrimSpace(call.Arguments) == "" {
			call.Arguments = "{}"
		}
		out = append(out, llm.Event{Type: llm.EventToolCallEnd, Index: b.index, ToolCall: &call})
	case "message_delta":
		if r := ev.Delta.StopReason; r != "" {
			d.finish = finishReason(string(r))
		}
		u := ev.Usage
		d.addUsage(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, 0)
		if u.OutputTokens > 0 {
			// message_delta's output_tokens is cumulative.
			d.usage.OutputTokens = int(u.OutputTokens)
		}
	case "message_stop":
		d.stopped = true
		u := d.usage
		finish := d.finish
		if finish == "" {
			finish = llm.FinishStop
		}
		if d.tools > 0 && finish == llm.FinishStop {
			finish = llm.FinishToolCalls
		}
		out = append(out, llm.Event{Type: llm.EventUsage, Usage: &u}, llm.Event{Type: llm.EventFinish, FinishReason: finish})
		return out, true
	}
	return out, false
}

// addUsage records input-side counts (taking the largest report, since
// message_delta may repeat message_start's numbers) and an initial output
// count. InputTokens is the whole prompt: uncached + cache read + cache
// write.
func (d *decoder) addUsage(input, cacheRead, cacheWrite, output int64) {
	if total := int(input + cacheRead + cacheWrite); total > d.usage.InputTokens {
		d.usage.InputTokens = total
	}
	if int(cacheRead) > d.usage.CacheReadTokens {
		d.usage.CacheReadTokens = int(cacheRead)
	}
	if int(cacheWrite) > d.usage.CacheWriteTokens {
		d.usage.CacheWriteTokens = int(cacheWrite)
	}
	if int(output) > d.usage.OutputTokens {
		d.usage.OutputTokens = int(output)
	}
}

// truncated is the error for a stream that ended (EOF) before
// message_stop: never a completion, and any half-streamed tool call must
// not run (case B09).
func (d *decoder) truncated() error {
	msg := "stream ended before message_stop"
	for _, b := range d.blocks {
		if b.kind == "tool_use" && !b.done {
			msg = fmt.Sprintf("stream ended inside tool call %q (%s); the call was discarded", b.call.Name, b.call.ID)
			break
		}
	}
	if !d.started {
		msg = "stream ended before message_start"
	}
	return &llm.ProviderError{Kind: llm.ErrStreamBroken, Provider: d.provider, Model: d.model, Status: 200,
		Message: msg, Hint: "the connection dropped mid-response; the request can be retried"}
}

// finishReason maps a Messages stop_reason onto llm.FinishReason.
func finishReason(r string) llm.FinishReason {
	switch r {
	case "end_turn", "stop_sequence":
		return llm.FinishStop
	case "tool_use":
		return llm.FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return llm.FinishLength
	case "refusal":
		return llm.FinishContentFilter
	}
	return llm.FinishOther
}

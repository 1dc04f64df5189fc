package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/textcalls"
)

// textCallsOn reports whether tool calls written as text are recovered:
// always in prompted mode, where they are the only calls.
func (a *Agent) textCallsOn() bool { return !a.opts.DisableTextToolCalls || a.prompted }

// recoverText runs textcalls.Recover with the offered tools' schemas and
// the session's id generator.
func (a *Agent) recoverText(text string, specs []llm.ToolSpec) textcalls.Result {
	offered := make([]string, 0, len(specs))
	schemas := make(map[string]json.RawMessage, len(specs))
	for _, s := range specs {
		offered = append(offered, s.Name)
		schemas[s.Name] = s.Parameters
	}
	return textcalls.Recover(text, offered, textcalls.Options{Schemas: schemas, IDs: a.ids})
}

// recoverTextCalls turns a turn with no structured calls into one with the
// calls the model wrote as text. Calls whose arguments could not be
// repaired are recorded too; invalid maps their ids to the error the model
// gets as their result. The answer text still hidden by the stream filter
// (prose after the markup, or a message that looked like JSON but held no
// call) is shown now.
func (r *run) recoverTextCalls(msg llm.Message, specs []llm.ToolSpec) (llm.Message, map[string]string) {
	res := r.a.recoverText(msg.Text(), specs)
	for _, w := range res.Warnings {
		r.emit(event.Event{Type: event.Warning, Text: "text tool calls: " + w})
	}
	r.showRest(res.Text)
	if len(res.Calls) == 0 && len(res.Invalid) == 0 {
		return msg, nil
	}
	out := llm.Message{Role: llm.RoleAssistant}
	hasReasoning := false
	for _, p := range msg.Parts {
		if p.Type != llm.PartText {
			out.Parts = append(out.Parts, p)
			hasReasoning = hasReasoning || p.Type == llm.PartReasoning
		}
	}
	if res.Reasoning != "" && !hasReasoning {
		out.Parts = append([]llm.Part{{Type: llm.PartReasoning, Text: res.Reasoning}}, out.Parts...)
	}
	if strings.TrimSpace(res.Text) != "" {
		out.Parts = append(out.Parts, llm.Part{Type: llm.PartText, Text: res.Text})
	}
	for i := range res.Calls {
		c := res.Calls[i]
		c.Recovered = true
		r.a.ids.Observe(c.ID)
		out.Parts = append(out.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &c})
	}
	var invalid map[string]string
	for _, ic := range res.Invalid {
		c := ic.Call
		c.Recovered = true
		r.a.ids.Observe(c.ID)
		if invalid == nil {
			invalid = map[string]string{}
		}
		invalid[c.ID] = "error: " + ic.Err.Error()
		out.Parts = append(out.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &c})
	}
	n := len(res.Calls) + len(res.Invalid)
	r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("recovered %d tool call(s) written as text", n)})
	return out, invalid
}

// showRest emits the part of the visible answer text that the stream
// filter held back. Text already shown is never shown again.
func (r *run) showRest(visible string) {
	visible = strings.TrimSpace(visible)
	done := strings.TrimSpace(r.shown)
	if visible == "" || !strings.HasPrefix(visible, done) {
		return
	}
	rest := visible[len(done):]
	if strings.TrimSpace(rest) == "" {
		return
	}
	r.shown += rest
	r.emit(event.Event{Type: event.Text, Text: rest})
}

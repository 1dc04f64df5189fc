package contextmgr

import (
	"fmt"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// Synthetic result texts. The interrupt wording is case B26's expected
// next request.
const (
	// CancelledContent answers a queued call that never ran.
	CancelledContent = "Not run: cancelled by user."
	// MissingResultContent answers a call that Repair found without a
	// result (crash, old session, bad compaction).
	MissingResultContent = "Not run: cancelled; the turn ended before this call produced a result."
)

// InterruptResults returns the is_error results an interrupted turn
// records at once for its calls (B26): the running call (id running, may
// be "") gets "Interrupted by user after <elapsed>." plus its partial
// output, every other call CancelledContent. Calls keep their order.
func InterruptResults(calls []llm.ToolCall, running, partial string, elapsed time.Duration) []llm.ToolResult {
	out := make([]llm.ToolResult, 0, len(calls))
	for _, c := range calls {
		r := llm.ToolResult{CallID: c.ID, Name: c.Name, IsError: true, Content: CancelledContent}
		if c.ID == running {
			r.Content = fmt.Sprintf("Interrupted by user after %s.", elapsed.Round(time.Second))
			if partial != "" {
				r.Content += " Partial output:\n" + partial
			} else {
				r.Content += " No output yet."
			}
		}
		out = append(out, r)
	}
	return out
}

// Repair enforces the tool-call invariant every provider checks (B25,
// B26): each call of an assistant message has exactly one result in the
// tool message(s) right after it, and every result answers a call of the
// assistant message right before. It returns a repaired copy and one log
// line per repair:
//   - a result with no call there (orphan, e.g. its call was summarised
//     away) is dropped; if the message before is a compaction summary,
//     the result's first line is folded into it so the fact survives;
//   - a second result for the same call is dropped;
//   - a call with no result gets a synthetic is_error result
//     (MissingResultContent), placed before whatever message follows;
//   - a repeated call id within one assistant message is dropped;
//   - tool messages left empty are removed;
//   - a user message right after another user message (a prompt after a
//     failed turn on resume, a nudge after an empty reply) is merged into
//     it: texts joined by a blank line, other parts kept in order. Chat
//     templates that require user and assistant turns to alternate
//     (llama.cpp's Jinja templates for Gemma, Mistral and others) reject
//     two in a row, and every provider accepts the merged message; no
//     assistant text is invented. Tool results never merge: they are
//     their own role here.
//
// A valid history comes back equal, with no repairs.
func Repair(msgs []llm.Message) ([]llm.Message, []string) {
	r := repairer{}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleTool:
			r.tool(m)
		case llm.RoleAssistant:
			r.closePending()
			r.assistant(m)
		default:
			r.closePending()
			if m.Role == llm.RoleUser && len(r.out) > 0 && mergeable(r.out[len(r.out)-1]) && mergeable(m) {
				r.out[len(r.out)-1] = mergeUser(r.out[len(r.out)-1], m)
				r.log = append(r.log, "merged two consecutive user messages into one (roles must alternate)")
				continue
			}
			r.out = append(r.out, m)
		}
	}
	r.closePending()
	return r.out, r.log
}

// mergeable reports a user message of text and images only.
func mergeable(m llm.Message) bool {
	if m.Role != llm.RoleUser || len(m.Parts) == 0 {
		return false
	}
	for _, p := range m.Parts {
		if p.Type != llm.PartText && p.Type != llm.PartImage {
			return false
		}
	}
	return true
}

// mergeUser appends b's parts to a's, joining touching text parts with a
// blank line. a's parts are copied, never modified in place.
func mergeUser(a, b llm.Message) llm.Message {
	parts := append([]llm.Part(nil), a.Parts...)
	for i, p := range b.Parts {
		if last := len(parts) - 1; i == 0 && p.Type == llm.PartText && parts[last].Type == llm.PartText {
			parts[last].Text = strings.TrimRight(parts[last].Text, "\n") + "\n\n" + p.Text
			continue
		}
		parts = append(parts, p)
	}
	return llm.Message{Role: llm.RoleUser, Parts: parts}
}

type repairer struct {
	out      []llm.Message
	log      []string
	pending  []llm.ToolCall // calls of the last assistant message
	answered map[string]bool
	open     bool // still in the tool messages right after that assistant
}

func (r *repairer) assistant(m llm.Message) {
	seen := map[string]bool{}
	var parts []llm.Part
	dropped := false
	for _, p := range m.Parts {
		if p.Type == llm.PartToolCall && p.ToolCall != nil {
			if seen[p.ToolCall.ID] {
				r.log = append(r.log, fmt.Sprintf("dropped repeated tool call id %s (%s)", p.ToolCall.ID, p.ToolCall.Name))
				dropped = true
				continue
			}
			seen[p.ToolCall.ID] = true
			r.pending = append(r.pending, *p.ToolCall)
		}
		parts = append(parts, p)
	}
	if dropped {
		m = llm.Message{Role: m.Role, Parts: parts}
	}
	r.out = append(r.out, m)
	r.answered = map[string]bool{}
	r.open = true
}

func (r *repairer) tool(m llm.Message) {
	var parts []llm.Part
	changed := false
	for _, p := range m.Parts {
		if p.Type != llm.PartToolResult || p.ToolResult == nil {
			parts = append(parts, p)
			continue
		}
		id := p.ToolResult.CallID
		switch {
		case !r.open || !r.isPending(id):
			r.log = append(r.log, fmt.Sprintf("dropped orphan tool result %s: no matching call in the assistant message before it", id))
			r.fold(p.ToolResult.Content)
			changed = true
		case r.answered[id]:
			r.log = append(r.log, fmt.Sprintf("dropped second result for tool call %s", id))
			changed = true
		default:
			r.answered[id] = true
			parts = append(parts, p)
		}
	}
	if !changed {
		r.out = append(r.out, m)
		return
	}
	if len(parts) > 0 {
		r.out = append(r.out, llm.Message{Role: m.Role, Parts: parts})
	}
}

func (r *repairer) isPending(id string) bool {
	for _, c := range r.pending {
		if c.ID == id {
			return true
		}
	}
	return false
}

// closePending answers the calls of the last assistant message that got no
// result, in call order, in one tool message.
func (r *repairer) closePending() {
	var missing []llm.Part
	for _, c := range r.pending {
		if r.answered[c.ID] {
			continue
		}
		r.log = append(r.log, fmt.Sprintf("added a synthetic error result for tool call %s (%s), which had none", c.ID, c.Name))
		res := llm.ToolResult{CallID: c.ID, Name: c.Name, Content: MissingResultContent, IsError: true}
		missing = append(missing, llm.Part{Type: llm.PartToolResult, ToolResult: &res})
	}
	if len(missing) > 0 {
		r.out = append(r.out, llm.Message{Role: llm.RoleTool, Parts: missing})
	}
	r.pending, r.answered, r.open = nil, nil, false
}

// foldPrefix introduces an orphan result's text folded into a summary.
const foldPrefix = "[Last tool output before the summary: "

// fold appends the first line of an orphan result to the user message
// right before it when that is a compaction summary (text starting with
// "[Summary", as SummaryPrefix and the B25 logs do).
func (r *repairer) fold(content string) {
	if len(r.out) == 0 {
		return
	}
	prev := &r.out[len(r.out)-1]
	if prev.Role != llm.RoleUser || len(prev.Parts) != 1 || prev.Parts[0].Type != llm.PartText || !strings.HasPrefix(prev.Parts[0].Text, "[Summary") {
		return
	}
	line := strings.TrimSpace(content)
	if k := strings.IndexByte(line, '\n'); k >= 0 {
		line = strings.TrimSpace(line[:k])
	}
	if line == "" {
		return
	}
	if len(line) > 200 {
		line = cutHead(line, 200) + "..."
	}
	*prev = llm.TextMessage(llm.RoleUser, prev.Parts[0].Text+" "+foldPrefix+line+"]")
}

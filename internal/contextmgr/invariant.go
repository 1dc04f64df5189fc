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
	// result (crash, old session, bad compaction) when the caller names no
	// other text (RepairOptions.MissingContent).
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

// FixKind names one kind of change Repair makes.
type FixKind string

// Fix kinds.
const (
	// FixOrphanResult: a result with no call in the assistant message
	// right before it was dropped (its first line folded into a summary
	// right before it, if any). A result part without a ToolResult counts
	// as one, with an empty CallID.
	FixOrphanResult FixKind = "orphan_result"
	// FixSecondResult: a second result for the same call was dropped.
	FixSecondResult FixKind = "second_result"
	// FixMissingResult: a call with no result got a synthetic is_error
	// result (RepairOptions.MissingContent or MissingResultContent).
	FixMissingResult FixKind = "missing_result"
	// FixRepeatedCall: a call id repeated within one assistant message was
	// dropped.
	FixRepeatedCall FixKind = "repeated_call"
	// FixMergedUsers: a user message right after another was merged into
	// it (CallID and Name are empty).
	FixMergedUsers FixKind = "merged_users"
)

// Fix is one change Repair made: its kind and the tool call concerned.
type Fix struct {
	Kind FixKind
	// CallID is the tool call id concerned ("" for FixMergedUsers, or for
	// a result part with no ToolResult).
	CallID string
	// Name is the tool's name when the call is known, else "".
	Name string
}

// String is the fix as one log line, e.g. "added a synthetic error result
// for tool call call_1 (bash), which had none".
func (f Fix) String() string {
	switch f.Kind {
	case FixOrphanResult:
		return fmt.Sprintf("dropped orphan tool result %s: no matching call in the assistant message before it", f.CallID)
	case FixSecondResult:
		return fmt.Sprintf("dropped second result for tool call %s", f.CallID)
	case FixMissingResult:
		return fmt.Sprintf("added a synthetic error result for tool call %s (%s), which had none", f.CallID, f.Name)
	case FixRepeatedCall:
		return fmt.Sprintf("dropped repeated tool call id %s (%s)", f.CallID, f.Name)
	case FixMergedUsers:
		return "merged two consecutive user messages into one (roles must alternate)"
	}
	return fmt.Sprintf("%s %s", f.Kind, f.CallID)
}

// RepairOptions tunes RepairFixes. The zero value is what Repair does.
type RepairOptions struct {
	// KeepUserRuns leaves consecutive user messages apart instead of
	// merging them. The session log's resume keeps the conversation as it
	// was recorded (the request path merges before sending).
	KeepUserRuns bool
	// MissingContent is the text of a synthetic result; "" means
	// MissingResultContent. The session log's resume knows why a result
	// is missing (the log ended while the tool ran) and says so (case
	// B27's wording).
	MissingContent string
}

// Repair enforces the tool-call invariant every provider checks (B25,
// B26, B27): each call of an assistant message has exactly one result in
// the message(s) right after it, and every result answers a call of the
// assistant message right before. It returns a repaired copy and one log
// line per repair (Fix.String):
//   - a result with no call there (orphan, e.g. its call was summarised
//     away) is dropped; if the message before is a compaction summary,
//     the result's first line is folded into it so the fact survives;
//   - a second result for the same call is dropped;
//   - a call with no result gets a synthetic is_error result
//     (MissingResultContent, or RepairOptions.MissingContent), placed after the results that did arrive
//     and before whatever message follows (inside a message that mixes
//     results and text, before the text: Anthropic wants tool_result
//     blocks first);
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
// Results are recognised in any message that carries result parts (a
// RoleTool message, or a user message in the Anthropic shape). A valid
// history comes back equal, with no repairs; msgs itself is not modified.
func Repair(msgs []llm.Message) ([]llm.Message, []string) {
	out, fixes := RepairFixes(msgs, RepairOptions{})
	var log []string
	for _, f := range fixes {
		log = append(log, f.String())
	}
	return out, log
}

// RepairFixes is Repair returning its repairs as values, for callers that
// classify them (the session log turns them into resume warnings).
func RepairFixes(msgs []llm.Message, opts RepairOptions) ([]llm.Message, []Fix) {
	r := repairer{missingContent: opts.MissingContent, keepUserRuns: opts.KeepUserRuns}
	if r.missingContent == "" {
		r.missingContent = MissingResultContent
	}
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant:
			r.closePending()
			r.assistant(m)
		case m.Role == llm.RoleTool || hasResults(m):
			r.tool(m)
		default:
			r.other(m)
		}
	}
	r.closePending()
	return r.out, r.fixes
}

// hasResults reports whether m carries a tool result part.
func hasResults(m llm.Message) bool {
	for _, p := range m.Parts {
		if p.Type == llm.PartToolResult {
			return true
		}
	}
	return false
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
	missingContent string // text of synthetic results
	keepUserRuns   bool
	out            []llm.Message
	fixes          []Fix
	pending        []llm.ToolCall // calls of the last assistant message
	answered       map[string]bool
	open           bool // still in the result messages right after that assistant
}

// other takes a message that is neither an assistant's nor carries
// results: it closes the pending calls, and a user message joins the user
// message before it unless keepUserRuns.
func (r *repairer) other(m llm.Message) {
	r.closePending()
	if !r.keepUserRuns && m.Role == llm.RoleUser && len(r.out) > 0 && mergeable(r.out[len(r.out)-1]) && mergeable(m) {
		r.out[len(r.out)-1] = mergeUser(r.out[len(r.out)-1], m)
		r.fixes = append(r.fixes, Fix{Kind: FixMergedUsers})
		return
	}
	r.out = append(r.out, m)
}

func (r *repairer) assistant(m llm.Message) {
	seen := map[string]bool{}
	var parts []llm.Part
	dropped := false
	for _, p := range m.Parts {
		if p.Type == llm.PartToolCall && p.ToolCall != nil {
			if seen[p.ToolCall.ID] {
				r.fixes = append(r.fixes, Fix{Kind: FixRepeatedCall, CallID: p.ToolCall.ID, Name: p.ToolCall.Name})
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

// tool checks the results of m. A message that mixes results with other
// parts (results, then the user's text) closes the pending calls: the
// missing ones are answered inside it, right after its results.
func (r *repairer) tool(m llm.Message) {
	var results, rest []llm.Part
	changed := false
	for _, p := range m.Parts {
		if p.Type != llm.PartToolResult {
			rest = append(rest, p)
			continue
		}
		if p.ToolResult == nil {
			r.fixes = append(r.fixes, Fix{Kind: FixOrphanResult})
			changed = true
			continue
		}
		id := p.ToolResult.CallID
		switch {
		case !r.open || r.call(id) == nil:
			r.fixes = append(r.fixes, Fix{Kind: FixOrphanResult, CallID: id, Name: p.ToolResult.Name})
			r.fold(p.ToolResult.Content)
			changed = true
		case r.answered[id]:
			r.fixes = append(r.fixes, Fix{Kind: FixSecondResult, CallID: id, Name: p.ToolResult.Name})
			changed = true
		default:
			r.answered[id] = true
			results = append(results, p)
		}
	}
	if len(rest) > 0 && m.Role != llm.RoleTool {
		if missing := r.missing(); len(missing) > 0 {
			results = append(results, missing...)
			changed = true
		}
		r.pending, r.answered, r.open = nil, nil, false
		if len(results) == 0 {
			// Only the user's text is left: it is a user message now.
			r.other(llm.Message{Role: m.Role, Parts: rest})
			return
		}
	}
	if !changed {
		r.out = append(r.out, m)
		return
	}
	if parts := append(results, rest...); len(parts) > 0 {
		r.out = append(r.out, llm.Message{Role: m.Role, Parts: parts})
	}
}

// call returns the pending call with id, or nil.
func (r *repairer) call(id string) *llm.ToolCall {
	for i := range r.pending {
		if r.pending[i].ID == id {
			return &r.pending[i]
		}
	}
	return nil
}

// missing returns synthetic results for the pending calls that got none,
// in call order, and records a fix for each.
func (r *repairer) missing() []llm.Part {
	var parts []llm.Part
	for _, c := range r.pending {
		if r.answered[c.ID] {
			continue
		}
		r.fixes = append(r.fixes, Fix{Kind: FixMissingResult, CallID: c.ID, Name: c.Name})
		res := llm.ToolResult{CallID: c.ID, Name: c.Name, Content: r.missingContent, IsError: true}
		parts = append(parts, llm.Part{Type: llm.PartToolResult, ToolResult: &res})
	}
	return parts
}

// closePending answers the calls of the last assistant message that got no
// result, in call order, in one tool message.
func (r *repairer) closePending() {
	if missing := r.missing(); len(missing) > 0 {
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

package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// keepRecent is how many of the latest messages compaction never touches
// (moved back to a tool-call boundary by the planner).
const keepRecent = 4

// Limits of the summarization request, in bytes.
const (
	summaryInputMax  = 48 * 1024 // transcript sent to be summarised
	summaryTextMax   = 2000      // one text part in the transcript
	summaryResultMax = 600       // one tool result in the transcript
	summaryArgsMax   = 300       // one call's arguments in the transcript
	summaryOutTokens = 1024      // max output tokens of the summary
)

// summaryPrompt is the system prompt of the summarization request.
const summaryPrompt = `You compress the working history of a coding agent so it can continue in a small context window.
Write a factual summary, at most 250 words, plain text, no preamble:
- the user's task and constraints (verbatim when short);
- what was learned: files, functions, line numbers, errors;
- what was changed, and what was verified with which result;
- what remains to be done.`

// manualCompaction is the reason of a compaction the user asked for.
const manualCompaction = "requested by the user"

// ErrCompactionFailed wraps the reason a context-overflow error could not
// be answered by compaction; the run stops with StopError.
var ErrCompactionFailed = errors.New("the request exceeds the model's context window and compaction cannot make it fit")

// Compact compacts the history by hand (/compact): it prunes stale large
// tool results and summarises the oldest middle with the model, whatever
// the window use, and returns a one-line description of what it did.
// contextmgr.ErrCannotShrink (wrapped) means there was nothing to compact;
// a failed summary request falls back to a mechanical digest (a warning
// event says so).
func (a *Agent) Compact(ctx context.Context) (string, error) {
	emit := func(e event.Event) {
		e.SchemaVersion = event.SchemaVersion
		if e.Time.IsZero() {
			e.Time = time.Now().UTC()
		}
		a.opts.Sink.Emit(e)
	}
	a.repairHistory(emit)
	before := contextmgr.HistoryBytes(a.history)
	// Any budget below the current size asks for both stages.
	budget := max(before/4, contextmgr.SummaryReserve)
	if err := a.compact(ctx, emit, budget, manualCompaction); err != nil {
		return "", err
	}
	after := contextmgr.HistoryBytes(a.history)
	if after >= before {
		return "", fmt.Errorf("nothing to compact (%s): %w", contextmgr.HumanBytes(before), contextmgr.ErrCannotShrink)
	}
	return fmt.Sprintf("compacted the conversation from %s to %s", contextmgr.HumanBytes(before), contextmgr.HumanBytes(after)), nil
}

// overflowCompact answers a context-overflow error from the server. What
// the server said (llm.AsOverflow: its window and its count of the prompt)
// is learned first: the window for the rest of the session when it was
// unknown or larger, the prompt count to calibrate the estimator; without
// a count the request is taken to be at least the window. Then it
// compacts to half the window (or half the history when the window is
// unknown) and returns the request to retry.
func (a *Agent) overflowCompact(ctx context.Context, emit func(event.Event), cause error) (llm.Request, error) {
	reqBytes := a.historyRequestBytes(a.history)
	prompt := 0
	if o, ok := llm.AsOverflow(cause); ok {
		if o.Limit > 0 && (a.opts.ContextWindow <= 0 || o.Limit < a.opts.ContextWindow) {
			a.opts.ContextWindow = o.Limit
			emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the server's context window is %d tokens; using it for this session", o.Limit)})
		}
		prompt = o.PromptTokens
		if budgetOnly(cause) {
			// The prompt fits; only max_tokens did not (vLLM, OpenAI).
			// Learning the server's count lowers the budget to the room
			// left: no compaction needed.
			a.est.Calibrate(reqBytes, prompt)
			req := a.buildRequest(ctx, emit)
			req.MaxTokens = min(req.MaxTokens, o.Limit-prompt)
			emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the prompt (%d tokens) fits the %d-token window but the output budget did not; asking for %d output tokens", prompt, o.Limit, req.MaxTokens)})
			return req, nil
		}
	}
	if prompt <= 0 {
		prompt = a.opts.ContextWindow
	}
	a.est.Calibrate(reqBytes, prompt)
	budget := contextmgr.HistoryBytes(a.history) / 2
	if a.opts.ContextWindow > 0 {
		budget = min(budget, a.targetBytes())
	}
	if err := a.compact(ctx, emit, max(budget, 1), "the server reported a context overflow"); err != nil {
		return llm.Request{}, fmt.Errorf("%w: %w (server said: %w)", ErrCompactionFailed, err, cause)
	}
	return a.buildRequest(ctx, emit), nil
}

// budgetOnly reports a context-overflow error that a smaller output
// budget answers without compaction: the server counted a prompt that
// leaves at least minReplyTokens of its window (llm.ContextOverflow's
// OutputBudget subclass).
func budgetOnly(err error) bool {
	o, ok := llm.AsOverflow(err)
	return ok && o.OutputBudget && o.PromptTokens > 0 && o.Limit-o.PromptTokens >= minReplyTokens
}

// compact plans and applies one compaction toward budget bytes of
// history. It returns contextmgr.ErrCannotShrink (wrapped) when nothing
// would shrink, so callers stop instead of looping.
func (a *Agent) compact(ctx context.Context, emit func(event.Event), budget int, why string) error {
	plan, err := contextmgr.PlanCompaction(a.history, budget, keepRecent)
	if err != nil {
		return err
	}
	plan.PinMessages(a.history, a.pinnedMessages()...)
	if len(plan.Prune) == 0 && !plan.Summarize() && len(plan.Recap) == 0 {
		return nil
	}
	if a.opts.BeforeCompact != nil {
		trigger := "auto"
		if why == manualCompaction {
			trigger = "manual"
		}
		a.opts.BeforeCompact(ctx, trigger)
	}
	summary, note := "", fmt.Sprintf("pruned %d stale tool result(s)", len(plan.Prune))
	if len(plan.Recap) > 0 {
		note += fmt.Sprintf(", cut %d recent tool result(s) shorter", len(plan.Recap))
	}
	if plan.Summarize() {
		summary = a.summarize(ctx, emit, a.history[plan.Start:plan.End])
		if ctx.Err() != nil {
			return ctx.Err()
		}
		note = fmt.Sprintf("%s and summarised %d earlier message(s)", note, plan.End-plan.Start)
		summary += a.planNote()
	}
	out, log := contextmgr.ApplyCompaction(a.history, plan, summary)
	for _, l := range log {
		emit(event.Event{Type: event.Warning, Text: "history repaired after compaction: " + l})
	}
	after := contextmgr.HistoryBytes(out)
	if after >= plan.Bytes || len(out) == 0 {
		return fmt.Errorf("%w (%d bytes before, %d after)", contextmgr.ErrCannotShrink, plan.Bytes, after)
	}
	if len(plan.Prune) > 0 {
		a.mgr.Stats.Add(contextmgr.LeverPrune, plan.Bytes-plan.AfterPrune)
	}
	if plan.Summarize() || len(plan.Recap) > 0 {
		// The estimate in plan.After splits the rest between the summary
		// and the recap; the summary's real size is only known now.
		recap := max(0, plan.AfterPrune-after)
		if plan.Summarize() {
			a.mgr.Stats.Add(contextmgr.LeverSummary, recap)
		} else {
			a.mgr.Stats.Add(contextmgr.LeverCap, recap)
		}
	}
	a.history = out
	if a.mgr.Cache != nil {
		a.mgr.Cache.InvalidateAll()
	}
	a.compactions++
	// The session log rebuilds from this: a Compaction event replaces
	// everything before it with its Message, then the Message events of
	// the rest (internal/sessions.RebuildHistory).
	text := summary
	if text == "" {
		text = note
	}
	first := out[0]
	emit(event.Event{Type: event.Compaction, Text: text, Message: &first})
	for i := 1; i < len(out); i++ {
		m := out[i]
		emit(event.Event{Type: event.Message, Message: &m})
	}
	emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("context compacted (%s): %s, %s -> %s", why, note, contextmgr.HumanBytes(plan.Bytes), contextmgr.HumanBytes(after))})
	return nil
}

// pinnedMessages returns the indices of the user's words a summary must
// not replace (contextmgr.Plan.PinMessages keeps those inside the
// summarised range verbatim): the first message of the current or last
// run (its prompt; the first user message of the history when no run
// started yet) and the most recent user message that is not a nudge the
// agent wrote. The search stops at the last summary: what is before it is
// never summarised again.
func (a *Agent) pinnedMessages() []int {
	prompt, recent := -1, -1
	for i := len(a.history) - 1; i >= 0; i-- {
		m := a.history[i]
		if m.Role != llm.RoleUser {
			continue
		}
		text := m.Text()
		if strings.HasPrefix(text, contextmgr.SummaryPrefix) {
			break
		}
		if text == "" {
			continue
		}
		if recent < 0 && !a.nudges[text] {
			recent = i
		}
		if a.runPrompt == "" && !a.nudges[text] {
			prompt = i // keeps moving back to the first one
		} else if prompt < 0 && a.runPrompt != "" && strings.Contains(text, a.runPrompt) {
			prompt = i
		}
	}
	var out []int
	for _, i := range []int{prompt, recent} {
		if i >= 0 && contextmgr.MessageBytes(a.history[i]) <= pinMaxBytes {
			out = append(out, i)
		}
	}
	return out
}

// pinMaxBytes is the largest user message compaction pins verbatim; a
// bigger one (a pasted log) is left to the summary, or compaction could
// not shrink the history at all.
const pinMaxBytes = 16 * 1024

// summarize asks the model, in a separate request without tools, for a
// summary of msgs. When that fails (the summary request itself may not
// fit, or the server errs) a mechanical digest is used instead, so a
// compaction never depends on the model behaving.
func (a *Agent) summarize(ctx context.Context, emit func(event.Event), msgs []llm.Message) string {
	limit := summaryInputMax
	if w := a.opts.ContextWindow; w > 0 {
		limit = min(limit, a.est.Bytes(w/2)-len(summaryPrompt))
	}
	transcript := transcriptOf(msgs)
	if len(transcript) > limit {
		transcript, _ = contextmgr.Cap(transcript, max(limit, 512), "")
	}
	req := llm.Request{
		Model:     a.opts.Model,
		System:    summaryPrompt,
		Messages:  []llm.Message{llm.TextMessage(llm.RoleUser, "Summarize this part of the session:\n\n"+transcript)},
		MaxTokens: summaryOutTokens,
	}
	text, err := a.complete(ctx, req)
	if err == nil && strings.TrimSpace(text) != "" {
		return strings.TrimSpace(text)
	}
	if err == nil {
		err = errors.New("empty summary")
	}
	emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the model could not summarise the history (%v); keeping a mechanical digest instead", err)})
	return digestOf(msgs)
}

// complete runs one non-tool request and returns its text.
func (a *Agent) complete(ctx context.Context, req llm.Request) (string, error) {
	ch, err := a.opts.Provider.Stream(ctx, req)
	if err != nil {
		return "", err
	}
	var asm llm.Assembler
	for ev := range ch {
		asm.Add(ev)
	}
	if asm.Usage != nil {
		a.totals.Usage = a.totals.Usage.Add(*asm.Usage)
	}
	if asm.Err != nil {
		return "", asm.Err
	}
	return asm.Message().Text(), ctx.Err()
}

// transcriptOf renders msgs for the summarizer, each piece capped.
func transcriptOf(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch {
			case p.ToolCall != nil:
				args, _ := contextmgr.Cap(p.ToolCall.Arguments, summaryArgsMax, "")
				fmt.Fprintf(&b, "[%s called %s %s]\n", m.Role, p.ToolCall.Name, args)
			case p.ToolResult != nil:
				res, _ := contextmgr.Cap(p.ToolResult.Content, summaryResultMax, "")
				status := "result"
				if p.ToolResult.IsError {
					status = "error"
				}
				fmt.Fprintf(&b, "[%s %s]\n%s\n", p.ToolResult.Name, status, res)
			case p.Type == llm.PartText:
				t, _ := contextmgr.Cap(p.Text, summaryTextMax, "")
				fmt.Fprintf(&b, "%s: %s\n", m.Role, t)
			}
		}
	}
	return b.String()
}

// digestOf is the mechanical summary: the user's words and the calls made,
// each shortened, at most about SummaryReserve bytes.
func digestOf(msgs []llm.Message) string {
	var b strings.Builder
	b.WriteString("mechanical digest, the model was not asked.")
	for _, m := range msgs {
		for _, p := range m.Parts {
			var line string
			switch {
			case p.ToolCall != nil:
				args, _ := contextmgr.Cap(p.ToolCall.Arguments, 120, "")
				line = fmt.Sprintf(" Called %s %s.", p.ToolCall.Name, args)
			case p.Type == llm.PartText && m.Role == llm.RoleUser:
				t, _ := contextmgr.Cap(p.Text, 300, "")
				line = fmt.Sprintf(" User: %s.", t)
			}
			if b.Len()+len(line) > contextmgr.SummaryReserve-64 {
				b.WriteString(" (more omitted)")
				return b.String()
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/tui/markdown"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/style"
)

// turnState is the reply in flight: one Backend.Run, a !cmd, or a slow
// slash command.
type turnState struct {
	id      int // increments per turn; stale messages are dropped
	running bool
	started time.Time
	busy    string // non-empty for a command that is not a model turn
	cancel  context.CancelFunc
	// interrupted is set when the user interrupted this turn.
	interrupted bool

	reply     *markdown.Stream // assistant text of the current step
	replyText strings.Builder  // the whole turn's assistant text, for /clip
	blocks    []markdown.CodeBlock
	streamed  bool // text deltas arrived (Final's text is then not repeated)

	reasoning strings.Builder

	// calls names the tool calls shown, by id; lastCall is the id of the
	// last call card printed. A result that does not follow its own card
	// (parallel calls print every card first) is headed by its call.
	calls    map[string]string
	lastCall string
	// approved holds the diffs printed when the user approved them, by
	// call id: the call's result card then does not print them again.
	approved map[string]string
	// children are the sub-agents running now (subagents.go).
	children []child
}

func (t *turnState) resize(width int) {
	if t.reply != nil {
		t.reply.Width = width
	}
}

// writeReply streams assistant text into the step's reply, which it
// starts at width, and returns the lines it finished.
func (t *turnState) writeReply(text string, width int) []string {
	if t.reply == nil {
		t.reply = &markdown.Stream{Width: width}
	}
	t.replyText.WriteString(text)
	return t.reply.Write(text)
}

// closeReply finishes the step's reply and returns its last lines.
func (t *turnState) closeReply() []string {
	r := t.reply
	if r == nil {
		return nil
	}
	t.reply = nil
	t.blocks = append(t.blocks, r.Blocks()...)
	return r.Close()
}

// toolCall is a call's card; the call is remembered to head its result.
func (t *turnState) toolCall(c llm.ToolCall, width int) []string {
	if t.calls == nil {
		t.calls = map[string]string{}
	}
	t.calls[c.ID] = render.CallLabel(c)
	t.lastCall = c.ID
	return render.ToolCall(c, width)
}

// toolResult is a result's card: headed by its call's label unless it
// follows its own card, without a diff printed whole on approval.
func (t *turnState) toolResult(r event.ToolOutcome, width int) []string {
	label := ""
	if l, ok := t.calls[r.CallID]; ok && r.CallID != t.lastCall {
		label = l
	}
	if d, ok := t.approved[r.CallID]; ok && slices.Equal(render.Diff(d, width), render.Diff(r.Diff, width)) {
		r.Diff = "" // printed whole on approval, just above
	}
	t.lastCall = ""
	return render.LabeledResult(r, label, width)
}

// interrupt cancels the turn in flight, if any.
func (t *turnState) interrupt() {
	if t.running && t.cancel != nil {
		t.interrupted = true
		t.cancel()
	}
}

// begin starts a new turn and returns its context.
func (m *Model) begin(busy string) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	m.turn = turnState{id: m.turn.id + 1, running: true, busy: busy, cancel: cancel, started: m.opts.Now()}
	m.hint = ""
	return ctx
}

// startRun submits prompt to the backend as a model turn.
func (m *Model) startRun(prompt string) tea.Cmd {
	m.commit(render.Prompt(m.shownPrompt(prompt), m.contentWidth())...)
	if len(m.imageNames) > 0 {
		m.commit(render.Notice("", "with "+strings.Join(m.imageNames, ", "), m.contentWidth())...)
	}
	ctx := m.begin("")
	id, send, b := m.turn.id, m.send, m.backend
	turn := Turn{Prompt: prompt, Images: m.images, Mode: m.mode, Approve: m.approver(id), Ask: m.asker(id)}
	m.images, m.imageNames = nil, nil
	return func() tea.Msg {
		sink := event.SinkFunc(func(e event.Event) { send(eventMsg{id: id, ev: e}) })
		return runDoneMsg{id: id, stop: b.Run(ctx, turn, sink)}
	}
}

// event renders one agent-loop event.
func (m *Model) event(e event.Event) {
	if e.ParentToolCallID != "" {
		m.childEvent(e)
		return
	}
	w := m.contentWidth()
	switch e.Type {
	case event.Text:
		m.endReasoning()
		m.turn.streamed = true
		m.writeReply(e.Text)
	case event.Reasoning:
		m.turn.reasoning.WriteString(e.Text)
	case event.ToolCall:
		m.endStep()
		if e.ToolCall != nil {
			m.commit(m.turn.toolCall(*e.ToolCall, w)...)
		}
	case event.ToolResult:
		m.endStep()
		if e.Result != nil {
			m.lastResult = &lastResult{outcome: *e.Result, label: m.turn.calls[e.Result.CallID]}
			m.commit(m.turn.toolResult(*e.Result, w)...)
		}
	case event.Usage:
		if e.Usage != nil {
			m.setUsage(*e.Usage)
		}
		m.info.CostUSD += e.CostUSD // priced by the run layer (0 for a local model)
	case event.Warning, event.Error:
		m.endStep()
		m.commit(render.Notice(e.Type, appWords(e.Text), w)...)
	case event.Final:
		if !m.turn.streamed && strings.TrimSpace(e.Text) != "" {
			m.endReasoning()
			m.writeReply(e.Text)
		}
	case event.RunStart:
		if e.Model != "" {
			m.info.Model = e.Model
		}
	case event.Plan:
		m.setPlan(e.Plan)
	case event.Compaction:
		m.endStep()
		m.commit(render.Notice(event.Warning, "context compacted", w)...)
	case event.PermissionDecision:
		if p := e.Permission; p != nil && p.Decision != "" {
			m.commit(render.Notice("", decisionText(*p), w)...)
		}
	}
}

// decisionText is the transcript line after a permission decision:
// "bash: allowed `go test …` for this session", "edit_file: allowed
// always", "bash: denied (use make test)" (permission.Decision.Describe).
func decisionText(p event.Permission) string {
	c, err := permission.ParseChoice(p.Decision)
	if err != nil {
		return p.Tool + ": " + p.Decision
	}
	return p.Tool + ": " + permission.Decision{Choice: c, Prefix: p.Prefix, Reason: p.Reason}.Describe()
}

// setUsage updates the footer from a server usage report: the tokens of
// the last request are what the context now holds. InputTokens already
// counts cached tokens (llm.Usage; every provider folds them in).
func (m *Model) setUsage(u llm.Usage) {
	used := u.InputTokens + u.OutputTokens
	if used == 0 {
		return
	}
	m.info.UsedTokens = used
	m.info.Estimated = u.Estimated
}

// writeReply streams assistant text: finished lines go to the scrollback.
func (m *Model) writeReply(text string) {
	m.commit(m.turn.writeReply(text, m.contentWidth())...)
}

// endReasoning commits the reasoning of the current step: a one-line
// summary, or every line when expanded (ctrl+o).
func (m *Model) endReasoning() {
	if m.turn.reasoning.Len() == 0 {
		return
	}
	m.commit(render.Reasoning(m.turn.reasoning.String(), m.contentWidth(), m.expandReasoning, true)...)
	m.lastReasoning = ""
	if !m.expandReasoning {
		m.lastReasoning = m.turn.reasoning.String() // ctrl+o prints it later
	}
	m.turn.reasoning.Reset()
}

// endStep finishes the text of the current step (before a tool card).
func (m *Model) endStep() {
	m.endReasoning()
	m.commit(m.turn.closeReply()...)
}

// runDone ends the turn: the partial reply is kept, an interrupt is noted,
// and the next queued message starts.
func (m *Model) runDone(stop event.StopReason) tea.Cmd {
	m.endStep()
	if m.turn.interrupted || stop == event.StopInterrupted {
		m.commit(style.Warn.Render("⏹ interrupted") + style.Dim.Render(" · what streamed so far is kept; type to redirect"))
	} else if stop != "" && stop != event.StopCompleted {
		m.commit(render.Notice(event.Warning, fmt.Sprintf("run stopped: %s", stop), m.contentWidth())...)
	}
	if m.turn.busy == "" {
		if text := strings.TrimSpace(m.turn.replyText.String()); text != "" {
			m.lastReply, m.lastBlocks = text, m.turn.blocks
		}
		m.commit("")
	}
	if m.turn.cancel != nil {
		m.turn.cancel()
	}
	m.turn.running, m.turn.busy = false, ""
	m.denyWaiting("turn ended")
	m.cancelQuestions()
	m.info = mergeInfo(m.backend.Info(), m.info)
	next := m.nextQueued() // a queued message started: no one waits yet
	return tea.Batch(next, m.waiting("done"))
}

// mergeInfo takes fresh backend info but keeps a server-reported usage the
// backend does not know about yet. (An Anthropic or Gemini request without
// a usage report after one with a report keeps the older figure; both APIs
// report usage on every request.)
func mergeInfo(fresh, cur Info) Info {
	if fresh.UsedTokens == 0 || (fresh.Estimated && !cur.Estimated && cur.UsedTokens > 0) {
		fresh.UsedTokens, fresh.Estimated = cur.UsedTokens, cur.Estimated
	}
	return fresh
}

// liveReply renders the unfinished part of the turn for the live region.
func (m *Model) liveReply() []string {
	var out []string
	if m.turn.reasoning.Len() > 0 {
		out = append(out, render.Reasoning(m.turn.reasoning.String(), m.contentWidth(), m.expandReasoning, false)...)
	}
	if r := m.turn.reply; r != nil {
		out = append(out, r.Tail()...)
	}
	return out
}

// appWords puts the app's commands in place of the command line's in a
// provider error's hint: /model where exec would say --model
// (llm.PickModel), /compact for llm.Compact.
func appWords(s string) string {
	return strings.NewReplacer(llm.PickModel, "/model", llm.Compact, "compact it (/compact)").Replace(s)
}

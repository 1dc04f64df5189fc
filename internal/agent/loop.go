package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/textcalls"
	"github.com/zero-agent/zero/internal/tools"
)

// emptyTurnNudge is sent once when the model answers with nothing at all.
const emptyTurnNudge = "Your last reply was empty. Continue the task with a tool call, or give your final answer."

// maxMalformedNudges is how many malformed tool calls (llm.ErrMalformedToolCall,
// e.g. Gemini's MALFORMED_FUNCTION_CALL) one run answers with a nudge; the
// next one stops the run with a provider error.
const maxMalformedNudges = 2

// malformedNudge is the user message that answers a malformed tool call:
// what the provider said went wrong, and what to do instead.
func malformedNudge(err error) string {
	detail := err.Error()
	var pe *llm.ProviderError
	if errors.As(err, &pe) && pe.Message != "" {
		detail = pe.Message
	}
	detail = strings.TrimRight(strings.TrimSpace(detail), ".")
	return "Your last tool call was malformed: " + detail + ". Call the tool again with a valid JSON object of arguments."
}

// maxCutNudges is how many replies cut off by the output-token limit
// (llm.FinishLength) without a tool call one run answers with cutNudge;
// the next one stops the run with StopError.
const maxCutNudges = 2

// cutNudge answers a reply without tool calls that the output-token limit
// cut off.
const cutNudge = "Your reply was cut off by the output limit; continue where you stopped, more briefly."

// cutCallNote is added to the error result of a tool call whose arguments
// are invalid because the output-token limit cut the reply off.
const cutCallNote = " Your reply was cut off by the output token limit before these arguments were complete: shorten the call, e.g. write the file in parts."

// run holds the state of one Run.
type run struct {
	a      *Agent
	id     string
	start  time.Time
	turn   int
	totals event.Totals
	nudged bool
	// malformed counts the malformed tool calls answered with a nudge.
	malformed int
	// shown is the answer text shown for the current turn.
	shown string
	// finish is the finish reason of the current turn's reply; usage its
	// usage report (nil when the server sent none).
	finish llm.FinishReason
	usage  *llm.Usage
	// refilled is set once a reply that filled the window was answered
	// by compaction; the next one before a tool call ends the run
	// (ErrWindowFull).
	refilled bool
	// cut counts the cut-off replies answered with cutNudge.
	cut int
	// cutText is the text of the cut-off replies since the last tool call
	// or completion nudge: the final answer starts with it, since the
	// model was asked to continue where it stopped.
	cutText strings.Builder
	// stuck watches for repeated calls; completion for unfinished answers.
	stuck      stuckDetector
	completion completionState
	// stopHookActive: the run went on because OnStop answered.
	stopHookActive bool
}

// Run sends prompt as a user message and loops until the model gives a
// final answer or the run stops. It always emits run_start first and
// run_end last.
func (a *Agent) Run(ctx context.Context, prompt string) Result {
	return a.RunInput(ctx, Input{Prompt: prompt})
}

// Input is one prompt for RunInput.
type Input struct {
	// Prompt is the user's prompt: run_start records it, so session
	// lists, history and rewind points show what the user asked.
	Prompt string
	// Notes follow the prompt in the user message, for the model only:
	// `!cmd` outputs, --output-schema's instruction.
	Notes string
	// Images are attached after the text, one part each.
	Images []llm.Image
}

// RunInput is Run with notes and images: the user message is the
// prompt and its notes as one text part, then one image part per image.
func (a *Agent) RunInput(ctx context.Context, in Input) Result {
	r := &run{a: a, id: NewRunID(), start: time.Now()}
	r.emit(event.Event{Type: event.RunStart, Provider: a.opts.Provider.Name(), Model: a.opts.Model, Prompt: in.Prompt})
	a.runPrompt = in.Prompt
	msg := llm.TextMessage(llm.RoleUser, in.Prompt+in.Notes)
	for i := range in.Images {
		msg.Parts = append(msg.Parts, llm.Part{Type: llm.PartImage, Image: &in.Images[i]})
	}
	r.appendMessage(msg)
	res := r.loop(ctx)
	res.Totals = r.totals
	res.Totals.ElapsedMs = time.Since(r.start).Milliseconds()
	a.totals.Turns += res.Totals.Turns
	a.totals.ToolCalls += res.Totals.ToolCalls
	a.totals.Usage = a.totals.Usage.Add(res.Totals.Usage)
	if res.Err != nil {
		ev := event.Event{Type: event.Error, Text: res.Err.Error(), ErrorKind: stopErrorKind(res.Err)}
		r.emit(ev)
	}
	if res.StopReason == event.StopCompleted {
		r.emit(event.Event{Type: event.Final, Text: res.Final})
	}
	t := res.Totals
	r.emit(event.Event{Type: event.RunEnd, StopReason: res.StopReason, Totals: &t})
	return res
}

// stopErrorKind is the ErrorKind of the error event that ends a run: the
// kind of a provider error; context_overflow when the history could not be
// compacted to fit the window (ErrCompactionFailed, contextmgr's
// ErrCannotShrink); empty for the loop's own stops (max_turns, two empty
// replies, stuck, replies cut by the output limit), which no ErrorKind
// names.
func stopErrorKind(err error) llm.ErrorKind {
	var pe *llm.ProviderError
	switch {
	case errors.Is(err, ErrCompactionFailed) || errors.Is(err, ErrWindowFull) || errors.Is(err, contextmgr.ErrCannotShrink):
		return llm.ErrContextOverflow
	case errors.As(err, &pe):
		return pe.Kind
	case errors.Is(err, context.Canceled):
		return llm.ErrCanceled
	}
	return ""
}

func (r *run) emit(e event.Event) {
	e.SchemaVersion = event.SchemaVersion
	e.RunID = r.id
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	if e.Turn == 0 {
		e.Turn = r.turn
	}
	r.a.opts.Sink.Emit(e)
}

func (r *run) appendMessage(m llm.Message) {
	r.a.history = append(r.a.history, m)
	mc := m
	r.emit(event.Event{Type: event.Message, Message: &mc})
}

func (r *run) loop(ctx context.Context) Result {
	for {
		if err := ctx.Err(); err != nil {
			return Result{StopReason: event.StopInterrupted}
		}
		if r.turn >= r.a.opts.MaxTurns {
			return Result{StopReason: event.StopMaxTurns, Err: fmt.Errorf("stopped after %d turns (max_turns); resume to continue", r.turn)}
		}
		r.turn++
		r.a.turnSeq++
		r.totals.Turns++
		req, err := r.a.prepareRequest(ctx, r.emit)
		if err != nil {
			if ctx.Err() != nil {
				return Result{StopReason: event.StopInterrupted}
			}
			return Result{StopReason: event.StopError, Err: err}
		}
		msg, err := r.requestWithRetry(ctx, req)
		if err != nil && ctx.Err() == nil && llm.KindOf(err) == llm.ErrContextOverflow {
			// Reactive compaction: exactly once for this turn, then one
			// retry; a second overflow ends the run below.
			if !budgetOnly(err) {
				r.emit(event.Event{Type: event.Warning, Text: "the request exceeds the model's context window; compacting the history once and retrying"})
			}
			req, err = r.a.overflowCompact(ctx, r.emit, err)
			if err != nil {
				return Result{StopReason: event.StopError, Err: err}
			}
			msg, err = r.requestWithRetry(ctx, req)
		}
		if err != nil && ctx.Err() == nil {
			var again bool
			if again, err = r.switchToPrompted(err, req); again {
				req = r.a.buildRequest(ctx, r.emit)
				msg, err = r.requestWithRetry(ctx, req)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				r.keepPartial(msg)
				return Result{StopReason: event.StopInterrupted}
			}
			if llm.KindOf(err) == llm.ErrMalformedToolCall && r.malformed < maxMalformedNudges {
				// Repeating the request fails the same way; telling the
				// model what went wrong usually works.
				r.malformed++
				r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("%v; asking the model to call the tool again (%d of %d)", err, r.malformed, maxMalformedNudges)})
				r.keepPartial(msg)
				r.nudge(malformedNudge(err))
				continue
			}
			return Result{StopReason: event.StopProviderError, Err: err}
		}
		calls := msg.ToolCalls()
		for _, c := range calls {
			r.a.ids.Observe(c.ID)
		}
		var invalid map[string]string
		if offered := r.a.offeredSpecs(req); len(calls) == 0 && r.a.textCallsOn() && len(offered) > 0 && msg.Text() != "" {
			msg, invalid = r.recoverTextCalls(msg, offered)
			calls = msg.ToolCalls()
		}
		if len(calls) == 0 && r.finish == llm.FinishLength && r.a.filledWindow(r.usage) {
			// Not the output limit: prompt plus reply reached the window,
			// so there is no room to continue in. Compact once and ask
			// again; the reply that filled the window is dropped.
			if res, stop := r.windowFilled(ctx); stop {
				return res
			}
			continue
		}
		if len(calls) == 0 && r.finish == llm.FinishLength {
			if r.cut >= maxCutNudges {
				r.keepPartial(msg)
				return Result{StopReason: event.StopError, Err: errors.New("the model's replies keep hitting the output limit")}
			}
			r.cut++
			r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the reply was cut off by the output token limit; asking the model to continue (%d of %d)", r.cut, maxCutNudges)})
			if strings.TrimSpace(msg.Text()) == "" {
				r.recordEmpty(msg)
			} else {
				r.keepPartial(msg)
				r.cutText.WriteString(msg.Text())
			}
			r.nudge(cutNudge)
			if !r.a.continuationFits(r.usage) {
				r.a.roomNeeded = true
			}
			continue
		}
		if len(calls) == 0 {
			text := strings.TrimSpace(msg.Text())
			if text == "" {
				if r.nudged {
					return Result{StopReason: event.StopError, Err: errors.New("the model returned two empty replies in a row")}
				}
				r.nudged = true
				r.emit(event.Event{Type: event.Warning, Text: "empty reply from the model; nudging once"})
				r.recordEmpty(msg)
				r.nudge(emptyTurnNudge)
				continue
			}
			r.appendMessage(msg)
			if nudge := r.checkCompletion(text); nudge != "" {
				r.cutText.Reset()
				r.nudge(nudge)
				continue
			}
			if stop := r.a.opts.OnStop; stop != nil {
				if more := stop(ctx, r.stopHookActive, r.cutText.String()+msg.Text()); more != "" && ctx.Err() == nil {
					r.stopHookActive = true
					r.cutText.Reset()
					r.nudge(more)
					continue
				}
			}
			return Result{StopReason: event.StopCompleted, Final: r.cutText.String() + msg.Text()}
		}
		r.cutText.Reset()
		r.refilled = false // progress: a later full window gets its own compaction
		r.appendMessage(msg)
		if stop := r.runTools(ctx, calls, invalid); stop {
			return Result{StopReason: event.StopInterrupted}
		}
		if halted := r.a.opts.Halted; halted != nil {
			if why := halted(); why != "" {
				return Result{StopReason: event.StopError, Err: errors.New(why)}
			}
		}
		if res, stop := r.checkStuck(); stop {
			return res
		}
	}
}

// windowFilled answers a reply that filled the context window (finish
// "length" with prompt plus reply at the window): the first time, the
// history is compacted as for a context-overflow error and the loop asks
// again; the second time, or when compaction cannot make room, the run
// stops with ErrWindowFull and what to do.
func (r *run) windowFilled(ctx context.Context) (Result, bool) {
	w, u := r.a.opts.ContextWindow, r.usage
	if r.refilled {
		return Result{StopReason: event.StopError, Err: windowFullError(w, true)}, true
	}
	r.refilled = true
	r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the reply filled the %d-token context window (prompt %d + reply %d tokens), so it cannot be continued; dropping it, compacting the history once and asking again", w, u.InputTokens, u.OutputTokens)})
	cause := &llm.ProviderError{Kind: llm.ErrContextOverflow, Provider: r.a.opts.Provider.Name(), Model: r.a.opts.Model,
		Err: &llm.ContextOverflow{PromptTokens: u.InputTokens, Limit: w}}
	if _, err := r.a.overflowCompact(ctx, r.emit, cause); err != nil {
		if ctx.Err() != nil {
			return Result{StopReason: event.StopInterrupted}, true
		}
		return Result{StopReason: event.StopError, Err: windowFullError(w, false)}, true
	}
	return Result{}, false
}

// nudge appends a user message the agent wrote (not the user), and
// remembers its text so compaction does not pin it as the user's words.
func (r *run) nudge(text string) {
	if r.a.nudges == nil {
		r.a.nudges = map[string]bool{}
	}
	r.a.nudges[text] = true
	r.appendMessage(llm.TextMessage(llm.RoleUser, text))
}

// emptyReply stands in the history for a reply without text or tool
// calls, so the nudge that follows does not sit right after another user
// message (Repair would merge the two, with a warning) and the model sees
// that its turn came back empty.
const emptyReply = "(empty reply)"

// recordEmpty records a reply without text or tool calls: msg itself when
// it carries reasoning (replayed to providers that need it) plus the
// emptyReply marker text, so no assistant message is empty on the wire.
func (r *run) recordEmpty(msg llm.Message) {
	parts := append([]llm.Part(nil), msg.Parts...)
	parts = append(parts, llm.Part{Type: llm.PartText, Text: emptyReply})
	r.appendMessage(llm.Message{Role: llm.RoleAssistant, Parts: parts})
}

// keepPartial appends the partial assistant text of an interrupted turn,
// without its tool calls (they never ran and have no results).
func (r *run) keepPartial(msg llm.Message) {
	if t := msg.Text(); strings.TrimSpace(t) != "" {
		r.appendMessage(llm.TextMessage(llm.RoleAssistant, t))
	}
}

func (r *run) visibleSpecs() []llm.ToolSpec {
	return r.a.opts.Tools.Specs(r.a.opts.Visible)
}

// requestWithRetry streams one turn, repeating the whole request on
// retryable failures (overloaded, rate limited, a server error, a broken
// or stalled stream) with jittered exponential backoff. A connect error is
// not retryable: the provider transport made the only connect retry, so a
// refused 127.0.0.1 ends the run at once with one error, no retry note
// (llm.ProviderError.Retryable). Text already shown to the user is not
// shown again: the retried stream's text is compared with what was printed
// and only the new suffix is emitted. The text shown is left in r.shown.
func (r *run) requestWithRetry(ctx context.Context, req llm.Request) (llm.Message, error) {
	var printedText string
	for attempt := 0; ; attempt++ {
		r.usage = nil
		msg, shown, finish, err := r.streamOnce(ctx, req, printedText)
		r.finish = finish
		printedText = shown
		r.shown = shown
		if err == nil || ctx.Err() != nil || !llm.IsRetryable(err) || attempt >= r.a.opts.Retries || r.a.opts.Retries < 0 {
			return msg, gaveUp(err, attempt)
		}
		var asked time.Duration
		var pe *llm.ProviderError
		if errors.As(err, &pe) {
			asked = pe.RetryAfter
		}
		if asked > maxRetryWait {
			return msg, fmt.Errorf("%w (the server asked to wait %s before retrying, more than the %s a run waits; try again later)", err, asked, maxRetryWait)
		}
		delay := retryDelay(r.a.opts.RetryBase, attempt, asked)
		r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("%v; retrying in %s (attempt %d of %d)", err, delay.Round(time.Millisecond), attempt+1, r.a.opts.Retries)})
		select {
		case <-ctx.Done():
			return msg, ctx.Err()
		case <-time.After(delay):
		}
	}
}

// gaveUp rewrites the hint of a retryable error that outlived its
// retries: "Zero retries …" was true of the first failure, not of the
// last, which now says how many retries were spent.
func gaveUp(err error, retries int) error {
	var pe *llm.ProviderError
	if retries == 0 || !errors.As(err, &pe) || error(pe) != err || !strings.Contains(pe.Hint, "Zero retries") {
		return err
	}
	out := *pe
	rest := ""
	if i := strings.Index(pe.Hint, "; "); i >= 0 {
		rest = pe.Hint[i:]
	}
	head := pe.Hint[:strings.Index(pe.Hint, "Zero retries")]
	out.Hint = fmt.Sprintf("%sZero retried %d times%s", head, retries, rest)
	return &out
}

// maxRetryWait caps any single wait between retries of a request. A
// server that asks for longer (Retry-After: 3600 on a spent quota) stops
// the run with StopProviderError and an error naming the wait, instead of
// a run that hangs for an hour.
const maxRetryWait = 60 * time.Second

// retryDelay is the wait before retry attempt+1: our own backoff
// base<<attempt (at most maxRetryWait) plus up to a quarter of it in
// jitter, or the server's Retry-After (asked) when that is longer, exactly
// as asked: jitter is never added on top of the server's value.
func retryDelay(base time.Duration, attempt int, asked time.Duration) time.Duration {
	own := maxRetryWait
	if attempt < 30 && base<<attempt > 0 && base<<attempt < maxRetryWait {
		own = base << attempt
	}
	own = min(own+time.Duration(rand.Int64N(int64(own)/4+1)), maxRetryWait)
	return max(own, asked)
}

// streamOnce runs one request. already is the text shown by earlier
// attempts of this turn; it returns the text shown after this attempt and
// the reply's finish reason ("" when the stream sent none).
// With text tool calls on, text deltas pass through a textcalls
// StreamFilter so call markup never reaches a surface.
func (r *run) streamOnce(ctx context.Context, req llm.Request, already string) (llm.Message, string, llm.FinishReason, error) {
	started := time.Now()
	ch, err := r.a.opts.Provider.Stream(ctx, req)
	if err != nil {
		return llm.Message{}, already, "", err
	}
	var filter *textcalls.StreamFilter
	if specs := r.a.offeredSpecs(req); r.a.textCallsOn() && len(specs) > 0 {
		offered := make([]string, len(specs))
		for i, t := range specs {
			offered[i] = t.Name
		}
		// Offered: untagged JSON naming no offered tool is shown as soon
		// as its object is complete, not at the end of the reply.
		filter = textcalls.NewStreamFilter(textcalls.StreamOptions{Offered: offered})
	}
	var asm llm.Assembler
	var text strings.Builder
	shown := already
	show := func(piece string) {
		if piece == "" {
			return
		}
		text.WriteString(piece)
		cur := text.String()
		if len(cur) <= len(shown) && strings.HasPrefix(shown, cur) {
			return // replayed text the user already saw
		}
		delta := piece
		if strings.HasPrefix(cur, shown) {
			delta = cur[len(shown):]
		} else if len(shown) > 0 && len(cur)-len(piece) < len(shown) {
			r.emit(event.Event{Type: event.Warning, Text: "the retried reply differs from what was shown; continuing with the new reply"})
			delta = cur
		}
		shown = cur
		r.emit(event.Event{Type: event.Text, Text: delta})
	}
	filtered := func(d textcalls.Delta) {
		if d.Reasoning != "" {
			r.emit(event.Event{Type: event.Reasoning, Text: d.Reasoning})
		}
		show(d.Text)
	}
	for ev := range ch {
		asm.Add(ev)
		switch ev.Type {
		case llm.EventTextDelta:
			if filter != nil {
				filtered(filter.Feed(ev.Text))
			} else {
				show(ev.Text)
			}
		case llm.EventReasoningDelta:
			// Redacted reasoning is opaque provider data: kept in the
			// history for replay, never shown.
			if !ev.Redacted {
				r.emit(event.Event{Type: event.Reasoning, Text: ev.Text})
			}
		case llm.EventWarning:
			r.emit(event.Event{Type: event.Warning, Text: ev.Text})
		case llm.EventUsage:
			// reported below once per request
		}
	}
	if filter != nil {
		filtered(filter.Flush())
	}
	if asm.Usage != nil {
		u := *asm.Usage
		r.usage = &u
		r.totals.Usage = r.totals.Usage.Add(u)
		r.a.calibrate(req, u)
		r.emit(event.Event{Type: event.Usage, Usage: &u, ElapsedMs: time.Since(started).Milliseconds()})
	}
	if asm.Err != nil {
		return asm.Message(), shown, asm.Finish, asm.Err
	}
	if err := ctx.Err(); err != nil {
		return asm.Message(), shown, asm.Finish, err
	}
	return asm.Message(), shown, asm.Finish, nil
}

// validArgs returns a call's arguments as a JSON object, or an error
// message the model can act on. Arguments that are not valid JSON get the
// same meaning-preserving repair as calls written as text
// (textcalls.RepairArguments: trailing commas, single quotes, unquoted
// keys, a JSON-encoded string) when repair is true; repaired is then true
// and the call's own Arguments (kept in the history and the log) are left
// as they came.
func validArgs(c llm.ToolCall, t tools.Tool, repair bool) (args json.RawMessage, msg string, repaired bool) {
	raw, err := c.ArgumentsJSON()
	if err == nil {
		return raw, "", false
	}
	if repair {
		if fixed, rerr := textcalls.RepairArguments(c.Arguments); rerr == nil {
			var v map[string]any
			if json.Unmarshal([]byte(fixed), &v) == nil {
				return json.RawMessage(fixed), "", true
			}
		}
	}
	return nil, fmt.Sprintf("error: the arguments of %s are not a valid JSON object (%v). Call it again with a JSON object matching its schema: %s", c.Name, err, compactJSON(t.Schema())), false
}

func compactJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

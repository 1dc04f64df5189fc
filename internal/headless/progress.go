package headless

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// progress writes a human-readable run log (text mode's stderr). Every
// untrusted string (model text, tool output, arguments) is sanitised:
// nothing the model prints can move the cursor, clear the screen or
// change the terminal title.
//
// Assistant text is held per turn: it is shown when a tool call follows
// it, or when the loop answers it with a nudge of its own (a reply cut off
// by the output limit, one that claims tests pass without running any, an
// empty or malformed one): the reply, the loop's warning about it and a
// "↻" line with the nudge appear in that order. The last turn's text is
// the final answer, which goes to stdout only (so it is shown once).
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	pending strings.Builder
	// held are warning lines that arrived while a reply was pending: a
	// warning about that reply (the loop's reason for a nudge) comes before
	// the reply's message events, so it waits for them to be shown after
	// the reply. Any later event, or warnHold without one (a retry's
	// backoff), lets them out without the reply.
	held   []string
	heldAt time.Time
	// prompted is set once the run's own prompt has passed as a user
	// message; every later user message in the run is a nudge.
	prompted bool
	// last is when the last event arrived; a silent model gets a
	// "still waiting" line every waitEvery so a hung server is visible.
	last      time.Time
	waitEvery time.Duration
	done      chan struct{}
	stop      sync.Once
}

// warnHold is how long a warning may wait behind a pending reply before
// it is shown on its own.
const warnHold = 500 * time.Millisecond

func newProgress(w io.Writer) *progress { return newProgressEvery(w, 20*time.Second) }

func newProgressEvery(w io.Writer, every time.Duration) *progress {
	p := &progress{w: w, last: time.Now(), waitEvery: every, done: make(chan struct{})}
	go p.heartbeat()
	return p
}

// heartbeat notes long silences until the run ends, and lets out
// warnings held longer than warnHold.
func (p *progress) heartbeat() {
	t := time.NewTicker(min(time.Second, p.waitEvery/4, warnHold))
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case now := <-t.C:
			p.mu.Lock()
			p.releaseStale(now)
			if silent := now.Sub(p.last); silent >= p.waitEvery {
				fmt.Fprintf(p.w, "… no answer from the model for %s (still waiting; Ctrl-C stops, ZERO_FIRST_BYTE_TIMEOUT / ZERO_IDLE_TIMEOUT bound the wait)\n", silent.Round(time.Second))
				p.last = now
			}
			p.mu.Unlock()
		}
	}
}

// Emit implements event.Sink.
func (p *progress) Emit(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = time.Now()
	if e.ParentToolCallID != "" {
		p.child(e)
		return
	}
	switch e.Type {
	case event.RunStart:
		p.prompted = false
	case event.Text, event.Reasoning:
		// The turn goes on (after a retry): held warnings were not about
		// a finished reply.
		p.release()
		if e.Type == event.Text {
			p.pending.WriteString(e.Text)
		}
	case event.Message:
		nudge, ok := userText(e.Message)
		if !ok {
			break
		}
		if !p.prompted {
			p.prompted = true // the run's prompt
			break
		}
		p.flushText()
		p.release()
		fmt.Fprintln(p.w, "↻ Zero to the model: "+oneLine(nudge, 200))
	case event.ToolCall:
		p.flushText()
		p.release()
		fmt.Fprintf(p.w, "⚙ %s(%s)\n", sanitize.Line(e.ToolCall.Name), oneLine(e.ToolCall.Arguments, 160))
	case event.ToolResult:
		p.release()
		r := e.Result
		status := "ok"
		if r.IsError {
			status = "error"
		}
		if r.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *r.ExitCode)
		}
		fmt.Fprintf(p.w, "↳ %s · %s · %d ms · %s\n", status, sizeText(r.RawBytes), r.ElapsedMs, oneLine(r.Content, 120))
	case event.Plan:
		p.flushText()
		p.release()
		fmt.Fprintln(p.w, "☰ plan:")
		for _, st := range e.Plan.Steps {
			fmt.Fprintf(p.w, "  %s %s\n", st.Status.Mark(), sanitize.Line(st.Step))
		}
	case event.Warning:
		line := "! " + sanitize.Text(e.Text)
		if strings.TrimSpace(p.pending.String()) == "" {
			p.release()
			fmt.Fprintln(p.w, line)
			break
		}
		if len(p.held) == 0 {
			p.heldAt = p.last
		}
		p.held = append(p.held, line)
	case event.Error:
		p.flushText()
		p.release()
		fmt.Fprintln(p.w, "✗ "+sanitize.Text(e.Text))
	case event.RunEnd:
		p.stop.Do(func() { close(p.done) })
		if e.StopReason != event.StopCompleted {
			p.flushText() // no final answer on stdout: keep the partial text
		}
		p.release()
		if e.Totals != nil {
			u := e.Totals.Usage
			est := ""
			if u.Estimated {
				est = "~"
			}
			cost := ""
			if e.Totals.CostUSD > 0 {
				cost = fmt.Sprintf(" · $%.4f", e.Totals.CostUSD)
			}
			fmt.Fprintf(p.w, "— %s · %s · %s · %s%d in / %s%d out tokens%s · %.1fs\n", e.StopReason, count(e.Totals.Turns, "turn"), count(e.Totals.ToolCalls, "tool call"), est, u.InputTokens, est, u.OutputTokens, cost, float64(e.Totals.ElapsedMs)/1000)
		}
	}
}

// userText returns the text of a user message (a prompt or a nudge);
// ok is false for any other message.
func userText(m *llm.Message) (text string, ok bool) {
	if m == nil || m.Role != llm.RoleUser {
		return "", false
	}
	for _, part := range m.Parts {
		switch part.Type {
		case llm.PartText:
			text += part.Text
		case llm.PartToolResult:
			return "", false
		}
	}
	return text, strings.TrimSpace(text) != ""
}

// flushText shows held assistant text on its own lines.
func (p *progress) flushText() {
	if t := strings.TrimSpace(p.pending.String()); t != "" {
		fmt.Fprintln(p.w, sanitize.Text(t))
	}
	p.pending.Reset()
}

// release shows held warnings.
func (p *progress) release() {
	for _, l := range p.held {
		fmt.Fprintln(p.w, l)
	}
	p.held = nil
}

// releaseStale shows held warnings once they have waited warnHold at now.
func (p *progress) releaseStale(now time.Time) {
	if len(p.held) > 0 && now.Sub(p.heldAt) >= warnHold {
		p.release()
	}
}

// count is "1 turn", "2 turns".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(sanitize.Line(s)), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func sizeText(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}

// child shows a sub-agent's tool calls, warnings and errors, named after
// it; its text and answer stay in its own session log (the parent's tool
// result carries the answer). p.mu is held.
func (p *progress) child(e event.Event) {
	switch e.Type {
	case event.ToolCall:
		p.flushText()
		p.release()
		fmt.Fprintf(p.w, "  ⚙ %s: %s(%s)\n", sanitize.Line(e.Agent), sanitize.Line(e.ToolCall.Name), oneLine(e.ToolCall.Arguments, 140))
	case event.Warning, event.Error:
		p.flushText()
		p.release()
		fmt.Fprintf(p.w, "  ! %s sub-agent: %s\n", sanitize.Line(e.Agent), sanitize.Text(e.Text))
	}
}

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/streamjson"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// resumeFlag is --resume: bare for the latest session of the workspace,
// --resume=ID (or --resume ID before the prompt) for a given one.
type resumeFlag struct {
	set bool
	id  string
}

func (r *resumeFlag) String() string   { return r.id }
func (r *resumeFlag) IsBoolFlag() bool { return true }
func (r *resumeFlag) Set(v string) error {
	r.set = true
	if v != "true" {
		r.id = v
	}
	if v == "false" {
		r.set, r.id = false, ""
	}
	return nil
}

// sessionIDPattern matches a session id or a prefix of one long enough to
// be meant as an id ("20261130-0512…").
var sessionIDPattern = regexp.MustCompile(`^\d{8}(-\d{0,6}(-[0-9a-f]{0,6})?)?$`)

// execOptions are the parsed flags of zero exec.
type execOptions struct {
	prompt     string
	output     string
	input      string
	resume     resumeFlag
	fork       string
	over       overrides
	maxTurns   int
	quiet      bool
	permission string
}

func parseExec(s stdio, args []string) (*execOptions, error) {
	o := &execOptions{}
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.StringVar(&o.prompt, "p", "", "the task (instead of a positional argument)")
	fs.StringVar(&o.output, "o", "text", "output: text (answer on stdout, progress on stderr), json, stream-json")
	fs.StringVar(&o.input, "i", "", "input format: stream-json to answer permission requests on stdin")
	fs.Var(&o.resume, "resume", "continue the latest session of this workspace (or --resume=ID)")
	fs.StringVar(&o.fork, "fork", "", "branch a new session from session `ID` and continue it")
	fs.IntVar(&o.maxTurns, "max-turns", 0, "backstop on model requests (default from config, 200)")
	fs.BoolVar(&o.quiet, "q", false, "text mode: no progress on stderr (so no replies the loop answered with a nudge either)")
	fs.StringVar(&o.permission, "permission-mode", "", "normal | auto-accept | plan")
	o.over.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usagef("%v", err)
	}
	switch o.output {
	case "text", "json", "stream-json":
	default:
		return nil, usagef("-o must be text, json or stream-json, not %q", o.output)
	}
	if o.input != "" && o.input != "stream-json" {
		return nil, usagef("-i must be stream-json, not %q", o.input)
	}
	if o.resume.set && o.resume.id == "" && len(pos) > 0 && sessionIDPattern.MatchString(pos[0]) && (len(pos) > 1 || o.prompt != "" || !s.inIsTTY) {
		o.resume.id, pos = pos[0], pos[1:]
	}
	if o.fork != "" && strings.HasPrefix(o.fork, "-") {
		return nil, usagef("--fork needs a session id (zero sessions lists them), got %q", o.fork)
	}
	if len(pos) > 1 {
		return nil, usagef("exec takes one prompt; quote it (got %d arguments)", len(pos))
	}
	if len(pos) == 1 {
		if o.prompt != "" {
			return nil, usagef("give the prompt either as an argument or with -p, not both")
		}
		o.prompt = pos[0]
	}
	if o.prompt == "-" || (o.prompt == "" && !s.inIsTTY && s.in != nil) {
		b, err := io.ReadAll(s.in)
		if err != nil {
			return nil, fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		o.prompt = string(b)
	}
	if strings.TrimSpace(o.prompt) == "" {
		return nil, usagef("no prompt: zero exec \"what to do\" (or -p, or - to read stdin)")
	}
	return o, nil
}

func runExec(s stdio, args []string) error {
	// Signals are caught from the start: one that arrives while Zero is
	// still setting up still ends the run cleanly (run_end, exit 130).
	ctx, stop := signalContext()
	defer stop()
	o, err := parseExec(s, args)
	if err != nil {
		return err
	}
	rt, err := newRuntime(s, o.over, o.permission)
	if err != nil {
		return err
	}
	defer rt.Close()
	sess, history, err := rt.openSession(o.resume.set, o.resume.id, o.fork, o.prompt)
	if err != nil {
		return err
	}
	defer sess.Close()

	var out event.Sink
	var collector *streamjson.Collector
	var sj *streamjson.Writer
	switch o.output {
	case "stream-json":
		sj = streamjson.NewWriter(s.out)
		sj.SessionID = sess.ID()
		out = sj
	case "json":
		collector = streamjson.NewCollector()
		collector.S.SessionID = sess.ID()
		out = collector
	default:
		if !o.quiet {
			out = newProgress(s.err)
		}
	}
	maxTurns := o.maxTurns
	if maxTurns == 0 {
		maxTurns = rt.maxTurns
	}
	sink := &event.Stamper{Next: newPricing(event.Multi{sessionLog{sess}, out}, string(rt.active.Kind), rt.active.Model)}
	a := rt.newAgent(sess, history, maxTurns, sink, true)
	var ask askFunc
	if o.input == "stream-json" {
		if o.output != "stream-json" {
			return usagef("-i stream-json needs -o stream-json (permission requests are written as events)")
		}
		ask = newStreamApprover(s.in, sink).ask
	}
	a.SetGate(rt.gate(ask, sink))
	rt.safety.hooks.setAudit(sink, sess.ID())
	if blocked, reason := rt.safety.hooks.fire(ctx, hooks.SessionStart, hooks.Payload{}); blocked {
		return usagef("a sessionStart hook refused to start: %s", reason)
	}
	res := a.Run(ctx, o.prompt)
	rt.safety.hooks.fire(context.Background(), hooks.SessionEnd, hooks.Payload{})
	if err := sess.Err(); err != nil {
		fmt.Fprintln(s.err, "zero: warning: the session log is incomplete:", err)
	}
	switch o.output {
	case "json":
		if err := collector.Write(s.out); err != nil {
			return err
		}
	case "text":
		if res.StopReason == event.StopCompleted {
			final := strings.TrimRight(res.Final, "\n")
			if s.outIsTTY {
				final = sanitize.Text(final) // raw bytes only when piped
			}
			fmt.Fprintln(s.out, final)
		}
	}
	return stopError(res, sess.ID())
}

// stopError maps a run's stop reason to the exit code.
func stopError(res agent.Result, sessionID string) error {
	switch res.StopReason {
	case event.StopCompleted:
		return nil
	case event.StopInterrupted:
		return &exitError{ExitInterrupted, fmt.Errorf("interrupted; resume with: zero exec --resume=%s \"continue\"", sessionID)}
	case event.StopProviderError:
		return &exitError{ExitProvider, res.Err}
	default:
		err := res.Err
		if err == nil {
			err = fmt.Errorf("run ended: %s", res.StopReason)
		}
		return &exitError{ExitIncomplete, fmt.Errorf("%v (session %s)", err, sessionID)}
	}
}

// signalContext returns a context cancelled by the first SIGINT, SIGTERM
// or SIGHUP (the run ends cleanly: run_end is written, the session stays
// resumable);
// a second one exits at once with 130.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		n := 0
		for range ch {
			n++
			if n == 1 {
				cancel()
				continue
			}
			os.Exit(ExitInterrupted)
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

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

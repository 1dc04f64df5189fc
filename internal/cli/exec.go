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
	"syscall"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/streamjson"
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
	fs.BoolVar(&o.quiet, "q", false, "text mode: no progress on stderr")
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
	ctx, stop := signalContext()
	defer stop()
	maxTurns := o.maxTurns
	if maxTurns == 0 {
		maxTurns = rt.maxTurns
	}
	sink := newPricing(event.Multi{sessionLog{sess}, out}, string(rt.active.Kind), rt.active.Model)
	a := rt.newAgent(sess, history, maxTurns, sink, true)
	if o.input == "stream-json" {
		if o.output != "stream-json" {
			return usagef("-i stream-json needs -o stream-json (permission requests are written as events)")
		}
		a.SetGate(rt.gate(newStreamApprover(s.in, sink).ask))
	}
	rt.safety.hooks.setAudit(sessionLog{sess}, sess.ID())
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
			fmt.Fprintln(s.out, strings.TrimRight(res.Final, "\n"))
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

// signalContext returns a context cancelled by the first SIGINT/SIGTERM;
// a second one exits at once with 130.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
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

// progress writes a human-readable run log (text mode's stderr).
type progress struct {
	w       io.Writer
	midText bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

// Emit prints tool cards, warnings and errors; assistant text between
// tool calls is shown dim so the final answer on stdout stands apart.
func (p *progress) Emit(e event.Event) {
	switch e.Type {
	case event.Text:
		p.midText = true
		fmt.Fprint(p.w, e.Text)
	case event.ToolCall:
		p.endText()
		fmt.Fprintf(p.w, "⚙ %s(%s)\n", e.ToolCall.Name, oneLine(e.ToolCall.Arguments, 160))
	case event.ToolResult:
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
		p.endText()
		fmt.Fprintln(p.w, "! "+e.Text)
	case event.Error:
		p.endText()
		fmt.Fprintln(p.w, "✗ "+e.Text)
	case event.RunEnd:
		p.endText()
		if e.Totals != nil {
			u := e.Totals.Usage
			est := ""
			if u.Estimated {
				est = "~"
			}
			fmt.Fprintf(p.w, "— %s · %d turns · %d tool calls · %s%d in / %s%d out tokens · %.1fs\n", e.StopReason, e.Totals.Turns, e.Totals.ToolCalls, est, u.InputTokens, est, u.OutputTokens, float64(e.Totals.ElapsedMs)/1000)
		}
	}
}

func (p *progress) endText() {
	if p.midText {
		fmt.Fprintln(p.w)
		p.midText = false
	}
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
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

var _ = llm.RoleUser

package loops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// WakeInput is what one wake runs: the prompt the harness built and
// where the agent works.
type WakeInput struct {
	N       int
	Prompt  string
	Workdir string
	// LoopDir is the loop's folder, which the agent must be able to write
	// (state.md, rules.md).
	LoopDir string
}

// WakeOutput is how one wake's run ended.
type WakeOutput struct {
	Session      string
	Outcome      string
	InputTokens  int
	OutputTokens int
	// Err is the run's error (a provider that failed): the loop pauses.
	Err error
}

// End is why Run returned.
type End struct {
	// Kind is KindPause, KindStop, or "" after --once's single wake.
	Kind   string
	Reason string
}

// Runner drives a loop: wake, run the gates, hold the wake to the
// contract and the budgets, record the tick, sleep, again.
type Runner struct {
	Loop *Loop
	// Wake runs the agent once (the caller's: a headless run).
	Wake func(ctx context.Context, in WakeInput) WakeOutput
	// Gate runs one gate command in workdir (nil: RunGate).
	Gate func(ctx context.Context, g Gate, workdir string) GateResult
	// Workdir overrides loop.toml's [run] workdir.
	Workdir string
	// Once stops after one wake.
	Once bool
	// Log gets one line per wake and decision (nil: discarded).
	Log io.Writer
}

// ErrNotArmed, ErrGatesChanged and ErrRunning refuse a run before any
// wake.
var (
	ErrNotArmed     = errors.New("the loop is not armed")
	ErrGatesChanged = errors.New("the gates in loop.toml changed since the loop was armed")
	ErrRunning      = errors.New("the loop is running already")
)

// Run wakes the loop until a stop condition, a pause, or ctx ends (a stop
// recorded as interrupted). An error is returned only for a loop that
// cannot run at all (unreadable files, not armed, gates edited).
func (r *Runner) Run(ctx context.Context) (End, error) {
	if r.Log == nil {
		r.Log = io.Discard
	}
	unlock, err := r.Loop.lock()
	if err != nil {
		return End{}, err
	}
	defer unlock()
	for {
		cfg, l, err := r.check()
		if err != nil {
			return End{}, err
		}
		if reason := Exhausted(cfg.Budget, l); reason != "" {
			return r.end(KindPause, reason)
		}
		if reason := PastDeadline(cfg.Schedule, time.Now()); reason != "" {
			return r.end(KindStop, reason)
		}
		end, done, err := r.wake(ctx, cfg, l.Wakes+1)
		if err != nil || done {
			return end, err
		}
		if r.Once {
			return End{}, nil
		}
		wait, stop := NextWake(cfg.Schedule, time.Now())
		if stop != "" {
			return r.end(KindStop, stop)
		}
		fmt.Fprintf(r.Log, "next wake at %s\n", time.Now().Add(wait).Format(time.RFC3339))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return r.end(KindStop, "interrupted")
		case <-t.C:
		}
	}
}

// check reads the loop and refuses one that is not armed or whose gates
// changed since.
func (r *Runner) check() (*Config, Ledger, error) {
	cfg, err := r.Loop.Config()
	if err != nil {
		return nil, Ledger{}, err
	}
	l, err := r.Loop.Ledger()
	if err != nil {
		return nil, Ledger{}, err
	}
	if l.ArmedHash == "" {
		return nil, l, fmt.Errorf("%w: review the gates in %s, then zero loop arm %s", ErrNotArmed, r.Loop.Path(ConfigFile), r.Loop.Name)
	}
	if cfg.GatesHash() != l.ArmedHash {
		return nil, l, fmt.Errorf("%w: armed gates cannot be edited without re-arming; review %s, then zero loop arm %s", ErrGatesChanged, r.Loop.Path(ConfigFile), r.Loop.Name)
	}
	return cfg, l, nil
}

// wake runs wake n and decides: done is true when the loop paused or
// stopped.
func (r *Runner) wake(ctx context.Context, cfg *Config, n int) (End, bool, error) {
	workdir := r.Workdir
	if workdir == "" {
		workdir = cfg.Run.Workdir
	}
	before, err := r.Loop.read(StateFile)
	if err != nil {
		return End{}, true, err
	}
	prompt, err := r.Loop.Prompt(cfg, n, time.Now())
	if err != nil {
		return End{}, true, err
	}
	fmt.Fprintf(r.Log, "wake %d of %s\n", n, r.Loop.Name)
	start := time.Now()
	out := r.Wake(ctx, WakeInput{N: n, Prompt: prompt, Workdir: workdir, LoopDir: r.Loop.Dir})
	tick := Tick{Kind: KindWake, Time: start, Wake: n, Session: out.Session, Outcome: out.Outcome,
		InputTokens: out.InputTokens, OutputTokens: out.OutputTokens}
	if out.Err != nil {
		tick.Error = out.Err.Error()
	}
	if ctx.Err() == nil {
		tick.Gates = r.runGates(ctx, cfg.Gates, workdir)
	}
	after, err := r.Loop.read(StateFile)
	if err != nil {
		return End{}, true, err
	}
	tick.Contract = CheckContract(cfg.Contract, n, before, after)
	if tick.Contract == "" {
		if now, err := r.Loop.Config(); err != nil || now.GatesHash() != cfg.GatesHash() {
			tick.Contract = fmt.Sprintf("wake %d changed the armed gates in loop.toml", n)
		}
	}
	tick.ElapsedMs = time.Since(start).Milliseconds()
	if err := r.Loop.Record(tick); err != nil {
		return End{}, true, err
	}
	r.logWake(tick)
	end, done := r.decide(ctx, cfg, tick)
	if done {
		end, err = r.end(end.Kind, end.Reason)
	}
	return end, done, err
}

// decide is what follows a recorded wake.
func (r *Runner) decide(ctx context.Context, cfg *Config, t Tick) (End, bool) {
	switch {
	case ctx.Err() != nil:
		return End{KindStop, "interrupted"}, true
	case t.Error != "":
		return End{KindPause, fmt.Sprintf("wake %d failed: %s", t.Wake, t.Error)}, true
	case t.Contract != "":
		return End{KindPause, "contract broken: " + t.Contract}, true
	case cfg.Stop.WhenGatesPass && AllPass(t.Gates):
		return End{KindStop, fmt.Sprintf("goal met: every gate passed after wake %d", t.Wake)}, true
	}
	l, err := r.Loop.Ledger()
	if err != nil {
		return End{KindPause, err.Error()}, true
	}
	if reason := Exhausted(cfg.Budget, l); reason != "" {
		return End{KindPause, reason}, true
	}
	return End{}, false
}

// end records a pause or stop and returns it.
func (r *Runner) end(kind, reason string) (End, error) {
	fmt.Fprintf(r.Log, "%s: %s\n", map[string]string{KindPause: "paused", KindStop: "stopped"}[kind], reason)
	return End{kind, reason}, r.Loop.Record(Tick{Kind: kind, Time: time.Now(), Reason: reason})
}

func (r *Runner) logWake(t Tick) {
	fmt.Fprintf(r.Log, "wake %d: %s, %d tokens, %.1fs\n", t.Wake, orNone(t.Outcome), t.InputTokens+t.OutputTokens, float64(t.ElapsedMs)/1000)
	if len(t.Gates) > 0 {
		fmt.Fprint(r.Log, Summary(t.Gates))
	}
}

func (r *Runner) runGates(ctx context.Context, gates []Gate, workdir string) []GateResult {
	run := r.Gate
	if run == nil {
		run = RunGate
	}
	out := make([]GateResult, len(gates))
	for i, g := range gates {
		out[i] = run(ctx, g, workdir)
	}
	return out
}

// RunGate runs g's command with sh -c in workdir, within its timeout, and
// judges what it printed.
func RunGate(ctx context.Context, g Gate, workdir string) GateResult {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(g.Timeout))
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", g.Run)
	cmd.Dir = workdir
	setGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return GateResult{Name: g.Name, Bar: g.Pass, Error: fmt.Sprintf("timed out after %s", time.Duration(g.Timeout)), ElapsedMs: elapsed.Milliseconds()}
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return GateResult{Name: g.Name, Bar: g.Pass, Error: err.Error(), ElapsedMs: elapsed.Milliseconds()}
	}
	return g.Judge(stdout.String(), code, elapsed)
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/headless"
	"github.com/zero-agent/zero/internal/loops"
	"github.com/zero-agent/zero/internal/run"
)

// loopCmd is `zero loop new|list|tail|arm|run`: long-running agents that
// wake on a schedule (internal/loops; docs/loops.md).
func loopCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "loop",
		Short: "Loops: long-running agents that wake on a schedule (new, list, tail, arm, run)",
		Long: `A loop wakes on a schedule, reads its spec, runs one iteration as a headless
run, banks a state row and sleeps, for hours or days. The harness owns the
schedule, the gates (commands whose measured result must meet a bar), the
contract (each wake appends a state row ending with NEXT ACTION:) and the
budgets; a broken contract or a used budget pauses the loop and says so.
Loops live in $ZERO_LOOPS_DIR, else the data directory's zero/loops
(docs/loops.md). Alpha: the on-disk format may still change.`,
		GroupID: groupRun,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runLoopList(s) }),
	}
	var workdir string
	newC := &cobra.Command{
		Use:   "new NAME [TEMPLATE]",
		Short: "Make a loop from a template: " + loops.TemplateNames(),
		Args: func(_ *cobra.Command, a []string) error {
			if len(a) < 1 || len(a) > 2 {
				return usagef("usage: zero loop new NAME [TEMPLATE] (templates: %s)", loops.TemplateNames())
			}
			return nil
		},
		RunE: ran(func(_ *cobra.Command, a []string) error {
			return runLoopNew(s, a[0], append(a, "")[1], workdir)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	newC.Flags().StringVarP(&workdir, "cd", "C", "", "the workspace `DIR` its wakes work in (default: the current directory)")
	c.AddCommand(
		newC,
		&cobra.Command{Use: "list", Short: "List the loops: status, wakes, tokens, NEXT ACTION", Args: cobra.NoArgs,
			RunE: ran(func(*cobra.Command, []string) error { return runLoopList(s) }), ValidArgsFunction: cobra.NoFileCompletions},
		&cobra.Command{Use: "tail NAME [N]", Short: "Print a loop's last N state rows (default 5)", Args: loopTailArgs,
			RunE: ran(func(_ *cobra.Command, a []string) error { return runLoopTail(s, a) }), ValidArgsFunction: completeLoops},
		&cobra.Command{Use: "arm NAME", Short: "Lock a loop's gate definitions (a later edit needs a re-arm)", Args: exactArgs(1, "zero loop arm NAME"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return runLoopArm(s, a[0]) }), ValidArgsFunction: completeLoops},
		loopRunCmd(s),
	)
	return c
}

func loopTailArgs(_ *cobra.Command, a []string) error {
	if len(a) < 1 || len(a) > 2 {
		return usagef("usage: zero loop tail NAME [N]")
	}
	if len(a) == 2 {
		if n, err := strconv.Atoi(a[1]); err != nil || n < 1 {
			return usagef("zero loop tail: N must be a positive number, not %q", a[1])
		}
	}
	return nil
}

func completeLoops(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []cobra.Completion
	if root, err := loops.Root(); err == nil {
		ls, _ := loops.List(root)
		for _, l := range ls {
			names = append(names, l.Name)
		}
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// openLoop opens the loop called name in the loops folder.
func openLoop(name string) (*loops.Loop, error) {
	root, err := loops.Root()
	if err != nil {
		return nil, err
	}
	return loops.Open(root, name)
}

func runLoopNew(s stdio, name, template, workdir string) error {
	root, err := loops.Root()
	if err != nil {
		return err
	}
	if workdir == "" {
		workdir = "."
	}
	if workdir, err = filepath.Abs(workdir); err != nil {
		return err
	}
	if err := isFolder(workdir); err != nil {
		return usagef("-C %s: %v (wakes work in an existing folder)", workdir, err)
	}
	l, err := loops.Create(root, name, template, workdir)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(s.out, "made loop %s in %s (wakes work in %s)\n", l.Name, l.Dir, workdir)
	fmt.Fprintf(s.out, "edit %s and %s, then: zero loop arm %s && zero loop run %s --auto-approve\n",
		l.Path(loops.SpecFile), l.Path(loops.ConfigFile), name, name)
	return nil
}

func runLoopList(s stdio) error {
	root, err := loops.Root()
	if err != nil {
		return err
	}
	text, err := loops.Report(root)
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, text)
	return nil
}

func runLoopTail(s stdio, a []string) error {
	l, err := openLoop(a[0])
	if err != nil {
		return err
	}
	n := 5
	if len(a) == 2 {
		n, _ = strconv.Atoi(a[1])
	}
	st, err := l.State()
	if err != nil {
		return err
	}
	rows := st.Last(n)
	if len(rows) == 0 {
		fmt.Fprintf(s.out, "loop %s has no state rows yet (%s)\n", l.Name, l.Path(loops.StateFile))
		return nil
	}
	for _, r := range rows {
		fmt.Fprint(s.out, strings.TrimRight(r.Text, "\n")+"\n\n")
	}
	return nil
}

func runLoopArm(s stdio, name string) error {
	l, err := openLoop(name)
	if err != nil {
		return err
	}
	cfg, err := l.Arm(time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "armed %s: %d gate(s) locked\n", l.Name, len(cfg.Gates))
	for _, g := range cfg.Gates {
		fmt.Fprintf(s.out, "  %s: %s → %s %s\n", g.Name, g.Run, g.Parse, g.Pass)
	}
	if err := workdirError(l.Name, cfg.Run.Workdir); err != nil {
		fmt.Fprintln(s.err, "zero: warning:", err) // -C at run time may still give one
	}
	return nil
}

// isFolder is nil when dir is an existing folder.
func isFolder(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such folder")
	case err != nil:
		return err
	case !st.IsDir():
		return errors.New("not a folder")
	}
	return nil
}

// workdirError says why a loop's wakes cannot work in dir (unset, or not
// an existing folder), else nil.
func workdirError(name, dir string) error {
	if dir == "" {
		return fmt.Errorf("loop %s has no [run] workdir in loop.toml: set it, or pass -C DIR to zero loop run", name)
	}
	if err := isFolder(dir); err != nil {
		return fmt.Errorf("loop %s's workdir %s: %v (set [run] workdir in loop.toml, or pass -C DIR to zero loop run)", name, dir, err)
	}
	return nil
}

// loopRunCmd is `zero loop run NAME`: wake → run → decide until a stop.
func loopRunCmd(s stdio) *cobra.Command {
	var over overrides
	var once, quiet bool
	c := &cobra.Command{
		Use:   "run NAME",
		Short: "Drive a loop: wake, run, judge, sleep, until a deadline, budget, goal or pause",
		Long: `Runs the loop's wakes on its schedule, each one a headless run (as zero exec)
whose prompt is spec.md, rules.md and state.md, in the loop's workdir with the
loop's folder writable. After each wake the harness runs the gates, checks
the state row and records a tick in ticks.jsonl. It blocks: run it under
tmux, systemd or launchd. A paused loop exits 4 and says why; a loop that
stopped (deadline, goal met) exits 0.`,
		Args:              exactArgs(1, "zero loop run NAME"),
		ValidArgsFunction: completeLoops,
		RunE: ran(func(_ *cobra.Command, a []string) error {
			return runLoop(s, a[0], &over, once, quiet)
		}),
	}
	over.register(c)
	c.Flags().BoolVar(&once, "once", false, "run one wake, then exit")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no per-tool progress on stderr (the wake lines stay)")
	return c
}

func runLoop(s stdio, name string, over *overrides, once, quiet bool) error {
	ctx, stop := signalContext()
	defer stop()
	l, err := openLoop(name)
	if err != nil {
		return err
	}
	if err := wakeable(l, s, over); err != nil {
		return err
	}
	r := &loops.Runner{Loop: l, Once: once, Log: s.err, Workdir: over.workdir,
		Wake: func(ctx context.Context, in loops.WakeInput) loops.WakeOutput {
			return wakeOnce(ctx, s, over, quiet, in)
		}}
	end, err := r.Run(ctx)
	if err != nil {
		return err
	}
	switch {
	case end.Kind == loops.KindPause:
		return &exitError{ExitIncomplete, fmt.Errorf("loop %s paused: %s (zero loop tail %s shows its last rows)", name, end.Reason, name)}
	case end.Kind == loops.KindStop && end.Reason == "interrupted":
		return &exitError{ExitInterrupted, fmt.Errorf("loop %s interrupted", name)}
	}
	return nil
}

// wakeable opens the run layer as a wake would, once, before the first
// wake: a loop with no model (or a broken config) is refused at once,
// without spending a wake of its budget, running its gates or pausing it.
func wakeable(l *loops.Loop, s stdio, over *overrides) error {
	cfg, err := l.Config()
	if err != nil {
		return nil // Run reports it
	}
	workdir := over.workdir
	if workdir == "" {
		workdir = cfg.Run.Workdir
	}
	if err := workdirError(l.Name, workdir); err != nil {
		return usagef("%v; no wake was used", err)
	}
	rt, err := run.Open(run.Options{Workdir: workdir, AddDirs: over.addDirs, Overrides: over.config(),
		AutoApprove: over.autoApprove, NoSandbox: over.noSandbox, Stderr: io.Discard})
	if err != nil {
		return fmt.Errorf("loop %s cannot wake (no wake was used): %w", l.Name, err)
	}
	rt.Close()
	return nil
}

// wakeOnce is one wake: a fresh headless session in the loop's workdir,
// the loop's folder an extra root the tools may write.
func wakeOnce(ctx context.Context, s stdio, over *overrides, quiet bool, in loops.WakeInput) loops.WakeOutput {
	if _, err := os.Stat(in.Workdir); err != nil {
		return loops.WakeOutput{Err: fmt.Errorf("workdir: %w (set [run] workdir in loop.toml, or -C DIR)", err)}
	}
	rt, err := run.Open(run.Options{
		Workdir: in.Workdir, AddDirs: append(append([]string{}, over.addDirs...), in.LoopDir), Overrides: over.config(),
		AutoApprove: over.autoApprove, NoSandbox: over.noSandbox, Stderr: s.err,
	})
	if err != nil {
		return loops.WakeOutput{Err: err}
	}
	defer rt.Close()
	sess, err := rt.OpenSession(run.Which{})
	if err != nil {
		return loops.WakeOutput{Err: err}
	}
	defer sess.Close()
	res, err := headless.Run(ctx, sess, in.Prompt, headless.Options{
		Output: headless.Text, Quiet: quiet, Stdout: io.Discard, Stderr: s.err,
	})
	out := loops.WakeOutput{Session: sess.ID(), Outcome: string(res.Subtype),
		InputTokens: res.Totals.Usage.InputTokens, OutputTokens: res.Totals.Usage.OutputTokens}
	switch {
	case err != nil:
		out.Err = err
	case res.Subtype == headless.ProviderError && res.Err != nil:
		out.Err = res.Err
	case res.Subtype == headless.ProviderError:
		out.Err = errors.New("the provider failed")
	}
	return out
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/headless"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/run"
)

// execute is `zero exec` once its flags are parsed: one prompt through
// the run layer (internal/run) with the headless surface.
func execute(s stdio, o *execOptions) error {
	// Signals are caught from the start: one that arrives while Zero is
	// still setting up still ends the run cleanly (run_end, exit 130).
	ctx, stop := signalContext()
	defer stop()
	if o.input == headless.StreamJSON && o.output != headless.StreamJSON {
		return usagef("-i stream-json needs -o stream-json (permission requests are written as events)")
	}
	if o.permissionTimeout < 0 {
		return usagef("--permission-timeout must not be negative (0 waits for every decision)")
	}
	if o.results.ephemeral {
		done, err := ephemeralStore()
		if err != nil {
			return err
		}
		defer done()
	}
	rt, err := run.Open(run.Options{
		Workdir: o.over.workdir, AddDirs: o.over.addDirs, Overrides: o.over.config(),
		Mode: o.permission, AutoApprove: o.over.autoApprove, NoSandbox: o.over.noSandbox, MaxTurns: o.maxTurns,
		CompletionCheck: true, Questions: o.input == headless.StreamJSON, Stderr: s.err, Tools: o.tools.flags(),
	})
	if err != nil {
		return err
	}
	defer rt.Close()
	sess, err := rt.OpenSession(run.Which{Latest: o.resume.set && o.resume.id == "", ID: o.resume.id, Fork: o.fork, At: o.at, RestoreFiles: o.restoreFiles})
	if err != nil {
		return err
	}
	defer sess.Close()
	if o.results.maxBudget > 0 && !sess.Priced() {
		return usagef("--max-budget-usd: the model catalog has no prices for this model, so its cost cannot be estimated")
	}
	prompt, err := sess.WithInput(o.prompt, o.piped)
	if err != nil {
		return err
	}
	var imgs []llm.Image
	for _, p := range o.images {
		img, err := sess.LoadImage(p)
		if err != nil {
			return usagef("--image: %v", err)
		}
		imgs = append(imgs, img)
	}
	if err := sess.PrepareMCP(ctx); err != nil {
		return &exitError{ExitMCP, err}
	}
	if prompt, err = sess.ExpandPrompt(ctx, prompt); err != nil {
		return usagef("%v", err)
	}
	timeout := o.permissionTimeout
	if t := rt.Config.PermissionTimeout; t != nil && !o.permissionTimeoutSet {
		timeout = *t
	}
	res, err := headless.Run(ctx, sess, prompt, headless.Options{
		Output: o.output, Input: o.input, Quiet: o.quiet,
		Stdin: s.in, Stdout: s.out, Stderr: s.err, StdoutIsTTY: s.outIsTTY,
		PermissionTimeout: timeout, Images: imgs,
		MaxBudgetUSD: o.results.maxBudget, Schema: o.results.schema,
		LastMessageFile: o.results.lastMessage, Ephemeral: o.results.ephemeral,
	})
	if err != nil {
		return err
	}
	// Text mode's progress has shown the error (its "✗" line): the exit
	// message then only says how to resume, not the error again.
	shown := o.output == headless.Text && !o.quiet
	if res.Subtype == headless.Success && shown && !o.results.ephemeral {
		fmt.Fprintf(s.err, "resume with: zero exec --resume=%s \"…\"\n", sess.ID())
	}
	id := sess.ID()
	if o.results.ephemeral {
		id = "" // nothing to resume
	}
	return stopError(res, id, shown)
}

// stopError is the exit of a run that ended as res says: the code is its
// subtype's (headless.Subtype.ExitCode, the one table). shown: the error
// is already on the screen (text mode's progress), so it is not repeated.
// sessionID is "" for a session not kept (--ephemeral): no resume hint.
func stopError(res headless.Outcome, sessionID string, shown bool) error {
	var cmdErr *commands.Error
	if errors.As(res.Err, &cmdErr) {
		// a custom command that failed to expand: nothing was sent, and
		// the session (empty) is not kept, so there is nothing to resume
		if shown {
			return &exitError{ExitIncomplete, errors.New("the command stopped before anything was sent to the model")}
		}
		return &exitError{ExitIncomplete, fmt.Errorf("%v; nothing was sent to the model", cmdErr)}
	}
	code := res.Subtype.ExitCode()
	resume := fmt.Errorf("resume with: zero exec --resume=%s \"continue\"", sessionID)
	if sessionID == "" {
		resume = errors.New("the session was not kept (--ephemeral)")
	}
	switch res.Subtype {
	case headless.Success:
		return nil
	case headless.Interrupted:
		return &exitError{code, fmt.Errorf("interrupted; %v", resume)}
	case headless.ProviderError:
		if shown {
			return &exitError{code, resume}
		}
		return &exitError{code, fmt.Errorf("%v; %v", res.Err, resume)}
	}
	err := res.Err
	if err == nil {
		err = fmt.Errorf("run ended: %s", res.StopReason)
	}
	if shown {
		return &exitError{code, fmt.Errorf("run ended (%s: %v); %v", res.Subtype, err, resume)}
	}
	if sessionID == "" {
		return &exitError{code, err}
	}
	return &exitError{code, fmt.Errorf("%v (session %s)", err, sessionID)}
}

// signalContext returns a context cancelled by the first SIGINT, SIGTERM
// or SIGHUP (the run ends cleanly: run_end is written, the session stays
// resumable); a second one exits at once with 130.
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

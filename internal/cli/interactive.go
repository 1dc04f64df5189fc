package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/tui"
)

// appOptions are the parsed flags of the interactive app.
type appOptions struct {
	over   overrides
	resume resumeFlag
	mode   string
	tools  toolRules
	// prompt is sent as the first prompt (`zero "task"`).
	prompt string
}

// startApp is the interactive app once its flags are parsed: the run
// layer's runtime and session, and the app over them. On exit it says
// how to resume a session that holds a conversation.
func startApp(s stdio, o *appOptions) error {
	if !s.inIsTTY || !s.outIsTTY {
		return usagef("the interactive app needs a terminal (stdin and stdout); for a headless run: zero exec \"task\" (or pipe: echo \"task\" | zero exec -)")
	}
	if err := o.tools.check(); err != nil {
		return err
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ro := run.Options{
		Workdir: o.over.workdir, AddDirs: o.over.addDirs, Overrides: o.over.config(),
		Mode: o.mode, AutoApprove: o.over.autoApprove, NoSandbox: o.over.noSandbox, Questions: true, Stderr: s.err, Tools: o.tools.flags(),
	}
	rt, err := run.Open(ro)
	var unconfigured *run.UnconfiguredError
	if errors.As(err, &unconfigured) {
		// The first start: the setup saves a profile, or quits with the
		// same message.
		saved, serr := tui.Setup(ctx)
		if serr != nil || saved == "" {
			return errors.Join(err, serr)
		}
		fmt.Fprintln(s.err, "zero:", saved)
		rt, err = run.Open(ro)
	}
	if err != nil {
		return err
	}
	defer rt.Close()
	which, err := resumeWhich(ctx, rt, o.resume)
	if err != nil {
		return err
	}
	if which == nil {
		fmt.Fprintln(s.err, "zero: no session resumed (zero sessions lists them)")
		return nil
	}
	sess, err := rt.OpenSession(*which)
	if err != nil {
		return err
	}
	last, err := tui.RunApp(ctx, rt, sess, tui.AppOptions{Version: Version, Resumed: o.resume.set, Prompt: o.prompt})
	if last != "" {
		fmt.Fprintf(s.err, "resume this session with: zero --resume=%s\n", last)
	}
	return err
}

// resumeWhich is the session the app opens: a new one, --resume=ID, or
// for a bare --resume the one picked from this project's sessions
// (tui.PickSession; a single session is resumed without asking, none is
// the run layer's error). nil: the user cancelled the picker.
func resumeWhich(ctx context.Context, rt *run.Runtime, r resumeFlag) (*run.Which, error) {
	if !r.set || r.id != "" {
		return &run.Which{ID: r.id}, nil
	}
	list, err := tui.ProjectSessions(rt)
	if err != nil || len(list) < 2 {
		return &run.Which{Latest: true}, err
	}
	id, err := tui.PickSession(ctx, list)
	if err != nil || id == "" {
		return nil, err
	}
	return &run.Which{ID: id}, nil
}

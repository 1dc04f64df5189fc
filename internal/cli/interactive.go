package cli

import (
	"context"
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
	rt, err := run.Open(run.Options{
		Workdir: o.over.workdir, AddDirs: o.over.addDirs, Overrides: o.over.config(),
		Mode: o.mode, AutoApprove: o.over.autoApprove, NoSandbox: o.over.noSandbox, Questions: true, Stderr: s.err, Tools: o.tools.flags(),
	})
	if err != nil {
		return err
	}
	defer rt.Close()
	sess, err := rt.OpenSession(run.Which{Latest: o.resume.set && o.resume.id == "", ID: o.resume.id})
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	last, err := tui.RunApp(ctx, rt, sess, tui.AppOptions{Version: Version, Resumed: o.resume.set, Prompt: o.prompt})
	if last != "" {
		fmt.Fprintf(s.err, "resume this session with: zero --resume=%s\n", last)
	}
	return err
}

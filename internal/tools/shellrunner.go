package tools

import (
	"context"
	"errors"
	"strings"
	"time"
)

// A surface may run bash's commands somewhere other than a child process
// of Zero: an editor's terminal (internal/acp, when the user opted in).
// The permission gate has decided the call before Run, as for any bash
// call; what the command may touch is then the runner's, not the OS
// sandbox's (Options.CommandWrapper does not apply).

// ShellRunner runs one bash command line in dir and returns its output
// and exit status once it ends. It must end the command when ctx ends
// (a cancel or bash's timeout) and then return ctx's error.
type ShellRunner interface {
	RunShell(ctx context.Context, command, dir string) (ShellOutput, error)
}

// ShellOutput is what a ShellRunner's command printed and how it ended.
type ShellOutput struct {
	Output string
	// Truncated: the runner kept only the end of the output.
	Truncated bool
	// ExitCode is the shell-style status (128+signal when killed).
	ExitCode int
}

type shellRunnerKey struct{}

// WithShellRunner returns ctx under which bash runs its commands with r.
func WithShellRunner(ctx context.Context, r ShellRunner) context.Context {
	return context.WithValue(ctx, shellRunnerKey{}, r)
}

func shellRunner(ctx context.Context) ShellRunner {
	r, _ := ctx.Value(shellRunnerKey{}).(ShellRunner)
	return r
}

type callIDKey struct{}

// WithCallID returns ctx naming the tool call a tool runs for (the agent
// loop sets it), so a ShellRunner can attach what it shows to the call and
// a tool that reports events of its own (the task tool) can name its call.
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

type networkKey struct{}

// WithNetwork returns ctx marking the call as granted the network
// (sandbox.network "ask", internal/permission's gate): the sandbox runs
// its command with the network.
func WithNetwork(ctx context.Context) context.Context {
	return context.WithValue(ctx, networkKey{}, true)
}

// Network reports whether WithNetwork marked ctx.
func Network(ctx context.Context) bool {
	on, _ := ctx.Value(networkKey{}).(bool)
	return on
}

// CallID is the call id WithCallID set on ctx, or "".
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}

// runWith is Run with the command run by r: the same timeout, caps and
// result shape as a local run.
func (t *Bash) runWith(ctx context.Context, r ShellRunner, command string, timeout time.Duration, note string) (Result, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := r.RunShell(rctx, command, t.ws.Root())
	timedOut := ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded)
	if err != nil && ctx.Err() == nil && !timedOut {
		return errorResult("could not run the command: %v", err), nil
	}
	kept := &headTail{half: t.opts.BashOutputCap / 2}
	_, _ = kept.Write([]byte(out.Output))
	code := out.ExitCode
	res := Result{ExitCode: &code}
	if raw, cut := kept.dropped(); cut {
		res.RawBytes = int(raw)
	}
	var sb strings.Builder
	sb.WriteString(note)
	if out.Truncated {
		sb.WriteString("[only the end of the output was kept]\n")
	}
	kept.writeTo(&sb, "", 0)
	return t.finish(ctx, res, &sb, "the command was killed", timedOut, timeout, code)
}

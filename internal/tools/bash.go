package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/workspace"
)

// pipeDrainWait bounds how long bash waits for the output pipe to close
// after the process group is gone (a daemon that escaped the group may
// hold it open forever).
const pipeDrainWait = 2 * time.Second

// Bash is the bash tool: run a command with `bash -c` in the workspace root.
// Path confinement does not apply inside the shell (B22, nanobot#4072):
// only Options.CommandWrapper (an OS sandbox) and the permission gate can
// limit what a command touches.
type Bash struct {
	ws   *workspace.Workspace
	opts Options
}

// Name implements Tool.
func (*Bash) Name() string { return "bash" }

// Description implements Tool.
func (t *Bash) Description() string {
	return fmt.Sprintf("Run a bash command in the workspace root and return its combined stdout/stderr and exit code (timeout_ms default %d).", t.opts.BashTimeout.Milliseconds())
}

// Schema implements Tool.
func (*Bash) Schema() json.RawMessage {
	return schema(`"command":{"type":"string"},"timeout_ms":{"type":"integer"}`, "command")
}

// SideEffect implements Tool.
func (*Bash) SideEffect() SideEffect { return SideShell }

// Run implements Tool. The command runs in its own process group with stdin
// from /dev/null and stdout and stderr interleaved into one pipe. On timeout
// or ctx cancellation the whole group gets SIGKILL; after a normal exit
// leftover background processes of the group are killed too. At most
// Options.BashOutputCap bytes are kept in memory (head and tail halves)
// and the raw size is reported; under WithFullOutput the whole output,
// up to Options.BashFullOutputLimit, is streamed to the named file once
// it passes that cap (Result.FullOutput). A non-zero exit or a timeout is a Result with IsError;
// ExitCode is the shell's status (128+signal when killed). On ctx
// cancellation the partial Result is returned with ctx.Err(). Under
// WithOutputStream the output is also copied there as it arrives. Under
// WithShellRunner the runner runs the command instead (shellrunner.go).
func (t *Bash) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		Command   string  `json:"command"`
		TimeoutMs flexInt `json:"timeout_ms"`
	}
	if r, ok := decodeArgs(args, &a, `{"command": string, "timeout_ms"?: int}`); !ok {
		return r, nil
	}
	if strings.TrimSpace(a.Command) == "" {
		return errorResult("command is required"), nil
	}
	timeout, note := t.opts.BashTimeout, ""
	if a.TimeoutMs > 0 {
		timeout = time.Duration(a.TimeoutMs) * time.Millisecond
		if timeout > t.opts.BashMaxTimeout {
			timeout = t.opts.BashMaxTimeout
			note = fmt.Sprintf("[timeout_ms capped at %d]\n", t.opts.BashMaxTimeout.Milliseconds())
		}
	}
	if r := shellRunner(ctx); r != nil {
		return t.runWith(ctx, r, a.Command, timeout, note)
	}
	cmd := exec.Command("bash", "-c", a.Command)
	cmd.Dir = t.ws.Root()
	cmd.Env = t.opts.BashEnv
	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	defer pr.Close()
	cmd.Stdout, cmd.Stderr = pw, pw
	setProcessGroup(cmd)
	if t.opts.CommandWrapper != nil {
		if err := t.opts.CommandWrapper(ctx, cmd); err != nil {
			pw.Close()
			return errorResult("command refused: %v", err), nil
		}
	}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return errorResult("could not start the command: %v", err), nil
	}
	pw.Close()
	out := &headTail{half: t.opts.BashOutputCap / 2, path: fullOutputPath(ctx), limit: int64(t.opts.BashFullOutputLimit)}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(streamTo(ctx, out), pr)
		close(copied)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	timedOut := false
	select {
	case <-waited:
	case <-timer.C:
		timedOut = true
		killProcessGroup(cmd)
		<-waited
	case <-ctx.Done():
		killProcessGroup(cmd)
		<-waited
	}
	killProcessGroup(cmd) // background jobs left in the group
	select {
	case <-copied:
	case <-time.After(pipeDrainWait):
		pr.Close()
		<-copied
	}
	code := exitCode(cmd.ProcessState)
	res := Result{ExitCode: &code}
	if raw, cut := out.dropped(); cut {
		res.RawBytes = int(raw)
	}
	file, held, ferr := out.closeFile()
	res.FullOutput, res.FullOutputBytes = file, int(held)
	var sb strings.Builder
	sb.WriteString(note)
	out.writeTo(&sb, file, held)
	if ferr != nil {
		fmt.Fprintf(&sb, "[could not keep the full output: %v]\n", ferr)
	}
	return t.finish(ctx, res, &sb, "process group killed", timedOut, timeout, code)
}

// finish ends a command's result with how it ended (interrupted, timed
// out with what was killed, or its exit code) and sets IsError to match;
// an interrupted command also returns ctx's error.
func (t *Bash) finish(ctx context.Context, res Result, sb *strings.Builder, killed string, timedOut bool, timeout time.Duration, code int) (Result, error) {
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(sb, "[interrupted; %s]\n", killed)
		res.Content, res.IsError = sb.String(), true
		return res, ctx.Err()
	case timedOut:
		fmt.Fprintf(sb, "[timed out after %v; %s; pass a larger timeout_ms (max %d) or run it in the background]\n", timeout, killed, t.opts.BashMaxTimeout.Milliseconds())
		res.IsError = true
	default:
		fmt.Fprintf(sb, "[exit code %d]\n", code)
		res.IsError = code != 0
	}
	res.Content = sb.String()
	return res, nil
}

// exitCode is the shell-style status: the exit code, or 128+signal.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if c := ps.ExitCode(); c >= 0 {
		return c
	}
	if sig, ok := signalOf(ps); ok {
		return 128 + sig
	}
	return -1
}

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/workspace"
)

// Names of the interactive-process tools (Codex's).
const (
	ExecCommandName = "exec_command"
	WriteStdinName  = "write_stdin"
)

// Yield times and the output cap of the interactive-process tools.
const (
	execYieldDefault  = time.Second
	stdinYieldDefault = time.Second
	execYieldMax      = 30 * time.Second
	execOutputTokens  = 4000 // default max_output_tokens
	execBytesPerToken = 4
)

// ExecTools returns exec_command and write_stdin bound to ws and procs,
// run like bash (Options.BashEnv, Options.CommandWrapper: the sandbox).
func ExecTools(ws *workspace.Workspace, opts Options, procs *Procs) []Tool {
	o := opts.withDefaults()
	return []Tool{&ExecCommand{ws: ws, opts: o, procs: procs}, &WriteStdin{procs: procs}}
}

// ExecCommand starts a command on a pty and returns its output after a
// yield time; a command still running then keeps running, and its
// session id lets write_stdin talk to it.
type ExecCommand struct {
	ws    *workspace.Workspace
	opts  Options
	procs *Procs
}

// Name implements Tool.
func (*ExecCommand) Name() string { return ExecCommandName }

// Description implements Tool.
func (*ExecCommand) Description() string {
	return "Run cmd on a terminal; returns its output after yield_time_ms (default 1000) and, if it still runs (a server, a prompt), a session_id for write_stdin."
}

// Schema implements Tool: max_output_tokens (default 4000) is accepted
// but not advertised, to keep the schema small.
func (*ExecCommand) Schema() json.RawMessage {
	return schema(`"cmd":{"type":"string"},"workdir":{"type":"string"},"yield_time_ms":{"type":"integer"}`, "cmd")
}

// SideEffect implements Tool.
func (*ExecCommand) SideEffect() SideEffect { return SideShell }

// Run implements Tool: `bash -c cmd` in workdir (the workspace root by
// default) on a new pty, in its own session and process group.
func (t *ExecCommand) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		Cmd       string  `json:"cmd"`
		Command   string  `json:"command"`
		Workdir   string  `json:"workdir"`
		YieldMs   flexInt `json:"yield_time_ms"`
		MaxTokens flexInt `json:"max_output_tokens"`
	}
	if r, ok := decodeArgs(args, &a, `{"cmd": string, "workdir"?: string, "yield_time_ms"?: int, "max_output_tokens"?: int}`); !ok {
		return r, nil
	}
	if a.Cmd == "" {
		a.Cmd = a.Command
	}
	if strings.TrimSpace(a.Cmd) == "" {
		return errorResult("cmd is required"), nil
	}
	dir := t.ws.Root()
	if strings.TrimSpace(a.Workdir) != "" {
		abs, res, ok := resolve(t.ws, a.Workdir, true)
		if !ok {
			return res, nil
		}
		dir = abs
	}
	cmd := exec.Command("bash", "-c", a.Cmd)
	cmd.Dir = dir
	env := t.opts.BashEnv
	if env == nil {
		env = os.Environ() // inherited, as bash does
	}
	cmd.Env = append(append([]string(nil), env...), "TERM=dumb", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat")
	if t.opts.CommandWrapper != nil {
		if err := t.opts.CommandWrapper(ctx, cmd); err != nil {
			return errorResult("command refused: %v", err), nil
		}
	}
	p, err := t.procs.Start(cmd, a.Cmd)
	if err != nil {
		return errorResult("could not start the command: %v", err), nil
	}
	return t.procs.report(ctx, p, yieldOf(a.YieldMs, execYieldDefault), int(a.MaxTokens), "")
}

// WriteStdin sends text to a process exec_command started and returns
// what it wrote since.
type WriteStdin struct{ procs *Procs }

// Name implements Tool.
func (*WriteStdin) Name() string { return WriteStdinName }

// Description implements Tool.
func (*WriteStdin) Description() string {
	return "Send chars to an exec_command session (\"\" polls, \"\\u0003\" is Ctrl-C); returns its new output, and its exit code once it ended."
}

// Schema implements Tool (max_output_tokens accepted, as exec_command's).
func (*WriteStdin) Schema() json.RawMessage {
	return schema(`"session_id":{"type":"integer"},"chars":{"type":"string"},"yield_time_ms":{"type":"integer"}`, "session_id")
}

// SideEffect implements Tool: shell, so plan mode refuses it and the
// guard reads what is typed (permission.decideStdin).
func (*WriteStdin) SideEffect() SideEffect { return SideShell }

// Run implements Tool.
func (t *WriteStdin) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		ID        flexInt `json:"session_id"`
		Chars     string  `json:"chars"`
		YieldMs   flexInt `json:"yield_time_ms"`
		MaxTokens flexInt `json:"max_output_tokens"`
	}
	if r, ok := decodeArgs(args, &a, `{"session_id": int, "chars"?: string, "yield_time_ms"?: int}`); !ok {
		return r, nil
	}
	p, ok := t.procs.get(int(a.ID))
	if !ok {
		return errorResult("no session %d: it ended and its exit was reported, or it never existed (exec_command starts one)", a.ID), nil
	}
	note := ""
	if a.Chars != "" {
		if p.exited() {
			note = "[the process had ended; the input was not sent]\n"
		} else if _, err := p.pty.Write([]byte(a.Chars)); err != nil {
			note = fmt.Sprintf("[could not send the input: %v]\n", err)
		}
	}
	return t.procs.report(ctx, p, yieldOf(a.YieldMs, stdinYieldDefault), int(a.MaxTokens), note)
}

// yieldOf is a model's yield_time_ms, or def, capped at execYieldMax.
func yieldOf(ms flexInt, def time.Duration) time.Duration {
	if ms <= 0 {
		return def
	}
	return min(time.Duration(ms)*time.Millisecond, execYieldMax)
}

// report waits up to yield for p, then renders its new output (capped
// at maxTokens, head and tail kept) and its state; an ended process's
// end is reported once and it is forgotten.
func (ps *Procs) report(ctx context.Context, p *proc, yield time.Duration, maxTokens int, note string) (Result, error) {
	out, dropped, exited, code := p.collect(yield, ctx.Done())
	if maxTokens <= 0 {
		maxTokens = execOutputTokens
	}
	var b strings.Builder
	b.WriteString(note)
	if dropped > 0 {
		fmt.Fprintf(&b, "[%d bytes of earlier output were not kept]\n", dropped)
	}
	out = capMiddle(out, maxTokens*execBytesPerToken)
	b.WriteString(out)
	if out != "" && !strings.HasSuffix(out, "\n") {
		b.WriteByte('\n')
	}
	res := Result{}
	if exited {
		ps.forget(p.id)
		res.ExitCode = &code
		res.IsError = code != 0
		fmt.Fprintf(&b, "[exit code %d]\n", code)
	} else {
		fmt.Fprintf(&b, "[still running as session_id %d; write_stdin sends input or polls]\n", p.id)
	}
	res.Content = b.String()
	return res, ctx.Err()
}

// capMiddle keeps at most max bytes of s, half from each end, with a
// marker where it cut (on rune boundaries).
func capMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	h := &headTail{half: max / 2}
	_, _ = h.Write([]byte(s))
	return h.String("", 0)
}

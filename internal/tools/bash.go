package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
// Options.BashOutputCap bytes are kept (head and tail halves) and the raw
// size is reported. A non-zero exit or a timeout is a Result with IsError;
// ExitCode is the shell's status (128+signal when killed). On ctx
// cancellation the partial Result is returned with ctx.Err().
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
		if err := t.opts.CommandWrapper(cmd); err != nil {
			pw.Close()
			return errorResult("command refused: %v", err), nil
		}
	}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return errorResult("could not start the command: %v", err), nil
	}
	pw.Close()
	out := &headTail{half: t.opts.BashOutputCap / 2}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, pr)
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
	var sb strings.Builder
	sb.WriteString(note)
	sb.WriteString(out.String())
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(&sb, "[interrupted; process group killed]\n")
		res.Content, res.IsError = sb.String(), true
		return res, ctx.Err()
	case timedOut:
		fmt.Fprintf(&sb, "[timed out after %v; process group killed; pass a larger timeout_ms (max %d) or run it in the background]\n", timeout, t.opts.BashMaxTimeout.Milliseconds())
		res.IsError = true
	default:
		fmt.Fprintf(&sb, "[exit code %d]\n", code)
		res.IsError = code != 0
	}
	res.Content = sb.String()
	return res, nil
}

// headTail keeps the first and last half bytes written and counts all.
type headTail struct {
	mu    sync.Mutex
	half  int
	head  []byte
	tail  []byte
	total int64
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.total += int64(len(p))
	n := len(p)
	if room := h.half - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	h.tail = append(h.tail, p...)
	if len(h.tail) > 2*h.half {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-h.half:]...)
	}
	return n, nil
}

// dropped returns how many bytes were written and whether some of them
// are not kept.
func (h *headTail) dropped() (total int64, cut bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total, h.total > int64(len(h.head)+min(len(h.tail), h.half))
}

// String renders the kept output; when bytes were dropped a marker between
// head and tail gives the raw size. Cuts fall on UTF-8 rune boundaries.
func (h *headTail) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := h.tail
	if len(tail) > h.half {
		tail = tail[len(tail)-h.half:]
	}
	kept := int64(len(h.head) + len(tail))
	if kept == h.total {
		s := string(h.head) + string(tail)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return s
	}
	head := trimPartialRune(h.head)
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	omitted := h.total - int64(len(head)+len(tail))
	return fmt.Sprintf("%s\n[... %d bytes omitted; output was %d bytes in all; redirect to a file and read_file or grep it to see more ...]\n%s\n", head, omitted, h.total, tail)
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

// trimPartialRune drops a multibyte UTF-8 sequence cut off at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

package mcp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
)

// inheritedEnv is what a stdio server inherits from Zero's environment
// before its own env is merged over it: the MCP TypeScript SDK's
// DEFAULT_INHERITED_ENV_VARS for POSIX
// (https://github.com/modelcontextprotocol/typescript-sdk/blob/main/src/client/stdio.ts)
// plus the temp dir, locale and XDG base dirs that npx and uvx use. API
// keys and other secrets in Zero's environment are not passed on.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
	"TMPDIR", "LANG", "LC_ALL", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}

// serverEnv is the environment of a stdio server: the inherited variables
// of environ, then env over them, sorted.
func serverEnv(environ []string, env map[string]string) []string {
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		for _, name := range inheritedEnv {
			if k == name {
				vars[k] = v
			}
		}
	}
	for k, v := range env {
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Process stop timing: the MCP spec's stdio shutdown (close stdin, wait,
// SIGTERM, wait, SIGKILL;
// https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#stdio),
// sent to the whole process group so `npx`'s node child goes too.
const (
	stdinGrace = 500 * time.Millisecond
	termGrace  = 2 * time.Second
	stderrTail = 2048
	maxFrame   = 64 << 20
)

// process is a running stdio server in its own process group.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser // the filtered stdout
	exited chan struct{} // closed when the process has exited
	err    error         // cmd.Wait's, read after exited
	stderr *tailWriter
	// stderrDone is closed when stderr reached EOF (all its writers gone).
	stderrDone chan struct{}
}

// startProcess runs cfg's command with stdout filtered (skipped lines go
// to log) and stderr copied to log.
func startProcess(cfg mcpconfig.Server, environ []string, log io.Writer, skipped func([]byte)) (*process, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = serverEnv(environ, cfg.Env)
	cmd.Dir = cfg.Cwd
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Pipes of our own (os.Pipe, not cmd.StdoutPipe): Wait must not close
	// stdout before its last line is read, and a grandchild holding
	// stderr open must not block Wait.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("start %s: %w", cfg.Command, err)
	}
	closeAll(inR, outW, errW)
	p := &process{cmd: cmd, stdin: inW, exited: make(chan struct{}), stderr: &tailWriter{w: log}, stderrDone: make(chan struct{})}
	p.stdout = newStdoutFilter(outR, skipped)
	go func() {
		_, _ = io.Copy(p.stderr, errR) // continuously: a full stderr pipe blocks the server (B29)
		errR.Close()
		close(p.stderrDone)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// transport is the SDK's newline-delimited JSON transport over the
// process's pipes.
func (p *process) transport() mcp.Transport {
	// 64 MB frames: a result past the SDK's 16 MB default would end the
	// connection; MAX_MCP_OUTPUT_TOKENS cuts the text afterwards.
	return &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin, MaxLineLength: maxFrame}
}

// exitError describes how the process ended, waiting up to wait for it to
// do so; nil (an untyped nil error) when it is still running.
func (p *process) exitError(wait time.Duration) error {
	select {
	case <-p.exited:
	default:
		if !waitFor(p.exited, wait) {
			return nil
		}
	}
	// The last stderr lines may still be in the pipe; a grandchild holding
	// it open must not hold us up for long.
	waitFor(p.stderrDone, 500*time.Millisecond)
	e := &exitStatus{How: "exited", Stderr: p.stderr.tail()}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			e.How = fmt.Sprintf("was killed by %v", ws.Signal())
		} else {
			e.How = fmt.Sprintf("exited (code %d)", ee.ExitCode())
		}
	} else if p.err == nil {
		e.How = "exited (code 0)"
	}
	return e
}

// exitStatus is how a server process ended and the tail of its stderr.
type exitStatus struct {
	How    string // "exited (code 1)" or "was killed by terminated"
	Stderr string
}

func (e *exitStatus) Error() string {
	if e.Stderr == "" {
		return e.How
	}
	return e.How + "; stderr: " + e.Stderr
}

// stop ends the server and its process group: close stdin, then SIGTERM,
// then SIGKILL, and waits for it.
func (p *process) stop() {
	_ = p.stdin.Close()
	pgid := -p.cmd.Process.Pid
	if !waitFor(p.exited, stdinGrace) {
		_ = syscall.Kill(pgid, syscall.SIGTERM)
		if !waitFor(p.exited, termGrace) {
			_ = syscall.Kill(pgid, syscall.SIGKILL)
			<-p.exited
		}
	}
	// Children left in the group (the server exited, its child did not).
	_ = syscall.Kill(pgid, syscall.SIGKILL)
}

func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// tailWriter copies to w (the server's log; may be nil) and keeps the
// last stderrTail bytes for error messages.
type tailWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		_, _ = t.w.Write(p)
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > stderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-stderrTail:]...)
	}
	return len(p), nil
}

// tail is the kept stderr on one line, newlines shown as " | ".
func (t *tailWriter) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " | ")), " ")
}

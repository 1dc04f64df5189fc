package tools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
)

// Interactive processes (exec_command, write_stdin): a command runs on a
// pseudo-terminal (github.com/creack/pty) in the session's sandbox and
// keeps running after the call returns; its output collects in a buffer
// the next call drains. Procs owns them for one session and ends them
// all (their process groups) on Close.

// Limits of the interactive processes of one session.
const (
	procsMax       = 16      // running at once
	procBufMax     = 1 << 20 // unread output kept per process (the oldest is dropped)
	procDrainWait  = 2 * time.Second
	procPtyRows    = 40
	procPtyColumns = 200
)

// ProcInfo describes one process for /ps.
type ProcInfo struct {
	ID      int
	Command string
	Started time.Time
	// Running is false once it exited (its last output not read yet).
	Running  bool
	ExitCode int
}

// Procs holds the interactive processes of one session.
type Procs struct {
	mu     sync.Mutex
	next   int
	byID   map[int]*proc
	closed bool
}

// NewProcs returns an empty set.
func NewProcs() *Procs { return &Procs{byID: map[int]*proc{}} }

// proc is one process on a pty. The reader goroutine appends its output
// to buf and signals more; the waiter closes done after the exit and the
// last output.
type proc struct {
	id      int
	command string
	started time.Time
	cmd     *exec.Cmd
	pty     *os.File

	mu      sync.Mutex
	buf     []byte
	dropped int64
	more    chan struct{} // cap 1: output arrived
	done    chan struct{} // closed when exited and drained
	code    int
}

func newProc(id int, command string) *proc {
	return &proc{id: id, command: command, started: time.Now(), more: make(chan struct{}, 1), done: make(chan struct{})}
}

// Start runs cmd (built and wrapped by the caller) on a new pty and
// registers it.
func (ps *Procs) Start(cmd *exec.Cmd, command string) (*proc, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed {
		return nil, errors.New("the session is closing")
	}
	running := 0
	for _, p := range ps.byID {
		if !p.exited() {
			running++
		}
	}
	if running >= procsMax {
		return nil, fmt.Errorf("%d processes are running already; end one first (write_stdin \"\\u0003\" sends Ctrl-C)", running)
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: procPtyRows, Cols: procPtyColumns})
	if err != nil {
		return nil, err
	}
	ps.next++
	p := newProc(ps.next, command)
	p.cmd, p.pty = cmd, f
	ps.byID[p.id] = p
	read := make(chan struct{})
	go func() {
		p.readFrom(f)
		close(read)
	}()
	go p.wait(read)
	return p, nil
}

// readFrom copies the pty's output into the buffer until it fails (EIO
// once every holder of the terminal is gone).
func (p *proc) readFrom(r io.Reader) {
	b := make([]byte, 32<<10)
	for {
		n, err := r.Read(b)
		if n > 0 {
			p.append(b[:n])
		}
		if err != nil {
			return
		}
	}
}

// wait reaps the process, kills what is left of its group, lets the
// reader finish (bounded: a daemon that escaped may hold the terminal)
// and marks the process done.
func (p *proc) wait(read <-chan struct{}) {
	_ = p.cmd.Wait()
	killProcessGroup(p.cmd)
	select {
	case <-read:
	case <-time.After(procDrainWait):
	}
	p.pty.Close()
	select { // a read blocked in the kernel may outlive the close
	case <-read:
	case <-time.After(procDrainWait):
	}
	p.finish(exitCode(p.cmd.ProcessState))
}

func (p *proc) append(b []byte) {
	p.mu.Lock()
	p.buf = append(p.buf, b...)
	if over := len(p.buf) - procBufMax; over > 0 {
		p.dropped += int64(over)
		p.buf = append(p.buf[:0], p.buf[over:]...)
	}
	p.mu.Unlock()
	select {
	case p.more <- struct{}{}:
	default:
	}
}

func (p *proc) finish(code int) {
	p.mu.Lock()
	p.code = code
	p.mu.Unlock()
	close(p.done)
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// collect waits until the process exits or yield passes (or stop is
// closed), then drains what it wrote since the last collect. exited
// reports the end, with code.
func (p *proc) collect(yield time.Duration, stop <-chan struct{}) (out string, dropped int64, exited bool, code int) {
	t := time.NewTimer(yield)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	case <-stop:
	}
	exited = p.exited()
	p.mu.Lock()
	defer p.mu.Unlock()
	out, dropped = string(p.buf), p.dropped
	p.buf, p.dropped = nil, 0
	return strings.ReplaceAll(out, "\r\n", "\n"), dropped, exited, p.code
}

// get returns the process with id.
func (ps *Procs) get(id int) (*proc, bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.byID[id]
	return p, ok
}

// forget drops a process whose end was reported.
func (ps *Procs) forget(id int) {
	ps.mu.Lock()
	delete(ps.byID, id)
	ps.mu.Unlock()
}

// List describes the processes, by id.
func (ps *Procs) List() []ProcInfo {
	ps.mu.Lock()
	all := make([]*proc, 0, len(ps.byID))
	for _, p := range ps.byID {
		all = append(all, p)
	}
	ps.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].id < all[j].id })
	out := make([]ProcInfo, 0, len(all))
	for _, p := range all {
		info := ProcInfo{ID: p.id, Command: p.command, Started: p.started, Running: !p.exited()}
		if !info.Running {
			p.mu.Lock()
			info.ExitCode = p.code
			p.mu.Unlock()
		}
		out = append(out, info)
	}
	return out
}

// Stop ends process id (its whole group) and waits for its end; the
// model learns it when it next polls.
func (ps *Procs) Stop(id int) error {
	p, ok := ps.get(id)
	if !ok {
		return fmt.Errorf("no process %d (/ps lists them)", id)
	}
	if !p.exited() {
		killProcessGroup(p.cmd)
	}
	<-p.done
	return nil
}

// Close ends every process and refuses new ones; it returns when all
// have been reaped.
func (ps *Procs) Close() {
	ps.mu.Lock()
	ps.closed = true
	all := make([]*proc, 0, len(ps.byID))
	for _, p := range ps.byID {
		all = append(all, p)
	}
	ps.mu.Unlock()
	for _, p := range all {
		if !p.exited() {
			killProcessGroup(p.cmd)
		}
	}
	for _, p := range all {
		<-p.done
	}
}

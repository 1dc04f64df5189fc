package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledProcessGroupTakesTheSandboxedCommandWithIt starts a sandboxed
// sleep in its own process group, as the shell tools do, and kills the
// group at moments spread over bubblewrap's start-up (the window where
// its inner process has left the group, in a session of its own, but
// does not yet die with its parent), then checks /proc: no sandboxed
// process may survive a kill of the group.
func TestKilledProcessGroupTakesTheSandboxedCommandWithIt(t *testing.T) {
	for _, backend := range backendsToTest(t) {
		t.Run(backend, func(t *testing.T) {
			d := newSandboxDirs(t)
			p := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{}, Backend: backend}
			for i := range 40 {
				marker := fmt.Sprintf("30.%d%d", os.Getpid(), i)
				cmd := exec.Command("/bin/sh", "-c", "sleep "+marker+"; true")
				cmd.Dir = d.ws
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				if err := p.Wrap(cmd); err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// From at once to well after the command runs.
				time.Sleep(time.Duration(i) * 500 * time.Microsecond)
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				_ = cmd.Wait()
				if pid, ok := survivor(marker, 5*time.Second); !ok {
					t.Fatalf("kill %d after %v: process %d (%s) outlived the killed group", i, time.Duration(i)*500*time.Microsecond, pid, cmdline(pid))
				}
			}
		})
	}
}

// survivor waits up to d for every process with marker on its command
// line to end; it returns one still there when not.
func survivor(marker string, d time.Duration) (int, bool) {
	for end := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		pid := findProcess(marker)
		if pid == 0 {
			return 0, true
		}
		if time.Now().After(end) {
			syscall.Kill(pid, syscall.SIGKILL)
			return pid, false
		}
	}
}

// findProcess is a process with marker on its command line, or 0.
func findProcess(marker string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), marker) {
			var pid int
			fmt.Sscanf(filepath.Base(filepath.Dir(p)), "%d", &pid)
			return pid
		}
	}
	return 0
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.ReplaceAll(string(b), "\x00", " ")
}

// TestBubblewrapCommandRunsInASessionOfItsOwn: the sandboxed command does
// not share Zero's session (and so cannot reach its terminal with
// TIOCSTI). Inside the pid namespace a session led from outside reads as
// session 0.
func TestBubblewrapCommandRunsInASessionOfItsOwn(t *testing.T) {
	if Backend() != BackendBubblewrap {
		t.Logf("bubblewrap does not work here (%s); nothing to check", Backend())
		return
	}
	d := newSandboxDirs(t)
	p := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{}}
	out, err := run(t, p, d.ws, `read -r stat < /proc/$$/stat; set -- ${stat#*) }; echo "$4"`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if sid := strings.TrimSpace(out); sid == "0" || sid == "" {
		t.Errorf("the command's session is %q: it shares the caller's session", sid)
	}
}

//go:build unix

package loops

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setGroup puts a gate's command in its own process group, killed whole
// when the gate times out (a shell's `sleep` child would otherwise hold
// stdout open, and Wait with it).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// tryLock takes an exclusive flock(2) on f without waiting; held reports
// that another process has it. The kernel drops it when the process
// ends, so a crashed run leaves no stale lock.
func tryLock(f *os.File) (held bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// setGroup starts the hook in its own process group so a timeout kills
// everything it spawned.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

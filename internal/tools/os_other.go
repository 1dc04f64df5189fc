//go:build !unix

package tools

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func signalOf(*os.ProcessState) (int, bool) { return 0, false }

const oNoFollow = 0

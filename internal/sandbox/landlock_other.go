//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
)

// HelperArg is the Landlock helper's argument (Linux only).
const HelperArg = "__zero-sandbox-landlock"

func landlockABI() int { return 0 }

func (p Policy) wrapLandlock(*exec.Cmd) error {
	return errors.New("sandbox: Landlock exists on Linux only")
}

// HelperMain fails outside Linux.
func HelperMain([]string) int { return 126 }

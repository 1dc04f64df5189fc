//go:build !unix

package loops

import (
	"os"
	"os/exec"
)

// setGroup is a no-op where process groups do not exist: a timed-out
// gate's command is killed, its children are not.
func setGroup(*exec.Cmd) {}

// tryLock is a no-op where flock(2) does not exist: two runs of one loop
// are not kept apart.
func tryLock(*os.File) (held bool, err error) { return false, nil }

// Package testbin builds the real zero binary once per test process, for
// the tests that run it as a user would (e2e, bench, the TUI's tmux
// tests), and isolates a test from the machine's setup (Isolate). It is
// imported by tests only and owns no product code.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	once sync.Once
	path string
	err  error
)

// Zero returns the path of a zero binary built from this module's
// cmd/zero, building it on the first call (into a temp directory that
// Cleanup removes). Errors carry the compiler's output.
func Zero() (string, error) {
	once.Do(func() {
		dir, e := os.MkdirTemp("", "zero-testbin-")
		if e != nil {
			err = e
			return
		}
		path = filepath.Join(dir, "zero")
		out, e := exec.Command("go", "build", "-o", path, "github.com/zero-agent/zero/cmd/zero").CombinedOutput()
		if e != nil {
			err = fmt.Errorf("go build ./cmd/zero: %v\n%s", e, out)
		}
	})
	return path, err
}

// Cleanup removes the built binary; call it at the end of TestMain.
func Cleanup() {
	if path != "" {
		os.RemoveAll(filepath.Dir(path))
	}
}

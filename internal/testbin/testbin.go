// Package testbin builds the real zero binary (and the project's test
// servers) once per test process, for the tests that run them as a user
// would (e2e, bench, the TUI's tmux tests), and isolates a test from the
// machine's setup (Isolate). It is imported by tests only and owns no
// product code.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	mu     sync.Mutex
	builds = map[string]*build{}
)

type build struct {
	once sync.Once
	path string
	err  error
}

// Zero returns the path of a zero binary built from this module's
// cmd/zero, building it on the first call.
func Zero() (string, error) { return Build("github.com/zero-agent/zero/cmd/zero") }

// Build returns the path of pkg's command built once per test process
// (into a temp directory that Cleanup removes). Errors carry the
// compiler's output.
func Build(pkg string) (string, error) {
	mu.Lock()
	b := builds[pkg]
	if b == nil {
		b = &build{}
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "zero-testbin-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	return b.path, b.err
}

// Cleanup removes every binary built; call it at the end of TestMain.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	for _, b := range builds {
		if b.path != "" {
			os.RemoveAll(filepath.Dir(b.path))
		}
	}
}

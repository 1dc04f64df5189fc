package mcptest

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

// Binary returns the path of cmd/mcptestserver, building it on the first
// call into a temp directory Cleanup removes. Errors carry the compiler's
// output.
func Binary() (string, error) {
	once.Do(func() {
		dir, e := os.MkdirTemp("", "mcptestserver-")
		if e != nil {
			err = e
			return
		}
		path = filepath.Join(dir, "mcptestserver")
		out, e := exec.Command("go", "build", "-o", path, "github.com/zero-agent/zero/internal/mcp/mcptest/cmd/mcptestserver").CombinedOutput()
		if e != nil {
			err = fmt.Errorf("go build mcptestserver: %v\n%s", e, out)
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

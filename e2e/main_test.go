// Package e2e runs the real zero binary against the project's fake model
// servers on a real codebase (a package copied from the Go distribution).
// It owns no product code.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	// Imported so the test cache sees every change to the binary's code
	// (the binary itself is built in TestMain).
	_ "github.com/zero-agent/zero/internal/cli"
	"github.com/zero-agent/zero/internal/testbin"
)

// zeroBin is the binary built once for the package's tests.
var zeroBin string

func TestMain(m *testing.M) {
	bin, err := testbin.Zero()
	if err != nil {
		fmt.Fprintln(os.Stderr, "building zero:", err)
		os.Exit(1)
	}
	zeroBin = bin
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// env is an isolated environment for one zero process: its own HOME,
// config and session directories, and no provider keys from the machine.
type env struct {
	t          *testing.T
	home       string
	sessionDir string
	vars       []string
}

func newEnv(t *testing.T) *env {
	home := t.TempDir()
	e := &env{t: t, home: home, sessionDir: filepath.Join(home, "sessions")}
	keep := []string{"PATH", "GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "TMPDIR", "LANG"}
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			e.vars = append(e.vars, k+"="+v)
		}
	}
	gocache := filepath.Join(os.TempDir(), "zero-e2e-gocache")
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		gocache = strings.TrimSpace(string(out))
	}
	gomodcache := ""
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		gomodcache = strings.TrimSpace(string(out))
	}
	e.vars = append(e.vars,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"ZERO_SESSION_DIR="+e.sessionDir,
		"GOCACHE="+gocache,
		"GOMODCACHE="+gomodcache,
		"GOFLAGS=-mod=mod",
		"GOTOOLCHAIN=local",
	)
	return e
}

// result is one finished zero process.
type result struct {
	stdout, stderr string
	code           int
}

// run runs zero in dir with args and stdin, with a generous time limit.
func (e *env) run(dir, stdin string, args ...string) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, zeroBin, args...)
	cmd.Dir = dir
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("running zero: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

// converse runs zero in dir with args as a stream-json client does: every
// event it writes on stdout is handed to answer, whose lines (if any) are
// written to its stdin at once; stdin stays open until stdout ends. It
// returns the events in order and the exit code.
func (e *env) converse(dir string, answer func(ev map[string]any) []string, args ...string) ([]map[string]any, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, zeroBin, args...)
	cmd.Dir, cmd.Env = dir, e.vars
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	var events []map[string]any
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			e.t.Errorf("stdout line is not JSON: %q", sc.Text())
			continue
		}
		events = append(events, ev)
		for _, l := range answer(ev) {
			io.WriteString(stdin, l+"\n")
		}
	}
	stdin.Close()
	code := 0
	if err := cmd.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			e.t.Fatalf("running zero: %v", err)
		}
		code = ee.ExitCode()
	}
	if code != 0 {
		e.t.Logf("stderr: %s", errb.String())
	}
	return events, code
}

// goroot returns the Go distribution's root.
func goroot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

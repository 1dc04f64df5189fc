// Package bench measures the zero binary as a user runs it: process start
// to the first model request, and peak memory of a one-shot exec, against
// the project's fake model server on 127.0.0.1. Run with
//
//	go test -bench . -benchtime 20x ./bench
//
// It owns no product code.
package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	// Imported so the test cache sees changes to the binary's code.
	_ "github.com/zero-agent/zero/internal/cli"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

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

func env(b testing.TB) []string {
	home := b.TempDir()
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config", "ZERO_SESSION_DIR=" + home + "/sessions"}
}

// BenchmarkStartToFirstRequest measures wall time from starting `zero
// exec` to the model server receiving its first completion request
// (config, workspace, session, tool set, request encoding and connect).
func BenchmarkStartToFirstRequest(b *testing.B) {
	srv := llmtest.NewServer(b)
	dir := b.TempDir()
	e := env(b)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		before := len(srv.Requests())
		start := time.Now()
		cmd := exec.Command(zeroBin, "exec", "--base-url", srv.URL(), "--model", "gpt-4.1", "hi")
		cmd.Dir, cmd.Env = dir, e
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var first time.Duration
		for first == 0 {
			for _, r := range srv.Requests()[before:] {
				if filepath.Base(r.Path) == "completions" {
					first = time.Since(start)
				}
			}
			if first == 0 {
				time.Sleep(200 * time.Microsecond)
			}
		}
		total += first
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/first-request")
}

// BenchmarkOneShotPeakRSS measures the peak resident memory of a whole
// one-shot `zero exec` (one tool call, one answer), from the kernel's
// rusage maxrss.
func BenchmarkOneShotPeakRSS(b *testing.B) {
	srv := llmtest.NewServer(b)
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	e := env(b)
	var peak int64
	for i := 0; i < b.N; i++ {
		call := llmtest.ToolCall("read_file", `{"path":"a.go"}`)
		srv.Script(llmtest.Reply(call), llmtest.Reply(llmtest.Text("done")))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, zeroBin, "exec", "--base-url", srv.URL(), "--model", "gpt-4.1", "read a.go")
		cmd.Dir, cmd.Env = dir, e
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		cancel()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
			peak = ru.Maxrss
		}
	}
	b.ReportMetric(float64(peak)/1024, "MB-peak-rss")
}

package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestMain removes the binary built for the end-to-end tests.
func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	mcptest.Cleanup()
	os.Exit(code)
}

// buildZero builds the real binary once per test process.
func buildZero(t testing.TB) string {
	t.Helper()
	bin, err := testbin.Zero()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// tmux drives one detached tmux server on a private socket.
type tmux struct {
	t      *testing.T
	socket string
}

func (x tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-u", "-f", "/dev/null", "-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen returns the pane's whole history plus the visible screen, wrapped
// lines joined, trailing spaces trimmed.
func (x tmux) screen() []string {
	out := x.run("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "zero")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// waitFor polls the pane until cond holds; the deadline only guards
// against a hang.
func (x tmux) waitFor(what string, cond func([]string) bool) {
	x.t.Helper()
	start := time.Now()
	defer func() { x.t.Logf("%s after %v", what, time.Since(start).Round(time.Millisecond)) }()
	deadline := time.Now().Add(30 * time.Second)
	for !cond(x.screen()) {
		if time.Now().After(deadline) {
			x.t.Fatalf("pane never showed %s:\n%s", what, strings.Join(x.screen(), "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exit sends ^D until the app exits: a ^D that lands while the last turn
// is still finishing (run_end not yet handled) edits the line instead of
// quitting, so one keystroke is not enough on a loaded machine.
func (x tmux) exit() {
	x.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !contains(x.screen(), "ZERO-EXITED-0") {
		if time.Now().After(deadline) {
			x.t.Fatalf("zero did not exit:\n%s", strings.Join(x.screen(), "\n"))
		}
		x.run("send-keys", "-t", "zero", "C-d")
		for i := 0; i < 25 && !contains(x.screen(), "ZERO-EXITED-0"); i++ {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func (x tmux) typeLine(s string) {
	x.run("send-keys", "-t", "zero", "-l", s)
	x.run("send-keys", "-t", "zero", "Enter")
}

// sockets numbers the tmux servers this process starts.
var sockets atomic.Int64

// tmuxSocket names a new tmux server for t: one per start, so a test run
// again (-count) never reaches the server its previous run is still
// shutting down ("server exited unexpectedly").
func tmuxSocket(t *testing.T, name string) string {
	return fmt.Sprintf("zero-e2e-%d-%d-%s-%s", os.Getpid(), sockets.Add(1), strings.ReplaceAll(t.Name(), "/", "-"), name)
}

// startInTmux starts zero against the server at url in a detached tmux
// session with its own HOME, and returns the driver and the work dir.
func startInTmux(t *testing.T, bin, url string) (tmux, string) {
	return startAppInTmux(t, bin, "--base-url", url, "--model", "e2e-model")
}

// startAppInTmux is startInTmux with zero's arguments given (each one
// single-quoted for the pane's shell).
func startAppInTmux(t *testing.T, bin string, args ...string) (tmux, string) {
	return startAppWithHome(t, bin, t.TempDir(), args...)
}

// startAppWithHome is startAppInTmux with a HOME the test prepared (a
// config file, an MCP server).
func startAppWithHome(t *testing.T, bin, home string, args ...string) (tmux, string) {
	return startAppIn(t, bin, home, t.TempDir(), args...)
}

// startAppIn is startAppWithHome in the work folder given (a fixture
// project).
func startAppIn(t *testing.T, bin, home, work string, args ...string) (tmux, string) {
	x := tmux{t: t, socket: tmuxSocket(t, "")}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	cmd := fmt.Sprintf("env -i HOME=%s PATH=%s TERM=tmux-256color LANG=C.UTF-8 ZERO_SESSION_DIR=%s %s %s; echo ZERO-EXITED-$?; sleep 60",
		home, os.Getenv("PATH"), filepath.Join(home, "sessions"), bin, strings.Join(quoted, " "))
	x.run("new-session", "-d", "-s", "zero", "-x", "90", "-y", "24", "-c", work, cmd)
	return x, work
}

// TestEndToEndInTmux runs the real `zero` binary in tmux against the fake
// model server: a prompt streams, a second reply is interrupted with ^C
// (the partial text stays on screen and in the session), the conversation
// continues, and the scrollback holds every line exactly once.
func TestEndToEndInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the end-to-end test (.ci/run installs it)")
	}
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Text("alpha line\nbeta "), llmtest.Text("line\n\n```go\nfmt.Println(\"gamma\")\n```\n"), llmtest.Usage(900, 20)),
		llmtest.Reply(llmtest.Text("partial reply "), llmtest.Stall(time.Minute)),
		llmtest.Reply(llmtest.Text("resumed fine"), llmtest.Usage(1000, 5)),
	)
	x, _ := startInTmux(t, bin, srv.URL())

	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("first question")
	x.waitFor("the first reply", func(l []string) bool { return contains(l, `fmt.Println("gamma")`) && contains(l, "ask anything") })
	x.waitFor("server usage in the footer", func(l []string) bool { return contains(l, "920") })

	x.typeLine("long task")
	x.waitFor("the partial reply", func(l []string) bool { return contains(l, "partial reply") })
	x.run("send-keys", "-t", "zero", "C-c")
	x.waitFor("the interrupt", func(l []string) bool { return contains(l, "⏹ interrupted") && contains(l, "ask anything") })

	x.typeLine("go on")
	x.waitFor("the next reply", func(l []string) bool { return contains(l, "resumed fine") && contains(l, "ask anything") })

	x.exit()

	lines := x.screen()
	for _, want := range []string{"› first question", "alpha line", "beta line", `fmt.Println("gamma")`, "› long task", "partial reply", "⏹ interrupted", "› go on", "resumed fine"} {
		if n := count(lines, want); n != 1 {
			t.Errorf("%q appears %d times in the scrollback:\n%s", want, n, strings.Join(lines, "\n"))
		}
	}

	// The interrupted turn's partial text is in the history the next
	// request carries (the session stayed consistent).
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	body, _ := json.Marshal(last.Map()["messages"])
	for _, want := range []string{"first question", "partial reply", "go on"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("last request lacks %q: %s", want, body)
		}
	}
}

// TestEndToEndPermissionPrompt: in normal mode a write asks; "y" allows
// it; a shell command denied with a typed reason sends the reason to the
// model.
func TestEndToEndPermissionPrompt(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"hello\n"}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"echo from-model"}`)),
		llmtest.Reply(llmtest.Text("ok, not running it")),
	)
	x, work := startInTmux(t, bin, srv.URL())
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("write notes")
	x.waitFor("the write prompt", func(l []string) bool { return contains(l, "allow write_file?") && contains(l, "notes.txt") })
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "y")
	x.waitFor("the shell prompt", func(l []string) bool { return contains(l, "allow bash?") && contains(l, "$ echo from-model") })
	pause()
	x.run("send-keys", "-t", "zero", "n")
	x.waitFor("the reason field", func(l []string) bool { return contains(l, "reason (enter sends") })
	x.typeLine("not now")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "ok, not running it") && contains(l, "ask anything") })
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("allowed write did not happen: %q %v", b, err)
	}
	lines := x.screen()
	t.Logf("screen:\n%s", strings.Join(lines, "\n"))
	for _, want := range []string{"⚙ write_file(notes.txt)", "⚙ bash(echo from-model)", "ok, not running it"} {
		if n := count(lines, want); n != 1 {
			t.Errorf("%q shown %d times", want, n)
		}
	}
	reqs := srv.Requests()
	body, _ := json.Marshal(reqs[len(reqs)-1].Map()["messages"])
	if !strings.Contains(string(body), "not now") {
		t.Errorf("the deny reason did not reach the model: %s", body)
	}
	x.exit()
}

// pause waits like a person reading a prompt before answering it: longer
// than the typing-burst gap, so the answer is not taken for type-ahead.
func pause() { time.Sleep(2 * typingBurstGap) }

// BenchmarkStartToFirstFrame measures the real binary from process start
// to the first frame on a pseudo-terminal (the footer's mode appears).
func BenchmarkStartToFirstFrame(b *testing.B) {
	bin := buildZero(b)
	srv := llmtest.NewServer(b)
	home := b.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8", "ZERO_SESSION_DIR=" + filepath.Join(home, "s")}
	for b.Loop() {
		cmd := exec.Command(bin, "--base-url", srv.URL(), "--model", "bench-model")
		cmd.Env, cmd.Dir = env, home
		start := time.Now()
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
		if err != nil {
			b.Fatal(err)
		}
		var seen []byte
		buf := make([]byte, 4096)
		for !bytes.Contains(seen, []byte("normal")) {
			n, err := f.Read(buf)
			if err != nil {
				b.Fatalf("no first frame: %v\n%q", err, seen)
			}
			seen = append(seen, buf[:n]...)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "ms/first-frame")
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	}
}

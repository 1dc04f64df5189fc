package tools

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// execSet returns exec_command and write_stdin on a fresh workspace,
// their processes ended when the test ends.
func execSet(t *testing.T, opts Options) (reg *Registry, procs *Procs, root string) {
	t.Helper()
	ws, _ := newWS(t, t.TempDir())
	procs = NewProcs()
	t.Cleanup(procs.Close)
	return NewRegistry(ExecTools(ws, opts, procs)...), procs, ws.Root()
}

var sessionRe = regexp.MustCompile(`still running as session_id (\d+)`)

// sessionOf is the session id a still-running result names.
func sessionOf(t *testing.T, res Result) int {
	t.Helper()
	m := sessionRe.FindStringSubmatch(res.Content)
	if m == nil {
		t.Fatalf("not running: %q", res.Content)
	}
	id, _ := strconv.Atoi(m[1])
	return id
}

// pollUntil polls session id with write_stdin until its output so far
// (from already on) contains want (each poll waits up to a second for
// output; a slow machine takes more polls, never a wrong answer) and
// returns it.
func pollUntil(t *testing.T, reg *Registry, id int, already, want string) string {
	t.Helper()
	var seen strings.Builder
	seen.WriteString(already)
	for i := 0; i < 60 && !strings.Contains(seen.String(), want); i++ {
		res := call(t, reg, WriteStdinName, map[string]any{"session_id": id, "yield_time_ms": 1000})
		seen.WriteString(res.Content)
		if res.ExitCode != nil {
			break
		}
	}
	if !strings.Contains(seen.String(), want) {
		t.Fatalf("session %d never printed %q: %q", id, want, seen.String())
	}
	return seen.String()
}

func TestExecCommandAnswersAnInteractivePrompt(t *testing.T) {
	reg, procs, _ := execSet(t, Options{})
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": `python3 -c 'name = input("name? "); print("hello", name.upper())'`, "yield_time_ms": 200})
	id := sessionOf(t, res)
	pollUntil(t, reg, id, res.Content, "name? ")
	if got := procs.List(); len(got) != 1 || !got[0].Running || got[0].ID != id {
		t.Fatalf("/ps while it waits: %+v", got)
	}
	res = call(t, reg, WriteStdinName, map[string]any{"session_id": id, "chars": "zero\n", "yield_time_ms": 20000})
	if res.ExitCode == nil || *res.ExitCode != 0 || !strings.Contains(res.Content, "hello ZERO\n") || !strings.HasSuffix(res.Content, "[exit code 0]\n") {
		t.Fatalf("after the answer: %+v", res)
	}
	if strings.Contains(res.Content, "\r") {
		t.Fatalf("terminal line ends kept: %q", res.Content)
	}
	// Its end was reported: the session is gone.
	if res := call(t, reg, WriteStdinName, map[string]any{"session_id": id}); !res.IsError || !strings.Contains(res.Content, "no session") {
		t.Fatalf("poll after the end: %+v", res)
	}
	if got := procs.List(); len(got) != 0 {
		t.Fatalf("/ps after the end: %+v", got)
	}
}

// freePort is a 127.0.0.1 port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestExecCommandKeepsADevServerRunning(t *testing.T) {
	reg, procs, root := execSet(t, Options{})
	if err := os.WriteFile(filepath.Join(root, "index.html"), []byte("<p>served by zero</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": fmt.Sprintf("python3 -m http.server %d --bind 127.0.0.1", port), "yield_time_ms": 300})
	server := sessionOf(t, res)
	pollUntil(t, reg, server, res.Content, "Serving HTTP")
	// The model queries it while it runs, with a second command.
	got := call(t, reg, ExecCommandName, map[string]any{"cmd": fmt.Sprintf("curl -s http://127.0.0.1:%d/index.html", port), "yield_time_ms": 20000})
	if got.ExitCode == nil || *got.ExitCode != 0 || !strings.Contains(got.Content, "served by zero") {
		t.Fatalf("query: %+v", got)
	}
	// The server's log line of that request is polled from its session.
	pollUntil(t, reg, server, "", `"GET /index.html HTTP/1.1" 200`)
	// Ending the session's processes ends the server.
	procs.Close()
	if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
		c.Close()
		t.Fatal("the server still accepts connections after Close")
	}
	if res := call(t, reg, ExecCommandName, map[string]any{"cmd": "true"}); !res.IsError || !strings.Contains(res.Content, "closing") {
		t.Fatalf("start after Close: %+v", res)
	}
}

func TestStopEndsTheWholeProcessGroup(t *testing.T) {
	reg, procs, _ := execSet(t, Options{})
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": "sleep 1000 & echo child=$!; wait", "yield_time_ms": 300})
	id := sessionOf(t, res)
	out := pollUntil(t, reg, id, res.Content, "child=")
	pid, err := strconv.Atoi(regexp.MustCompile(`child=(\d+)`).FindStringSubmatch(out)[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := procs.Stop(id); err != nil {
		t.Fatal(err)
	}
	for i := 0; alive(pid); i++ { // SIGKILL delivery is asynchronous
		if i == 200 {
			t.Fatalf("background child %d outlived /stop", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	res = call(t, reg, WriteStdinName, map[string]any{"session_id": id})
	if res.ExitCode == nil || *res.ExitCode != 128+9 {
		t.Fatalf("poll after /stop: %+v", res)
	}
}

func TestExecCommandArgumentErrors(t *testing.T) {
	reg, _, _ := execSet(t, Options{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{ExecCommandName, map[string]any{"cmd": " "}, "cmd is required"},
		{ExecCommandName, map[string]any{"cmd": "true", "workdir": "/"}, "outside"},
		{WriteStdinName, map[string]any{"session_id": 99, "chars": "x"}, "no session 99"},
		{WriteStdinName, map[string]any{"session_id": "seven"}, "invalid arguments"},
	} {
		if res := call(t, reg, tc.tool, tc.args); !res.IsError || !strings.Contains(res.Content, tc.want) {
			t.Errorf("%s %v: %+v, want %q", tc.tool, tc.args, res, tc.want)
		}
	}
}

func TestExecCommandRunsInWorkdirUnderTheWrapper(t *testing.T) {
	wrapped := 0
	reg, _, root := execSet(t, Options{CommandWrapper: func(_ context.Context, c *exec.Cmd) error { wrapped++; return nil }})
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": "pwd; echo $TERM", "workdir": "sub", "yield_time_ms": 20000})
	if want := filepath.Join(root, "sub") + "\ndumb\n[exit code 0]\n"; res.Content != want || wrapped != 1 {
		t.Fatalf("got %q (wrapped %d), want %q", res.Content, wrapped, want)
	}
	refusing := func(context.Context, *exec.Cmd) error { return fmt.Errorf("no sandbox") }
	reg, _, _ = execSet(t, Options{CommandWrapper: refusing})
	if res := call(t, reg, ExecCommandName, map[string]any{"cmd": "true"}); !res.IsError || !strings.Contains(res.Content, "command refused: no sandbox") {
		t.Fatalf("refused wrapper: %+v", res)
	}
}

func TestCollectWaitsForTheYieldOrTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newProc(1, "server")
		go func() {
			time.Sleep(300 * time.Millisecond)
			p.append([]byte("listening\r\n"))
		}()
		start := time.Now()
		out, _, exited, _ := p.collect(time.Second, nil)
		if out != "listening\n" || exited || time.Since(start) != time.Second {
			t.Fatalf("running: %q exited=%v after %v", out, exited, time.Since(start))
		}
		go func() {
			time.Sleep(200 * time.Millisecond)
			p.append([]byte("bye"))
			p.finish(3)
		}()
		start = time.Now()
		out, _, exited, code := p.collect(30*time.Second, nil)
		if out != "bye" || !exited || code != 3 || time.Since(start) != 200*time.Millisecond {
			t.Fatalf("ended: %q exited=%v code=%d after %v", out, exited, code, time.Since(start))
		}
	})
}

func TestYieldTimeDefaultsAndCap(t *testing.T) {
	for _, tc := range []struct {
		ms   flexInt
		want time.Duration
	}{{0, time.Second}, {-5, time.Second}, {250, 250 * time.Millisecond}, {10 * 60 * 1000, execYieldMax}} {
		if got := yieldOf(tc.ms, time.Second); got != tc.want {
			t.Errorf("yieldOf(%d) = %v, want %v", tc.ms, got, tc.want)
		}
	}
}

func TestExecOutputKeepsHeadAndTail(t *testing.T) {
	reg, _, _ := execSet(t, Options{})
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": "seq 1 20000", "yield_time_ms": 20000, "max_output_tokens": 100})
	if !strings.HasPrefix(res.Content, "1\n2\n") || !strings.Contains(res.Content, "bytes omitted") || !strings.HasSuffix(res.Content, "20000\n[exit code 0]\n") || len(res.Content) > 700 {
		t.Fatalf("capped output (%d bytes): %q", len(res.Content), res.Content)
	}
}

func TestCtrlCReachesTheCommand(t *testing.T) {
	reg, _, _ := execSet(t, Options{})
	res := call(t, reg, ExecCommandName, map[string]any{"cmd": "echo ready; sleep 1000", "yield_time_ms": 100})
	id := sessionOf(t, res)
	res = call(t, reg, WriteStdinName, map[string]any{"session_id": id, "chars": "\u0003", "yield_time_ms": 20000})
	if res.ExitCode == nil || *res.ExitCode != 128+2 {
		t.Fatalf("after Ctrl-C: %+v", res)
	}
}

package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
	"github.com/zero-agent/zero/internal/tools"
)

func TestStdioServerOffersAndRunsItsTools(t *testing.T) {
	var r recorder
	m := startManager(t, r.options(t), testServer(t, "test"))
	waitNoFailures(t, m)

	st := statusOf(m, "test")
	if st.State != StateConnected || st.Tools != 11 || st.Summary() != "connected, 11 tools" {
		t.Fatalf("status %+v, want connected with 11 tools", st)
	}
	if got := call(t, toolNamed(t, m, "mcp__test__echo"), `{"text":"hello"}`); got.Content != "hello" || got.IsError {
		t.Errorf("echo: %+v", got)
	}
	if got := call(t, toolNamed(t, m, "mcp__test__add"), `{"a":2,"b":3}`); got.Content != "5" {
		t.Errorf("add: %+v", got)
	}
	if got := call(t, toolNamed(t, m, "mcp__test__fail"), `{}`); !got.IsError || got.Content != "something broke" {
		t.Errorf("fail: %+v", got)
	}
	want := "here\n[image: image/png, 4 bytes]\n[resource: file:///notes.txt]\nnote body"
	if got := call(t, toolNamed(t, m, "mcp__test__mixed"), ``); got.Content != want {
		t.Errorf("mixed: %q, want %q", got.Content, want)
	}
	if s := toolNamed(t, m, "mcp__test__peek").SideEffect(); s != tools.SideExternalRead {
		t.Errorf("peek (readOnlyHint) side effect %s", s)
	}
	if s := toolNamed(t, m, "mcp__test__echo").SideEffect(); s != tools.SideExternal {
		t.Errorf("echo side effect %s", s)
	}
	if srv, tool, ok := m.Lookup("mcp__test__echo"); !ok || srv != "test" || tool != "echo" {
		t.Errorf("Lookup: %q %q %v", srv, tool, ok)
	}
	if st.LogPath != filepath.Join(filepath.Dir(st.LogPath), "mcp-test.log") {
		t.Errorf("log path %q", st.LogPath)
	}
	mustContain(t, "server log", logText(t, st), "mcptestserver starting")
}

func TestEnabledToolsDisabledToolsAndDisabledServers(t *testing.T) {
	only := testServer(t, "only")
	only.EnabledTools = []string{"echo", "add"}
	without := testServer(t, "without")
	without.DisabledTools = []string{"echo"}
	off := testServer(t, "off")
	off.Enabled = false
	var r recorder
	m := startManager(t, r.options(t), only, without, off)
	waitNoFailures(t, m)

	var names []string
	for _, tl := range m.Tools() {
		if strings.HasPrefix(tl.Name(), "mcp__only__") {
			names = append(names, tl.Name())
		}
	}
	if strings.Join(names, ",") != "mcp__only__add,mcp__only__echo" {
		t.Errorf("enabledTools: %v", names)
	}
	if st := statusOf(m, "without"); st.Tools != 10 {
		t.Errorf("disabledTools: %d tools", st.Tools)
	}
	if st := statusOf(m, "off"); st.State != StateDisabled {
		t.Errorf("disabled server: %+v", st)
	}
	if err := m.Reconnect(context.Background(), "off"); err == nil || !strings.Contains(err.Error(), "zero mcp enable off") {
		t.Errorf("reconnecting a disabled server: %v", err)
	}
}

// Case B29: a server that prints a banner and log lines on stdout works,
// with one warning, and the lines go to its log (testdata/B29).
func TestNoisyStdoutIsSkippedWithOneWarning(t *testing.T) {
	for _, srv := range []mcpconfig.Server{
		scriptServer("noisy", "testdata/B29/noisy_server.sh"),
		testServer(t, "noisy", "-noise"),
	} {
		t.Run(strings.Join(srv.Args, " "), func(t *testing.T) {
			var r recorder
			m := startManager(t, r.options(t), srv)
			waitNoFailures(t, m)
			got := call(t, toolNamed(t, m, "mcp__noisy__echo"), `{"text":"hi"}`)
			if got.Content != "hi" || got.IsError {
				t.Errorf("echo: %+v", got)
			}
			call(t, toolNamed(t, m, "mcp__noisy__echo"), `{"text":"hi"}`)
			if w := r.warned(); len(w) != 1 || !strings.Contains(w[0], "server wrote non-protocol output to stdout") {
				t.Errorf("warnings: %q", w)
			}
			mustContain(t, "server log", logText(t, statusOf(m, "noisy")), "[stdout, not protocol] Demo MCP Server v1.0.0 started successfully")
		})
	}
}

// Case B30: a server that exits at once fails at once, with its exit code
// and stderr, not after the start-up timeout.
func TestServerThatExitsAtOnceFailsWithExitCodeAndStderr(t *testing.T) {
	srv := scriptServer("sqlite", "testdata/B30/server_exits_immediately.sh")
	srv.StartupTimeout = time.Hour
	var r recorder
	m := startManager(t, r.options(t), srv)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	failed := m.Wait(ctx)
	if len(failed) != 1 || failed[0].State != StateFailed {
		t.Fatalf("Wait: %+v", failed)
	}
	mustContain(t, "error", failed[0].Err.Error(), "exited (code 1)", "Cannot find module 'mcp-sqlite'")
}

// Case B30: a server that never answers initialize fails after its
// start-up timeout, and the others are not held up.
func TestServerThatNeverInitialisesTimesOut(t *testing.T) {
	stuck := scriptServer("stuck", "testdata/B30/server_never_initializes.sh")
	stuck.StartupTimeout = 300 * time.Millisecond
	var r recorder
	m := startManager(t, r.options(t), stuck, testServer(t, "ok"))
	failed := m.Wait(context.Background())
	if len(failed) != 1 || failed[0].Name != "stuck" {
		t.Fatalf("Wait: %+v", failed)
	}
	mustContain(t, "error", failed[0].Err.Error(), "no answer to initialize within 300ms", "startupTimeout")
	if st := statusOf(m, "ok"); st.State != StateConnected {
		t.Errorf("other server: %+v", st)
	}
}

// Case B30: a server that dies mid-call fails the call at once with a
// result saying so and how to reconnect; its tools are withdrawn; a
// reconnect brings them back.
func TestCrashMidCallWithdrawsToolsAndReconnectRestoresThem(t *testing.T) {
	for _, tc := range []struct {
		srv        mcpconfig.Server
		tool, exit string
	}{
		{scriptServer("crashy", "testdata/B30/server_crashes_on_call.sh"), "mcp__crashy__slow", "exited (code 1)"},
		{testServer(t, "crashy"), "mcp__crashy__crash", "exited (code 3)"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var r recorder
			m := startManager(t, r.options(t), tc.srv)
			waitNoFailures(t, m)
			tl := toolNamed(t, m, tc.tool)
			got := call(t, tl, `{}`)
			if !got.IsError {
				t.Fatalf("call on crashing server: %+v", got)
			}
			mustContain(t, "result", got.Content, "MCP server crashy "+tc.exit, "fatal: simulated crash", "/mcp reconnect crashy")

			st := r.waitState(t, "crashy", StateFailed)
			mustContain(t, "status", st.Err.Error(), "crashed", tc.exit)
			if n := len(m.Tools()); n != 0 {
				t.Errorf("%d tools still offered after the crash", n)
			}
			again := call(t, tl, `{}`)
			if !again.IsError || !strings.Contains(again.Content, "is down") || !strings.Contains(again.Content, "/mcp reconnect crashy") {
				t.Errorf("call while down: %+v", again)
			}

			if err := m.Reconnect(context.Background(), "crashy"); err != nil {
				t.Fatal(err)
			}
			if st := statusOf(m, "crashy"); st.State != StateConnected || len(m.Tools()) == 0 {
				t.Errorf("after reconnect: %+v, %d tools", st, len(m.Tools()))
			}
		})
	}
}

// Case B30: a call the server never answers ends at the tool timeout.
func TestHungCallEndsAtTheToolTimeout(t *testing.T) {
	srv := scriptServer("hangs", "testdata/B30/server_hangs_on_call.sh")
	srv.ToolTimeout = 200 * time.Millisecond
	var r recorder
	m := startManager(t, r.options(t), srv)
	waitNoFailures(t, m)
	got := call(t, toolNamed(t, m, "mcp__hangs__slow"), `{}`)
	if !got.IsError {
		t.Fatalf("hung call: %+v", got)
	}
	mustContain(t, "result", got.Content, "timed out", "200ms", "toolTimeout")
}

func TestHugeResultIsCappedKeepingItsErrorLine(t *testing.T) {
	var r recorder
	opts := r.options(t)
	opts.LogDir = filepath.Join(opts.LogDir, "not", "yet", "there")
	m := startManager(t, opts, testServer(t, "big"))
	waitNoFailures(t, m)
	got := call(t, toolNamed(t, m, "mcp__big__huge"), `{}`)
	if len(got.Content) > 100_000 || !strings.HasSuffix(got.Content, mcptest.HugeErrorLine) {
		t.Errorf("8 MB result: %d bytes, tail %q", len(got.Content), got.Content[max(0, len(got.Content)-100):])
	}
	mustContain(t, "server log in a new directory", logText(t, statusOf(m, "big")), "mcptestserver starting")

	opts.Getenv = func(k string) string {
		if k == "MAX_MCP_OUTPUT_TOKENS" {
			return "1000"
		}
		return ""
	}
	small := startManager(t, opts, testServer(t, "big"))
	waitNoFailures(t, small)
	if got := call(t, toolNamed(t, small, "mcp__big__huge"), `{"bytes":100000}`); len(got.Content) > 4000 {
		t.Errorf("MAX_MCP_OUTPUT_TOKENS=1000: %d bytes", len(got.Content))
	}
}

func TestTwoHundredToolsAreOffered(t *testing.T) {
	var r recorder
	m := startManager(t, r.options(t), testServer(t, "many", "-tools", "200"))
	waitNoFailures(t, m)
	if n := len(m.Tools()); n != 211 {
		t.Errorf("%d tools, want 211", n)
	}
	if got := call(t, toolNamed(t, m, "mcp__many__tool_199"), `{}`); got.Content != "tool_199" {
		t.Errorf("tool_199: %+v", got)
	}
}

func TestStdioServerGetsAMinimalEnvironmentWithItsOwnEnvOnTop(t *testing.T) {
	environ := []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "OPENAI_API_KEY=secret", "LANG=C"}
	got := serverEnv(environ, map[string]string{"TOKEN": "t", "LANG": "fr_FR.UTF-8"})
	want := "HOME=/home/u LANG=fr_FR.UTF-8 PATH=/usr/bin:/bin TOKEN=t"
	if strings.Join(got, " ") != want {
		t.Errorf("env %q, want %q", got, want)
	}
}

// Close ends the whole process group of a server, its children included,
// even while it is still starting.
func TestCloseEndsTheServersProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	srv := mcpconfig.Server{Name: "parent", Transport: mcpconfig.Stdio, Command: "/bin/sh", Enabled: true,
		Args: []string{"-c", `sleep 300 & echo $! > "$PIDFILE"; cat >/dev/null`}, Env: map[string]string{"PIDFILE": pidFile},
		StartupTimeout: time.Hour}
	m := &Manager{}
	m.Start(context.Background(), []mcpconfig.Server{srv}, Options{})
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		time.Sleep(10 * time.Millisecond) // polling for the child to exist, not timing a behaviour
	}
	if pid == 0 {
		t.Fatal("the server's child never started")
	}
	m.Close()
	for deadline := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // SIGKILL is delivered asynchronously
	}
	if alive(pid) {
		t.Errorf("child %d of the server still runs after Close", pid)
	}
	if st := statusOf(m, "parent"); st.State == StateConnected {
		t.Errorf("status after Close: %+v", st)
	}
}

// alive reports whether pid runs (a zombie awaiting its reaper does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat))
	return len(fields) > 2 && fields[2] != "Z"
}

// Case B30: large arguments must not deadlock the pipes.
func TestLargeArgumentsAndResultsCrossTheStdioPipes(t *testing.T) {
	var r recorder
	m := startManager(t, r.options(t), testServer(t, "big"))
	waitNoFailures(t, m)
	text := strings.Repeat("abcdefgh", 10<<10) // 80 KB: past a 64 KB pipe buffer, under the output cap
	got := call(t, toolNamed(t, m, "mcp__big__echo"), `{"text":"`+text+`"}`)
	if got.Content != text {
		t.Errorf("echo of %d bytes came back as %d bytes", len(text), len(got.Content))
	}
}

// A server that dies between calls is noticed without a call: failed,
// reported through OnChange, its tools withdrawn.
func TestIdleCrashIsReportedAndWithdrawsTools(t *testing.T) {
	var r recorder
	m := startManager(t, r.options(t), testServer(t, "idle"))
	waitNoFailures(t, m)
	if got := call(t, toolNamed(t, m, "mcp__idle__exit_later"), `{}`); got.Content != "bye" {
		t.Fatalf("exit_later: %+v", got)
	}
	st := r.waitState(t, "idle", StateFailed)
	mustContain(t, "status", st.Err.Error(), "crashed", "exited (code 4)", "fatal: idle crash")
	if n := len(m.Tools()); n != 0 {
		t.Errorf("%d tools offered after the crash", n)
	}
}

func TestStdioServerRunsInItsCwdWithItsEnv(t *testing.T) {
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv := mcpconfig.Server{Name: "where", Transport: mcpconfig.Stdio, Enabled: true, Cwd: dir,
		Command: "/bin/sh", Args: []string{"-c", `echo "cwd=$(pwd) token=$TOKEN key=$OPENAI_API_KEY" >&2; exec "$BIN"`},
		Env: map[string]string{"TOKEN": "t1", "BIN": bin}}
	var r recorder
	opts := r.options(t)
	opts.Environ = []string{"PATH=/usr/bin:/bin", "OPENAI_API_KEY=secret"}
	m := startManager(t, opts, srv)
	waitNoFailures(t, m)
	mustContain(t, "server log", logText(t, statusOf(m, "where")), "cwd="+dir+" token=t1 key=\n")
}

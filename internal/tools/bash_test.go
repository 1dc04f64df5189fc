package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBash(t *testing.T) {
	dir := t.TempDir()
	ws, _ := newWS(t, dir)
	tests := []struct {
		name    string
		opts    Options
		args    map[string]any
		want    string // exact Content, or
		has     []string
		code    int
		isError bool
		raw     int // want RawBytes
	}{
		{name: "interleaved", args: map[string]any{"command": "echo a; echo b >&2; echo c"}, want: "a\nb\nc\n[exit code 0]\n"},
		{name: "exit code", args: map[string]any{"command": "echo oops; exit 3"}, want: "oops\n[exit code 3]\n", code: 3, isError: true},
		{name: "cwd is the root", args: map[string]any{"command": "pwd"}, want: ws.Root() + "\n[exit code 0]\n"},
		{name: "stdin is empty", args: map[string]any{"command": "cat; echo done"}, want: "done\n[exit code 0]\n"},
		{name: "no output", args: map[string]any{"command": "true"}, want: "[exit code 0]\n"},
		{name: "missing final newline", args: map[string]any{"command": "printf x"}, want: "x\n[exit code 0]\n"},
		{name: "killed by signal", args: map[string]any{"command": "kill -TERM $$"}, want: "[exit code 143]\n", code: 143, isError: true},
		{name: "output cap", opts: Options{BashOutputCap: 20}, args: map[string]any{"command": "printf 'héllo%.0s' $(seq 100)"},
			has: []string{"héllohél\n[... 581 ", "bytes omitted; output was 600 bytes in all", "llohéllo\n[exit code 0]\n"}, raw: 600},
		{name: "output just at the cap", opts: Options{BashOutputCap: 20}, args: map[string]any{"command": "printf 0123456789abcdefghij"},
			want: "0123456789abcdefghij\n[exit code 0]\n"},
		{name: "timeout capped", opts: Options{BashMaxTimeout: time.Second}, args: map[string]any{"command": "echo hi", "timeout_ms": 9999999}, want: "[timeout_ms capped at 1000]\nhi\n[exit code 0]\n"},
		{name: "env replaced", opts: Options{BashEnv: []string{"ZERO_T=1", "PATH=" + os.Getenv("PATH")}}, args: map[string]any{"command": "echo $ZERO_T$HOME"}, want: "1\n[exit code 0]\n"},
		{name: "wrapper rewrites", opts: Options{CommandWrapper: func(_ context.Context, c *exec.Cmd) error {
			c.Args = append([]string{"env", "WRAPPED=yes"}, c.Args...)
			var err error
			c.Path, err = exec.LookPath("env")
			return err
		}}, args: map[string]any{"command": "echo $WRAPPED"}, want: "yes\n[exit code 0]\n"},
		{name: "wrapper refuses", opts: Options{CommandWrapper: func(context.Context, *exec.Cmd) error { return errors.New("no sandbox") }}, args: map[string]any{"command": "echo x"}, want: "command refused: no sandbox", isError: true},
		{name: "empty command", args: map[string]any{"command": "  "}, want: "command is required", isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := NewRegistry(Core(ws, tt.opts)...)
			res := call(t, reg, "bash", tt.args)
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v: %q", res.IsError, res.Content)
			}
			if tt.want != "" && res.Content != tt.want {
				t.Fatalf("content = %q, want %q", res.Content, tt.want)
			}
			for _, h := range tt.has {
				if !strings.Contains(res.Content, h) {
					t.Fatalf("content %q lacks %q", res.Content, h)
				}
			}
			if res.RawBytes != tt.raw {
				t.Fatalf("RawBytes = %d, want %d", res.RawBytes, tt.raw)
			}
			if res.ExitCode != nil && *res.ExitCode != tt.code {
				t.Fatalf("ExitCode = %d, want %d", *res.ExitCode, tt.code)
			}
			if res.ExitCode == nil && !strings.HasPrefix(res.Content, "command") {
				t.Fatal("ExitCode not set")
			}
		})
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// readPid waits for the command under test to write its child's pid.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for range 500 {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("command never wrote its pid")
	return 0
}

func TestBashKillsProcessGroup(t *testing.T) {
	tests := []struct {
		name    string
		command string
		timeout int
		cancel  bool
		has     string
	}{
		{name: "timeout", command: "sleep 60 & echo $! > pid; wait", timeout: 300, has: "[timed out after 300ms; process group killed"},
		{name: "cancel", command: "sleep 60 & echo $! > pid; wait", cancel: true, has: "[interrupted; process group killed]"},
		{name: "leftover background job", command: "sleep 60 & echo $! > pid", has: "[exit code 0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ws, _ := newWS(t, dir)
			tool := &Bash{ws: ws, opts: Options{}.withDefaults()}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pidFile := filepath.Join(ws.Root(), "pid")
			if tt.cancel {
				go func() {
					readPid(t, pidFile)
					cancel()
				}()
			}
			args := `{"command":` + strconv.Quote(tt.command)
			if tt.timeout > 0 {
				args += `,"timeout_ms":` + strconv.Itoa(tt.timeout)
			}
			res, err := tool.Run(ctx, []byte(args+"}"))
			if tt.cancel != (err != nil) {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(res.Content, tt.has) {
				t.Fatalf("content %q lacks %q", res.Content, tt.has)
			}
			pid := readPid(t, pidFile)
			for range 200 { // SIGKILL delivery is asynchronous
				if !alive(pid) {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Fatalf("child %d still running", pid)
		})
	}
}

func TestHeadTail(t *testing.T) {
	tests := []struct {
		half   int
		writes []string
		want   string
	}{
		{half: 10, writes: []string{"short"}, want: "short\n"},
		{half: 4, writes: []string{"abcd", "efgh"}, want: "abcdefgh\n"},
		{half: 3, writes: []string{"ab", "cdefg", "hij"}, want: "abc\n[... 4 bytes omitted; output was 10 bytes in all; redirect to a file and read_file or grep it to see more ...]\nhij\n"},
		// Head and tail that end lines get no blank line around the marker.
		{half: 3, writes: []string{"ab\n", "123456\n", "xy\n"}, want: "ab\n[... 7 bytes omitted; output was 13 bytes in all; redirect to a file and read_file or grep it to see more ...]\nxy\n"},
		// "é" is two bytes: neither cut may split it.
		{half: 2, writes: []string{"aé", "xxxx", "éb"}, want: "a\n[... 8 bytes omitted; output was 10 bytes in all; redirect to a file and read_file or grep it to see more ...]\nb\n"},
	}
	for _, tt := range tests {
		h := &headTail{half: tt.half}
		for _, w := range tt.writes {
			h.Write([]byte(w))
		}
		if got := h.String("", 0); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.writes, got, tt.want)
		}
	}
}

func TestCoreToolsAreSmall(t *testing.T) {
	ws, _ := newWS(t, t.TempDir())
	total := 0
	names := map[string]bool{}
	for _, tool := range Core(ws, Options{}) {
		names[tool.Name()] = true
		d := tool.Description()
		if strings.Count(strings.TrimSuffix(d, "."), ". ") > 0 || len(d) > 200 {
			t.Errorf("%s: description is not one short sentence: %q", tool.Name(), d)
		}
		total += len(tool.Name()) + len(d) + len(tool.Schema())
		var sch struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   *[]string                  `json:"required"`
		}
		if err := json.Unmarshal(tool.Schema(), &sch); err != nil || sch.Type != "object" || len(sch.Properties) == 0 {
			t.Errorf("%s: bad schema %s (%v)", tool.Name(), tool.Schema(), err)
		}
		if strings.Contains(string(tool.Schema()), "null") {
			t.Errorf("%s: schema holds null: %s", tool.Name(), tool.Schema())
		}
		if sch.Required != nil {
			for _, r := range *sch.Required {
				if _, ok := sch.Properties[r]; !ok {
					t.Errorf("%s: required %q is not a property", tool.Name(), r)
				}
			}
		}
	}
	for _, n := range []string{"read_file", "list_dir", "glob", "grep", "write_file", "edit_file", "bash"} {
		if !names[n] {
			t.Errorf("Core lacks %s", n)
		}
	}
	if total > 2500 {
		t.Errorf("core tool specs are %d bytes; keep them under 2500", total)
	}
}

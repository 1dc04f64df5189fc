package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tui/cells"
)

// TestPipedStdinFollowsPrompt: with a prompt and piped stdin, exec sends
// the prompt, then the piped text as delimited context (as `cat log |
// claude -p "summarize"`); "-" or no prompt reads the prompt from stdin;
// a terminal, empty input or -i stream-json (stdin answers permission
// requests) add nothing.
func TestPipedStdinFollowsPrompt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stdin string
		tty   bool
		pos   []string
		input string
		want  string
		// wantPiped is the text kept to follow the prompt (the run layer
		// joins them: run.Session.WithInput).
		wantPiped string
	}{
		{name: "prompt and piped text", stdin: "E1 build failed\nE2 link error\n", pos: []string{"summarize"},
			want: "summarize", wantPiped: "E1 build failed\nE2 link error\n"},
		{name: "dash reads the prompt", stdin: "explain main.go\n", pos: []string{"-"}, want: "explain main.go\n"},
		{name: "no prompt reads stdin", stdin: "explain main.go", want: "explain main.go"},
		{name: "empty pipe", stdin: "\n", pos: []string{"summarize"}, want: "summarize", wantPiped: "\n"}, // WithInput drops it
		{name: "a terminal is not read", stdin: "typed ahead", tty: true, pos: []string{"summarize"}, want: "summarize"},
		{name: "stream-json keeps stdin", stdin: `{"type":"permission_decision"}`, pos: []string{"write"}, input: "stream-json", want: "write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.NewReader(tc.stdin)
			o := &execOptions{output: "stream-json", input: tc.input}
			if err := finishExec(stdio{in: in, inIsTTY: tc.tty}, o, tc.pos); err != nil {
				t.Fatal(err)
			}
			if o.prompt != tc.want || o.piped != tc.wantPiped {
				t.Fatalf("prompt %q and piped %q, want %q and %q", o.prompt, o.piped, tc.want, tc.wantPiped)
			}
			if (tc.tty || tc.input != "") && in.Len() != len(tc.stdin) {
				t.Fatalf("stdin was read (%d bytes left of %d)", in.Len(), len(tc.stdin))
			}
		})
	}
}

// TestPlanWithAutoApproveIsUsageError: plan mode and --auto-approve
// contradict each other: exit 2 before any request.
func TestPlanWithAutoApproveIsUsageError(t *testing.T) {
	isolate(t)
	srv := llmtest.NewServer(t)
	for _, args := range [][]string{
		{"exec", "--permission-mode", "plan", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "plan it"},
		{"exec", "--auto-approve", "--permission-mode=plan", "--base-url", srv.URL(), "--model", "m", "plan it"},
	} {
		r := zero(args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "contradict") {
			t.Errorf("zero %q: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
	if n := completions(srv); n != 0 {
		t.Fatalf("%d model requests reached the server", n)
	}
}

// completions counts the chat completion requests srv received (set-up
// may ask it for its models and window).
func completions(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			n++
		}
	}
	return n
}

// TestModelsWithoutKeyShowsTheCatalog: `zero models openai` with no key
// lists the catalog's OpenAI models, marked as not the live list, and
// says which variable to set, without any connection: the default
// transport is replaced by one that records dials and refuses them (so
// nothing leaves the machine), and the same command with a key set
// proves that it does see the dial.
func TestModelsWithoutKeyShowsTheCatalog(t *testing.T) {
	isolate(t)
	var dials atomic.Int32
	saved := http.DefaultTransport
	http.DefaultTransport = &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		dials.Add(1)
		return nil, errors.New("test: no network")
	}}
	t.Cleanup(func() { http.DefaultTransport = saved })

	r := zero("models", "openai")
	if r.code != ExitOK || !strings.Contains(r.out, "gpt-4.1") || !strings.Contains(r.out, "not the live list") || !strings.Contains(r.errOut, "OPENAI_API_KEY") {
		t.Errorf("zero models openai: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
	if n := dials.Load(); n != 0 {
		t.Fatalf("%d connections tried without a key", n)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test")
	if r := zero("models", "openai"); r.code == ExitOK || dials.Load() == 0 {
		t.Fatalf("with a key: exit %d, %d dials (the recording transport is not in the path)", r.code, dials.Load())
	}
}

// TestModelsListsEachServedModelOnce: llama-server names its model in
// both an OpenAI "data" and an Ollama-style "models" array; `zero models`
// prints it once.
func TestModelsListsEachServedModelOnce(t *testing.T) {
	isolate(t)
	l := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 4096)
	t.Setenv("ZERO_BASE_URL", l.URL())
	if r := zero("models"); r.code != ExitOK || r.out != "qwen2.5-coder-0.5b-q8_0.gguf\n" {
		t.Errorf("zero models: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
}

// newSession stores a session of workspace ws with one prompt.
func newSession(t *testing.T, st *sessions.Store, ws, prompt string) string {
	t.Helper()
	s, err := st.Create(sessions.Metadata{Workspace: ws, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	msg := llm.TextMessage(llm.RoleUser, prompt)
	for _, ev := range []event.Event{{Type: event.RunStart, Prompt: prompt}, {Type: event.Message, Message: &msg}} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	return s.ID()
}

// TestSessionsAllShowsWorkspace: `zero sessions --all` lists every
// workspace's sessions with a WORKSPACE column; without --all, this
// workspace's only, without it.
func TestSessionsAllShowsWorkspace(t *testing.T) {
	_, here := isolate(t)
	other := canonicalDir(t.TempDir())
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	mine := newSession(t, st, here, "fix the parser")
	theirs := newSession(t, st, other, "write the docs")

	all := zero("sessions", "--all")
	lines := strings.Split(strings.TrimSpace(all.out), "\n")
	if all.code != ExitOK || len(lines) != 3 || strings.Join(strings.Fields(lines[0]), " ") != "ID UPDATED PROMPTS WORKSPACE FIRST PROMPT" {
		t.Fatalf("zero sessions --all: exit %d\n%s%s", all.code, all.out, all.errOut)
	}
	for _, want := range [][]string{{mine, here, "fix the parser"}, {theirs, other, "write the docs"}} {
		row := ""
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, want[0]) {
				row = l
			}
		}
		if f := strings.Fields(row); len(f) < 6 || f[4] != want[1] || !strings.HasSuffix(row, want[2]) {
			t.Errorf("row of %s: %q, want workspace %s and prompt %q", want[0], row, want[1], want[2])
		}
	}
	mineOnly := zero("sessions")
	lines = strings.Split(strings.TrimSpace(mineOnly.out), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], "WORKSPACE") || !strings.HasPrefix(lines[1], mine) {
		t.Fatalf("zero sessions:\n%s", mineOnly.out)
	}
}

// TestSessionsListIsTheListing: `zero sessions list` (as `zero agents
// list`, `zero loop list`) prints what `zero sessions` prints, --all too.
func TestSessionsListIsTheListing(t *testing.T) {
	_, here := isolate(t)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	newSession(t, st, here, "fix the parser")
	newSession(t, st, canonicalDir(t.TempDir()), "write the docs")
	for _, args := range [][]string{{"sessions"}, {"sessions", "--all"}} {
		want := zero(args...)
		got := zero(append([]string{"sessions", "list"}, args[1:]...)...)
		if got.code != ExitOK || got.out != want.out || !strings.Contains(got.out, "fix the parser") {
			t.Errorf("zero sessions list %q: exit %d\n%s%s\nwant\n%s", args[1:], got.code, got.out, got.errOut, want.out)
		}
	}
}

// TestAmbiguousSessionIDIsUsageError: an id prefix that names two
// sessions exits 2 (it is how zero was called, not a crash), for exec's
// --resume and for context's --session alike.
func TestAmbiguousSessionIDIsUsageError(t *testing.T) {
	_, here := isolate(t)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	a, b := newSession(t, st, here, "one"), newSession(t, st, here, "two")
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	prefix := a[:n]
	srv := llmtest.NewServer(t)
	for _, args := range [][]string{
		{"context", "--session", prefix},
		{"exec", "--resume=" + prefix, "--base-url", srv.URL(), "--model", "m", "go on"},
	} {
		r := zero(args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "ambiguous") {
			t.Errorf("zero %q: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
	if n := completions(srv); n != 0 {
		t.Fatalf("%d model requests reached the server", n)
	}
}

// TestContextUsesTheSessionsWindow: `zero context` reports against the
// window the session last ran with (its run_start events record it), not
// a guess from the catalog (issue 10 item 7).
func TestContextUsesTheSessionsWindow(t *testing.T) {
	s := localSession(t)
	msg := llm.TextMessage(llm.RoleUser, "hello")
	for _, ev := range []event.Event{{Type: event.RunStart, Prompt: "hello", ContextWindow: 8192}, {Type: event.Message, Message: &msg}} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	r := zero("context")
	if r.code != ExitOK || !strings.Contains(r.out, "window 8192 tokens (the window the session ran with)") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"system prompt", "tool schemas"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.out)
		}
	}
}

// TestContradictoryExecFlagsAreUsageErrors: --resume with --fork, and a
// --max-turns that allows no request, exit 2 before any model is asked
// (QA: fork won silently; 0 and -3 ran).
func TestContradictoryExecFlagsAreUsageErrors(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--resume=20261201-000000-aaaaaa", "--fork", "20261201-000000-aaaaaa", "go"}, "pass one of them"},
		{[]string{"exec", "--resume", "--fork", "20261201-000000-aaaaaa", "go"}, "pass one of them"},
		{[]string{"exec", "--max-turns", "0", "go"}, "--max-turns must be a positive"},
		{[]string{"exec", "--max-turns", "-3", "go"}, "--max-turns must be a positive"},
		{[]string{"exec", "--allowed-tools", "Bash(go test", "go"}, `--allowed-tools: rule "Bash(go test"`},
		{[]string{"exec", "--disallowedTools", "Task(x)", "go"}, "--disallowed-tools: rule \"Task(x)\": Zero matches Task only as a whole tool"},
	} {
		r := zero(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tc.want) {
			t.Errorf("zero %v: exit %d %q, want 2 and %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
}

// TestUsageErrorsNameWhatIsWrong: trusting a folder that is not there, and
// a --session that names no session, are usage errors that say so (QA:
// trust exited 1, context blamed the workspace).
func TestUsageErrorsNameWhatIsWrong(t *testing.T) {
	isolate(t)
	if r := zero("trust", "/no/such/folder"); r.code != ExitUsage || !strings.Contains(r.errOut, "/no/such/folder is not a folder") {
		t.Errorf("trust: exit %d %q", r.code, r.errOut)
	}
	if r := zero("context", "--session", "zzz"); r.code != ExitUsage || !strings.Contains(r.errOut, `no session "zzz"`) {
		t.Errorf("context: exit %d %q", r.code, r.errOut)
	}
}

// TestHooksTestBadInputSaysWhy: `zero hooks test --input` that is not a
// JSON object exits 2 naming --input and the JSON problem, not a hook
// field (updatedInput) the user never wrote.
func TestHooksTestBadInputSaysWhy(t *testing.T) {
	isolate(t)
	for in, want := range map[string]string{`{bad`: "invalid character", `[1]`: "cannot unmarshal array", `null`: "not an object"} {
		r := zero("hooks", "test", "PreToolUse", "--tool", "Bash", "--input", in)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "--input must be a JSON object") || !strings.Contains(r.errOut, want) || strings.Contains(r.errOut, "updatedInput") {
			t.Errorf("--input %s: exit %d, stderr %q", in, r.code, r.errOut)
		}
	}
}

// TestForkAtZeroIsUsageError: `--fork ID --at 0` (or a negative N) exits
// 2 before anything is sent; it used to fork the whole session as if
// --at were not given. `zero sessions rewind ID --to 0` likewise (it
// listed the prompts and exited 0).
func TestForkAtZeroIsUsageError(t *testing.T) {
	_, here := isolate(t)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	id := newSession(t, st, here, "one")
	srv := llmtest.NewServer(t)
	for _, at := range []string{"0", "-1"} {
		r := zero("exec", "--fork", id, "--at", at, "--base-url", srv.URL(), "--model", "m", "again")
		if r.code != ExitUsage || !strings.Contains(r.errOut, "numbered from 1") {
			t.Errorf("--at %s: exit %d, stderr %q", at, r.code, r.errOut)
		}
		r = zero("sessions", "rewind", id, "--to", at)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "numbered from 1") {
			t.Errorf("rewind --to %s: exit %d, stderr %q", at, r.code, r.errOut)
		}
	}
	if n := completions(srv); n != 0 {
		t.Fatalf("%d model requests reached the server", n)
	}
}

// TestExecTakesClaudesOutputFormat: `--output-format json` (claude -p's
// spelling) is -o json, --input-format is -i, and --verbose is taken.
func TestExecTakesClaudesOutputFormat(t *testing.T) {
	isolate(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("done")))
	r := zero("exec", "--output-format", "json", "--base-url", srv.URL(), "--model", "m", "go")
	var res struct{ Type, Final string }
	if err := json.Unmarshal([]byte(r.out), &res); r.code != ExitOK || err != nil || res.Type != "result" || res.Final != "done" {
		t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.out, r.errOut)
	}
	if r := zero("exec", "--input-format", "text", "go"); r.code != ExitUsage || !strings.Contains(r.errOut, "-i must be stream-json") {
		t.Fatalf("--input-format text: exit %d, %q", r.code, r.errOut)
	}
	// claude -p scripts add --verbose to stream-json: accepted, no effect.
	srv.Script(llmtest.Reply(llmtest.Text("streamed")))
	r = zero("exec", "--output-format", "stream-json", "--verbose", "--base-url", srv.URL(), "--model", "m", "go")
	if r.code != ExitOK || !strings.Contains(r.out, `"subtype":"success"`) || !strings.Contains(r.out, "streamed") {
		t.Fatalf("--output-format stream-json --verbose: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

// A one-line cell of a listing (zero sessions' first prompt) is cut by
// the cells it takes on screen: a CJK character takes two.
func TestOneLineCutsByScreenCells(t *testing.T) {
	for in, want := range map[string]string{
		"fix\n  it":    "fix it",
		"abcdefghijkl": "abcdefghi…",
		"テストを直してください":  "テストを…",
	} {
		if got := oneLine(in, 10); got != want || cells.Width(got) > 10 {
			t.Errorf("oneLine(%q, 10) = %q, want %q", in, got, want)
		}
	}
}

// TestResumeIDWithoutPromptIsUsageError: `zero exec --resume ID` typed at
// a terminal takes ID as the session (not as the prompt, not the latest
// session): with no prompt it exits 2 asking for one, nothing sent; with
// a prompt it continues that session even when another is newer. --fork
// ID without a prompt is the same usage error.
func TestResumeIDWithoutPromptIsUsageError(t *testing.T) {
	_, here := isolate(t)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	older := newSession(t, st, here, "one")
	newSession(t, st, here, "two")
	srv := llmtest.NewServer(t)
	tty := stdio{in: strings.NewReader(""), inIsTTY: true}
	for _, args := range [][]string{
		{"exec", "-o", "json", "--resume", older, "--base-url", srv.URL(), "--model", "m"},
		{"exec", "-o", "json", "--fork", older, "--base-url", srv.URL(), "--model", "m"},
	} {
		r := zeroIn(tty, args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "give a prompt") || !strings.Contains(r.errOut, older) {
			t.Errorf("zero %q: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
	if n := completions(srv); n != 0 {
		t.Fatalf("%d model requests reached the server", n)
	}
	srv.Script(llmtest.Reply(llmtest.Text("done")))
	r := zeroIn(tty, "exec", "-o", "json", "--resume", older, "--base-url", srv.URL(), "--model", "m", "go on")
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); r.code != ExitOK || err != nil || res.SessionID != older {
		t.Fatalf("exit %d, sessionId %q (want %s), stdout %q, stderr %q", r.code, res.SessionID, older, r.out, r.errOut)
	}
}

// TestProvidersAddSaysWhetherItIsActive: a profile that becomes the one
// runs use (the only profile in the user config is) says so and how to
// switch back; a second one does not take over, nor leave none active
// (the first is written down as active), and says which is.
func TestProvidersAddSaysWhetherItIsActive(t *testing.T) {
	isolate(t)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	r := zero("providers", "add", "local", "--base-url", "http://127.0.0.1:9/v1")
	if r.code != ExitOK || !strings.Contains(r.out, "local: saved") || !strings.Contains(r.out, "local is now the active provider (it was openai: zero providers use openai switches back)") {
		t.Fatalf("first profile: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
	r = zero("providers", "add", "other", "--base-url", "http://127.0.0.1:8080/v1")
	if r.code != ExitOK || !strings.Contains(r.out, "other is not active: local still is (zero providers use other switches)") {
		t.Fatalf("second profile: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
}

// TestProvidersAddRefusesAnUnusableProfile: a profile with no base URL
// that no hosted API supplies is a usage error naming --base-url, and is
// not saved; a hosted kind without --base-url takes its API's URL.
func TestProvidersAddRefusesAnUnusableProfile(t *testing.T) {
	isolate(t)
	r := zero("providers", "add", "y")
	if r.code != ExitUsage || !strings.Contains(r.errOut, `provider "y" needs --base-url URL`) {
		t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
	}
	if r := zero("providers"); strings.Contains(r.out, " y ") {
		t.Fatalf("the refused profile was saved:\n%s", r.out)
	}
	t.Setenv("WORK_ANTHROPIC_KEY", "sk-ant-test")
	r = zero("providers", "add", "work", "--kind", "anthropic", "--api-key-env", "WORK_ANTHROPIC_KEY", "--model", "claude-sonnet-4-5")
	if r.code != ExitOK {
		t.Fatalf("hosted kind: exit %d, stderr %q", r.code, r.errOut)
	}
	res, err := namedProvider("work")
	if err != nil || res.BaseURL != "https://api.anthropic.com" || res.Kind != "anthropic" {
		t.Fatalf("work resolves to %+v, %v", res, err)
	}
}

// TestServerNotRunningNamesTheURL: a --base-url where nothing listens is
// named as what did not answer, with or without --model, and the hint
// does not ask for the --base-url already passed; a profile's URL from
// the config file still gets "or pass --base-url".
func TestServerNotRunningNamesTheURL(t *testing.T) {
	isolate(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	r := zero("exec", "--base-url", url, "x")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "nothing answered at "+url+" (no server is listening on "+l.Addr().String()+")") ||
		strings.Contains(r.errOut, "pass --") {
		t.Errorf("no --model: exit %d, stderr %q", r.code, r.errOut)
	}
	r = zero("exec", "--base-url", url, "--model", "m", "x")
	if r.code != ExitProvider || !strings.Contains(r.errOut, "no server is listening on "+l.Addr().String()) ||
		!strings.Contains(r.errOut, "at the address --base-url gives") || strings.Contains(r.errOut, "pass --base-url") {
		t.Errorf("--model m: exit %d, stderr %q", r.code, r.errOut)
	}
	if r := zero("providers", "add", "local", "--base-url", url); r.code != ExitOK {
		t.Fatalf("providers add: exit %d %q", r.code, r.errOut)
	}
	if r := zero("exec", "x"); r.code != ExitUsage || !strings.Contains(r.errOut, "nothing answered at "+url) || !strings.Contains(r.errOut, "or pass --base-url") {
		t.Errorf("profile: exit %d, stderr %q", r.code, r.errOut)
	}
}

// TestBadSourcesAndPortsAreUsageErrors: a plugin path that is not there
// or is a file, and a --ports value no TCP port has, exit 2 with one
// sentence naming what is wrong (they exited 1 with a bare stat error,
// and 99999 was probed).
func TestBadSourcesAndPortsAreUsageErrors(t *testing.T) {
	_, dir := isolate(t)
	writeFile(t, filepath.Join(dir, "notes.txt"), "x")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plugin", "add", "./nonexistent"}, "no folder ./nonexistent: zero plugin add takes a plugin folder, a git URL or NAME@MARKETPLACE"},
		{[]string{"plugin", "add", "notes.txt"}, "notes.txt is a file, not a plugin folder"},
		{[]string{"scan", "--ports", "99999"}, "--ports 99999: a TCP port is 1 to 65535"},
		{[]string{"scan", "--ports", "8080,0"}, "--ports 0: a TCP port is 1 to 65535"},
	} {
		r := zero(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tc.want) || strings.Contains(r.errOut, "stat ") {
			t.Errorf("zero %q: exit %d, stderr %q, want 2 and %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
}

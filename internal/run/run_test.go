package run

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/testbin"
)

// isolate keeps the test off the machine's setup.
func isolate(t *testing.T) string { return testbin.Isolate(t) }

// openSession opens the session w names, closed at the end of the test.
func openSession(t *testing.T, rt *Runtime, w Which) *Session {
	t.Helper()
	sess, err := rt.OpenSession(w)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	return sess
}

// openTest opens a runtime over the fake server srv in a fresh workspace.
func openTest(t *testing.T, srv *llmtest.Server, o Options) (*Runtime, *bytes.Buffer) {
	t.Helper()
	isolate(t)
	return openIsolated(t, srv, o)
}

// openIsolated is openTest in the home the test already isolated (and
// set up: a config file, an MCP server).
func openIsolated(t testing.TB, srv *llmtest.Server, o Options) (*Runtime, *bytes.Buffer) {
	t.Helper()
	if o.Workdir == "" {
		o.Workdir = CanonicalDir(t.TempDir())
	}
	if o.Overrides.BaseURL == "" {
		o.Overrides = config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}
	}
	var stderr bytes.Buffer
	o.Stderr = &stderr
	rt, err := Open(o)
	if err != nil {
		t.Fatalf("Open: %v (%s)", err, stderr.String())
	}
	t.Cleanup(rt.Close)
	return rt, &stderr
}

// lastRequest is the newest request the fake server received.
func lastRequest(srv *llmtest.Server) map[string]any {
	reqs := srv.Requests()
	return reqs[len(reqs)-1].Map()
}

// lastUserText is the text of the newest request's last message.
func lastUserText(srv *llmtest.Server) string {
	msgs := lastRequest(srv)["messages"].([]any)
	return msgs[len(msgs)-1].(map[string]any)["content"].(string)
}

// logged reads the events a session's log holds.
func logged(t *testing.T, rt *Runtime, id string) []event.Event {
	t.Helper()
	s, err := rt.Store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs, _, err := s.Events()
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func ofType(evs []event.Event, typ event.Type) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// writeUserConfig writes the user config file.
func writeUserConfig(t *testing.T, body string) {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "config.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSessionLogRecordsRequestsDecisionsCostAndWindow: whatever the
// surface, the log holds each permission request next to its decision
// (stamped with the run), priced usage, and the window the run used (the
// app's logs had neither cost nor requests before issue 10).
func TestSessionLogRecordsRequestsDecisionsCostAndWindow(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("RUN_TEST_KEY", "sk-test")
	writeUserConfig(t, `{"providers":[{"name":"o","kind":"openai","baseURL":"`+srv.URL()+`/v1","apiKeyEnv":"RUN_TEST_KEY","model":"gpt-4.1"}],"activeProvider":"o"}`)
	var stderr bytes.Buffer
	dir := CanonicalDir(t.TempDir())
	rt, err := Open(Options{Workdir: dir, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v (%s)", err, stderr.String())
	}
	defer rt.Close()
	sess, err := rt.OpenSession(Which{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"a.txt","content":"hi\n"}`), llmtest.Usage(1000, 10)),
		llmtest.Reply(llmtest.Text("done"), llmtest.Usage(1100, 5)),
	)
	var asked []permission.Request
	var surface []event.Event
	res := sess.Prompt(context.Background(), Turn{Prompt: "write a.txt", Sink: event.SinkFunc(func(e event.Event) { surface = append(surface, e) }),
		Ask: func(ctx context.Context, req permission.Request) permission.Decision {
			asked = append(asked, req)
			return permission.Decision{Choice: permission.AllowOnce}
		}})
	if res.StopReason != event.StopCompleted || len(asked) != 1 {
		t.Fatalf("stop %s, asked %d", res.StopReason, len(asked))
	}
	sess.Close()
	evs := logged(t, rt, sess.ID())
	reqs, decs := ofType(evs, event.PermissionRequest), ofType(evs, event.PermissionDecision)
	if len(reqs) != 1 || len(decs) != 1 {
		t.Fatalf("log has %d requests, %d decisions", len(reqs), len(decs))
	}
	if p := reqs[0].Permission; p.Tool != "write_file" || p.Path != "a.txt" || !strings.Contains(p.Diff, "+hi") || reqs[0].RunID == "" {
		t.Errorf("request %+v run %q", p, reqs[0].RunID)
	}
	if p := decs[0].Permission; p.Decision != "allow_once" || p.ID != reqs[0].Permission.ID || decs[0].RunID != reqs[0].RunID {
		t.Errorf("decision %+v", p)
	}
	ends := ofType(evs, event.RunEnd)
	if len(ends) != 1 || ends[0].Totals == nil || ends[0].Totals.CostUSD <= 0 {
		t.Fatalf("run_end without a cost: %+v", ends)
	}
	starts := ofType(evs, event.RunStart)
	if len(starts) != 1 || starts[0].ContextWindow != rt.Window || rt.Window <= 0 {
		t.Errorf("run_start window %d, runtime window %d", starts[0].ContextWindow, rt.Window)
	}
	// The surface saw the same request and decision.
	if len(ofType(surface, event.PermissionRequest)) != 1 || len(ofType(surface, event.PermissionDecision)) != 1 {
		t.Errorf("surface missed the permission events")
	}
}

// TestShellOutputReachesTheNextPrompt: a `!cmd` and its output are logged
// and go to the model with the next prompt, after the user's words.
func TestShellOutputReachesTheNextPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	sess := openSession(t, rt, Which{})
	out := sess.Shell(context.Background(), "echo from-the-shell; exit 3")
	if out.Err != nil || out.ExitCode == nil || *out.ExitCode != 3 || !strings.Contains(out.Output, "from-the-shell") {
		t.Fatalf("shell %+v", out)
	}
	srv.Script(llmtest.Reply(llmtest.Text("I see exit 3")))
	if res := sess.Prompt(context.Background(), Turn{Prompt: "why did it fail?"}); res.StopReason != event.StopCompleted {
		t.Fatalf("stop %s", res.StopReason)
	}
	user := lastUserText(srv)
	if !strings.HasPrefix(user, "why did it fail?") || !strings.Contains(user, "$ echo from-the-shell; exit 3") || !strings.Contains(user, "exit 3") || !strings.Contains(user, "from-the-shell") {
		t.Fatalf("prompt sent:\n%s", user)
	}
	// Only once: the next prompt carries no stale note.
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	sess.Prompt(context.Background(), Turn{Prompt: "thanks"})
	if user := lastUserText(srv); user != "thanks" {
		t.Fatalf("second prompt %q", user)
	}
	evs := logged(t, rt, sess.ID())
	if len(ofType(evs, event.UserShell)) != 1 {
		t.Error("the !cmd is not in the log")
	}
	// run_start keeps the user's words alone: session lists and rewind
	// points show what the user asked, not the notes.
	if starts := ofType(evs, event.RunStart); len(starts) != 2 || starts[0].Prompt != "why did it fail?" {
		t.Errorf("run_start prompts %+v", starts)
	}
}

// TestModeSwitchChangesToolsAndSystemPrompt: plan mode offers read-only
// tools and says so in the system prompt; leaving it restores both, and
// the default prompt is the one a normal session starts with.
func TestModeSwitchChangesToolsAndSystemPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	sess := openSession(t, rt, Which{})
	type seen struct {
		system string
		tools  []string
	}
	ask := func(prompt string) seen {
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		sess.Prompt(context.Background(), Turn{Prompt: prompt})
		req := lastRequest(srv)
		var s seen
		s.system = req["messages"].([]any)[0].(map[string]any)["content"].(string)
		for _, tl := range req["tools"].([]any) {
			s.tools = append(s.tools, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
		}
		return s
	}
	normal := ask("one")
	sess.SetMode(permission.ModePlan)
	plan := ask("two")
	sess.SetMode(permission.ModeNormal)
	back := ask("three")
	if !strings.Contains(plan.system, "You are in plan mode") || strings.Contains(normal.system, "plan mode") {
		t.Errorf("system prompts:\nnormal: %s\nplan: %s", normal.system, plan.system)
	}
	if back.system != normal.system || strings.Join(back.tools, ",") != strings.Join(normal.tools, ",") {
		t.Errorf("leaving plan mode did not restore the prompt and tools")
	}
	for _, n := range plan.tools {
		if n == "bash" || n == "write_file" || n == "edit_file" {
			t.Errorf("plan mode offers %s", n)
		}
	}
}

// TestModeSpellings: the config's and the flag's modes are parsed by one
// parser; the command line beats the config; --permission-mode and
// --auto-approve together must agree.
func TestModeSpellings(t *testing.T) {
	cfg := &config.Config{}
	for _, tc := range []struct {
		flag, cfgMode string
		auto, cfgAuto bool
		want          permission.Mode
		wantErr       string
	}{
		{cfgMode: "ask", want: permission.ModeNormal},
		{cfgMode: "normal", want: permission.ModeNormal},
		{flag: "ask", want: permission.ModeNormal},
		{flag: "acceptEdits", want: permission.ModeAutoAccept},
		{auto: true, want: permission.ModeAutoAccept},
		{cfgMode: "plan", cfgAuto: true, want: permission.ModePlan},
		{cfgMode: "plan", auto: true, want: permission.ModeAutoAccept},
		{flag: "plan", auto: true, wantErr: "contradict"},
		{flag: "normal", auto: true, wantErr: "contradict"},
		{flag: "auto-accept", auto: true, want: permission.ModeAutoAccept},
		{flag: "plan", cfgAuto: true, want: permission.ModePlan},
		{flag: "yolo", wantErr: "unknown permission mode"},
	} {
		cfg.PermissionMode, cfg.AutoApprove = tc.cfgMode, tc.cfgAuto
		got, err := resolveMode(Options{Mode: tc.flag, AutoApprove: tc.auto}, cfg)
		var ce *ConfigError
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !asConfigError(err, &ce)):
			t.Errorf("%+v: err %v, want a ConfigError with %q", tc, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("%+v: %q, %v, want %q", tc, got, err, tc.want)
		}
	}
}

func asConfigError(err error, target **ConfigError) bool {
	ce, ok := err.(*ConfigError)
	*target = ce
	return ok
}

// TestResumeInAnotherWorkspaceMovesTheSessionThere: a session resumed by
// id from another workspace opens with a warning naming both, and from
// then on belongs to the workspace it works in: that one's latest is it,
// the old one's is not.
func TestResumeInAnotherWorkspaceMovesTheSessionThere(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	sess, err := rt.OpenSession(Which{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	sess.Prompt(context.Background(), Turn{Prompt: "hello"})
	sess.Close()
	other := CanonicalDir(t.TempDir())
	var stderr bytes.Buffer
	rt2, err := Open(Options{Workdir: other, Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	s2, err := rt2.OpenSession(Which{ID: sess.ID()})
	if err != nil {
		t.Fatal(err)
	}
	if w := stderr.String(); !strings.Contains(w, "was in "+rt.Workspace.Root()) || !strings.Contains(w, "now works in this folder ("+other+")") {
		t.Errorf("warning %q", w)
	}
	if len(s2.History()) == 0 {
		t.Error("resumed without its history")
	}
	s2.Close()
	latest, err := rt2.OpenSession(Which{Latest: true})
	if err != nil || latest.ID() != sess.ID() {
		t.Fatalf("latest in the workspace it moved to: %v", err)
	}
	latest.Close()
	if _, err := rt.OpenSession(Which{Latest: true}); err == nil || !strings.Contains(err.Error(), "no session to resume") {
		t.Errorf("latest in the workspace it left: %v", err)
	}
}

// TestEmptySessionIsNotKept: a session opened and closed without a prompt
// leaves nothing to resume (the app opened and closed, then exec
// --resume continues the last real conversation).
func TestEmptySessionIsNotKept(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	real, _ := rt.OpenSession(Which{})
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	real.Prompt(context.Background(), Turn{Prompt: "the real one"})
	real.Close()
	empty, err := rt.OpenSession(Which{})
	if err != nil {
		t.Fatal(err)
	}
	empty.Close()
	if empty.Kept() || !real.Kept() {
		t.Fatalf("kept: empty %v, real %v", empty.Kept(), real.Kept())
	}
	again, err := rt.OpenSession(Which{Latest: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.ID() != real.ID() {
		t.Fatalf("--resume opened %s, want %s", again.ID(), real.ID())
	}
}

// TestModelSwitchFollowsTheNewWindow: /model moves the window (reports,
// compaction, the next run_start) to the new model's (QA: it kept the
// old model's 1M window after switching to a small one).
func TestModelSwitchFollowsTheNewWindow(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("RUN_TEST_KEY", "sk-test")
	writeUserConfig(t, `{"providers":[{"name":"o","kind":"openai","baseURL":"`+srv.URL()+`/v1","apiKeyEnv":"RUN_TEST_KEY","model":"gpt-4.1"}],"activeProvider":"o"}`)
	rt, err := Open(Options{Workdir: CanonicalDir(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sess := openSession(t, rt, Which{})
	_, before := rt.ModelWindow()
	sess.SetModel("gpt-4o-mini")
	model, after := rt.ModelWindow()
	if model != "gpt-4o-mini" || after == before || after <= 0 {
		t.Fatalf("window %d → %d (model %s)", before, after, model)
	}
	if w := sess.ContextReport().WindowTokens; w != after {
		t.Errorf("report window %d, want %d", w, after)
	}
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	sess.Prompt(context.Background(), Turn{Prompt: "hi"})
	if m := lastRequest(srv)["model"]; m != "gpt-4o-mini" {
		t.Errorf("request model %v", m)
	}
	starts := ofType(logged(t, rt, sess.ID()), event.RunStart)
	if len(starts) != 1 || starts[0].ContextWindow != after {
		t.Errorf("run_start window %+v, want %d", starts, after)
	}
}

// TestShellOutputSurvivesAnExit: a `!cmd` run just before the app exited
// still reaches the model with the first prompt after a resume (QA: it was
// kept in the log but lost for the model).
func TestShellOutputSurvivesAnExit(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	sess, _ := rt.OpenSession(Which{})
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	sess.Prompt(context.Background(), Turn{Prompt: "first"})
	sess.Shell(context.Background(), "echo before-exit")
	sess.Close()
	again, err := rt.OpenSession(Which{Latest: true})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	srv.Script(llmtest.Reply(llmtest.Text("seen")))
	again.Prompt(context.Background(), Turn{Prompt: "what did it print?"})
	msgs := lastRequest(srv)["messages"].([]any)
	user := lastUserText(srv)
	if !strings.HasPrefix(user, "what did it print?") || !strings.Contains(user, "$ echo before-exit") || !strings.Contains(user, "before-exit\n") {
		t.Fatalf("prompt after resume:\n%s", user)
	}
	if n := strings.Count(fmt.Sprint(msgs), "$ echo before-exit"); n != 1 {
		t.Fatalf("the note was sent %d times", n)
	}
}

// TestSmallWindowUsesTheMinimalProfile: a window too small for Zero's
// default prompt and tools (a third of it or more) first leaves out
// exec_command and write_stdin (9 tools), then switches to the minimal
// profile (5 tools, short instructions) and says so once; a roomy window
// keeps the default, 11 tools (issue 11 item 6).
func TestSmallWindowUsesTheMinimalProfile(t *testing.T) {
	for _, tc := range []struct {
		window    int
		wantTools int
		warned    bool
	}{{2048, 5, true}, {2600, 9, false}, {16384, 11, false}} {
		srv := llmtest.NewServer(t)
		isolate(t)
		t.Setenv("ZERO_CONTEXT_WINDOW", fmt.Sprint(tc.window))
		var stderr bytes.Buffer
		rt, err := Open(Options{Workdir: CanonicalDir(t.TempDir()), Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}, Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		sess := openSession(t, rt, Which{})
		openSession(t, rt, Which{}) // a second session: no second warning
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		sess.Prompt(context.Background(), Turn{Prompt: "hi"})
		req := lastRequest(srv)
		system := req["messages"].([]any)[0].(map[string]any)["content"].(string)
		if n := len(req["tools"].([]any)); n != tc.wantTools {
			t.Errorf("window %d: %d tools, want %d", tc.window, n, tc.wantTools)
		}
		if minimal := strings.HasPrefix(system, "You are Zero, a coding agent in the user's repository. Use tools"); minimal != tc.warned {
			t.Errorf("window %d: minimal system prompt %v:\n%s", tc.window, minimal, system)
		}
		if n := strings.Count(stderr.String(), "using the minimal profile"); n != map[bool]int{true: 1, false: 0}[tc.warned] {
			t.Errorf("window %d: warned %d times: %s", tc.window, n, stderr.String())
		}
	}
}

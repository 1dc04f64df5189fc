package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

func TestExecJSONOutput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("r1", "read_file", `{"path":"a.txt"}`), llmtest.Usage(500, 10)),
		llmtest.Reply(llmtest.Text("It says alpha."), llmtest.Usage(600, 5)),
	)
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "llmtest-model", "what does a.txt say?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var s struct {
		Type, Final, StopReason, SessionID string
		ToolCalls                          []struct {
			Name      string
			IsError   bool
			RawBytes  int
			KeptBytes int
		}
		Totals struct {
			Turns, ToolCalls int
			Usage            struct{ InputTokens, OutputTokens int }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r.stdout)
	}
	if s.Type != "result" || s.Final != "It says alpha." || s.StopReason != "completed" || s.SessionID == "" {
		t.Fatalf("summary %+v", s)
	}
	if len(s.ToolCalls) != 1 || s.ToolCalls[0].Name != "read_file" || s.ToolCalls[0].IsError || s.ToolCalls[0].RawBytes == 0 {
		t.Fatalf("tool calls %+v", s.ToolCalls)
	}
	if s.Totals.Turns != 2 || s.Totals.ToolCalls != 1 || s.Totals.Usage.InputTokens != 1100 || s.Totals.Usage.OutputTokens != 15 {
		t.Fatalf("totals %+v", s.Totals)
	}
}

func TestExecPromptFromStdinAndDashP(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("one")), llmtest.Reply(llmtest.Text("two")))
	if r := e.run(dir, "prompt from stdin\n", "exec", "--base-url", srv.URL(), "--model", "m", "-"); r.code != 0 || strings.TrimSpace(r.stdout) != "one" {
		t.Fatalf("stdin prompt: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(dir, "", "exec", "-p", "flag prompt", "--base-url", srv.URL(), "--model", "m"); r.code != 0 || strings.TrimSpace(r.stdout) != "two" {
		t.Fatalf("-p prompt: %d %q %s", r.code, r.stdout, r.stderr)
	}
	reqs := completions(srv)
	last := func(i int) string {
		msgs := reqs[i].Map()["messages"].([]any)
		return msgs[len(msgs)-1].(map[string]any)["content"].(string)
	}
	if last(0) != "prompt from stdin\n" || last(1) != "flag prompt" {
		t.Fatalf("prompts sent: %q %q", last(0), last(1))
	}
}

func TestExecExitCodes(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)

	// usage: no prompt
	if r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m"); r.code != 2 || !strings.Contains(r.stderr, "no prompt") {
		t.Fatalf("no prompt: %d %s", r.code, r.stderr)
	}
	// usage: nothing configured and no local server (ports probed on loopback only)
	if r := e.run(dir, "", "exec", "hello"); r.code != 2 || !strings.Contains(r.stderr, "ollama serve") || !strings.Contains(r.stderr, "OPENAI_API_KEY") {
		t.Fatalf("unconfigured: %d %s", r.code, r.stderr)
	}
	// provider error: bad key
	srv.Script(llmtest.Reply(llmtest.Error(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "hello")
	if r.code != 3 {
		t.Fatalf("auth error: exit %d %s", r.code, r.stderr)
	}
	evs := parseStream(t, r.stdout)
	var kind string
	for _, ev := range evs {
		if ev["type"] == "error" {
			kind, _ = ev["errorKind"].(string)
		}
	}
	if kind != "auth" || evs[len(evs)-1]["stopReason"] != "provider_error" {
		t.Fatalf("error event kind %q, end %v", kind, evs[len(evs)-1])
	}
	// incomplete: max turns
	srv.Script(llmtest.Reply(tc("x1", "list_dir", `{"path":"."}`)), llmtest.Reply(tc("x2", "list_dir", `{"path":"."}`)))
	if r := e.run(dir, "", "exec", "--max-turns", "1", "--base-url", srv.URL(), "--model", "m", "loop"); r.code != 4 {
		t.Fatalf("max turns: exit %d %s", r.code, r.stderr)
	}
}

func TestExecInterruptIsResumable(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	lines := signalMidStream(t, e, dir, srv, syscall.SIGINT)
	evs := parseStream(t, strings.Join(lines, "\n"))
	end := evs[len(evs)-1]
	if end["type"] != "run_end" || end["stopReason"] != "interrupted" || end["subtype"] != "interrupted" || end["isError"] != true {
		t.Fatalf("last event %v", end)
	}
	// the session resumes with the partial text in its history
	srv.Script(llmtest.Reply(llmtest.Text("resumed")))
	r := e.run(dir, "", "exec", "--resume", "--base-url", srv.URL(), "--model", "m", "go on")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "resumed" {
		t.Fatalf("resume after interrupt: %d %q %s", r.code, r.stdout, r.stderr)
	}
	reqs := completions(srv)
	msgs := reqs[len(reqs)-1].Map()["messages"].([]any)
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	if strings.Join(roles, " ") != "system user assistant user" {
		t.Fatalf("resumed roles %v", roles)
	}
	if c := msgs[2].(map[string]any)["content"]; c != "partial " {
		t.Fatalf("partial text not kept: %v", c)
	}
}

func TestHeadlessPermissions(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	write := `{"path":"new.txt","content":"hello\n"}`

	// Without approval a write is denied with a reason the model can read.
	srv.Script(llmtest.Reply(tc("w1", "write_file", write)), llmtest.Reply(llmtest.Text("could not write")))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "write new.txt")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Fatal("write ran without approval")
	}
	reqs := completions(srv)
	msgs := reqs[len(reqs)-1].Map()["messages"].([]any)
	tool := msgs[len(msgs)-1].(map[string]any)
	if tool["role"] != "tool" || !strings.Contains(tool["content"].(string), "auto-accept") {
		t.Fatalf("denial result %v", tool)
	}

	// With -i stream-json the request is answered by a permission_decision line.
	srv.Script(llmtest.Reply(tc("w2", "write_file", write)), llmtest.Reply(llmtest.Text("written")))
	var sawRequest bool
	_, code := e.converse(dir, func(ev map[string]any) []string {
		if ev["type"] != "permission_request" {
			return nil
		}
		p := ev["permission"].(map[string]any)
		if p["id"] != "w2" || p["tool"] != "write_file" {
			t.Fatalf("permission request %v", p)
		}
		sawRequest = true
		return []string{`{"type":"permission_decision","id":"w2","decision":"allow_once"}`}
	}, "exec", "-i", "stream-json", "-o", "stream-json", "-p", "write new.txt", "--base-url", srv.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exec: exit %d", code)
	}
	b, err := os.ReadFile(filepath.Join(dir, "new.txt"))
	if !sawRequest || err != nil || string(b) != "hello\n" {
		t.Fatalf("approved write: request=%v err=%v content=%q", sawRequest, err, b)
	}
}

// TestStreamJSONInputMistakesAreLoud: a line that is not JSON, an answer
// for a call id no request named, and an unknown decision each get a
// warning event naming the problem; a request nothing answers is denied
// after --permission-timeout instead of hanging the run.
func TestStreamJSONInputMistakesAreLoud(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("w1", "write_file", `{"path":"a.txt","content":"a"}`)),
		llmtest.Reply(tc("w2", "write_file", `{"path":"b.txt","content":"b"}`)),
		llmtest.Reply(llmtest.Text("gave up")),
	)
	events, code := e.converse(dir, func(ev map[string]any) []string {
		if ev["type"] != "permission_request" {
			return nil
		}
		switch ev["permission"].(map[string]any)["id"] {
		case "w1": // garbage, a wrong id, then silence: the timeout decides
			return []string{`{"type":"permission_decision"`, `{"type":"permission_decision","id":"call_typo","decision":"allow_once"}`}
		case "w2":
			return []string{`{"type":"permission_decision","id":"w2","decision":"allow_forever"}`}
		}
		return nil
	}, "exec", "-i", "stream-json", "-o", "stream-json", "--permission-timeout", "1s", "-p", "write two files", "--base-url", srv.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exec: exit %d", code)
	}
	var warnings []string
	for _, ev := range events {
		if ev["type"] == "warning" {
			warnings = append(warnings, ev["text"].(string))
			if ev["runId"] == "" || ev["runId"] == nil {
				t.Errorf("warning without the run's id: %v", ev)
			}
		}
	}
	for _, want := range []string{"is not JSON", `call id "call_typo", which no permission_request asked for`,
		`no permission_decision for call "w1" arrived on stdin within 1s`, `unknown decision "allow_forever"`} {
		found := false
		for _, w := range warnings {
			found = found || strings.Contains(w, want)
		}
		if !found {
			t.Errorf("no warning containing %q in %q", want, warnings)
		}
	}
	if last := events[len(events)-1]; last["type"] != "run_end" || last["stopReason"] != "completed" {
		t.Errorf("last event %v, want run_end completed", last)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written without an approval", f)
		}
	}
}

// TestRefusedConnectionFailsOnceWithAHint: nothing listening on the
// loopback port the user named is one provider error, said once, with
// what to do; no retry notes (it was 16 attempts, 22 s, the error printed
// twice and a "retrying" note that contradicted it). The 2 s bound is
// measured by BenchmarkRefusedLoopback in internal/providers/transport.
func TestRefusedConnectionFailsOnceWithAHint(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	e := newEnv(t)
	for _, mode := range [][]string{nil, {"-o", "stream-json"}} {
		args := append([]string{"exec", "--base-url", "http://" + addr, "--model", "m"}, mode...)
		r := e.run(t.TempDir(), "", append(args, "hi")...)
		if r.code != 3 {
			t.Fatalf("%v: exit %d, want 3 (provider error): %s", mode, r.code, r.stderr)
		}
		all := r.stderr
		if n := strings.Count(all, "no server is listening on "+addr); n != 1 {
			t.Errorf("%v: the error appears %d times on stderr:\n%s", mode, n, r.stderr)
		}
		if mode != nil && strings.Count(r.stdout, `"type":"error"`) != 1 {
			t.Errorf("stream-json: want one error event:\n%s", r.stdout)
		}
		if strings.Contains(strings.ToLower(all), "retrying") {
			t.Errorf("%v: a retry note:\n%s", mode, all)
		}
		if !strings.Contains(all, "--base-url") {
			t.Errorf("%v: no hint:\n%s", mode, all)
		}
	}
}

// TestPermissionTimeoutComesFromTheUserConfig: "permissionTimeout" in
// the user config is the default wait for a permission_decision; the same
// key in a project config is ignored with a warning naming the key and
// where it belongs.
func TestPermissionTimeoutComesFromTheUserConfig(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	testbin.WriteTree(t, e.home, map[string]string{".config/zero/config.json": `{"permissionTimeout": "1s"}`})
	testbin.WriteTree(t, dir, map[string]string{".zero/config.json": `{"permissionTimeout": "0"}`})
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("w1", "write_file", `{"path":"a.txt","content":"a"}`)), llmtest.Reply(llmtest.Text("gave up")))
	events, code := e.converse(dir, func(map[string]any) []string { return nil },
		"exec", "-i", "stream-json", "-o", "stream-json", "-p", "write a file", "--base-url", srv.URL(), "--model", "m")
	if code != 0 {
		t.Fatalf("exec: exit %d", code)
	}
	var warnings []string
	for _, ev := range events {
		if ev["type"] == "warning" {
			warnings = append(warnings, ev["text"].(string))
		}
	}
	if all := strings.Join(warnings, "\n"); !strings.Contains(all, `no permission_decision for call "w1" arrived on stdin within 1s`) {
		t.Errorf("the user config's 1s did not decide: %q", warnings)
	}
	srv.Script(llmtest.Reply(llmtest.Text("hi")))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "say hi")
	if r.code != 0 || !strings.Contains(r.stderr, "permissionTimeout ignored") || !strings.Contains(r.stderr, "~/.config/zero/config.json") {
		t.Errorf("exit %d; no warning naming the project's permissionTimeout and where it goes: %s", r.code, r.stderr)
	}
}

// signalMidStream runs `zero exec -o stream-json` against a reply that
// streams some text and then stalls, sends sig once the text has arrived,
// and returns the stream-json lines; zero must exit 130.
func signalMidStream(t *testing.T, e *env, dir string, srv *llmtest.Server, sig os.Signal) []string {
	t.Helper()
	srv.Script(llmtest.Reply(llmtest.Text("partial "), llmtest.Stall(time.Minute)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, zeroBin, "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "long task")
	cmd.Dir, cmd.Env = dir, e.vars
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), `"type":"text"`) {
			cmd.Process.Signal(sig)
		}
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 || len(lines) == 0 {
		t.Fatalf("want exit 130 after stream-json lines, got %v (%d lines)", err, len(lines))
	}
	return lines
}

func TestSIGTERMEndsTheRunCleanly(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	lines := signalMidStream(t, e, dir, srv, syscall.SIGTERM)
	if last := lines[len(lines)-1]; !strings.Contains(last, `"type":"run_end"`) || !strings.Contains(last, `"stopReason":"interrupted"`) {
		t.Fatalf("last line %s", last)
	}
}

func TestPermissionRequestCarriesRunID(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("w1", "write_file", `{"path":"a.txt","content":"x"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(t.TempDir(), "", "exec", "-i", "stream-json", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "write")
	evs := parseStream(t, r.stdout)
	runID := evs[0]["runId"]
	var seen bool
	for _, ev := range evs {
		if ev["type"] == "permission_request" {
			seen = true
			if ev["runId"] != runID || ev["turn"] != float64(1) || strings.HasPrefix(ev["time"].(string), "0001") {
				t.Fatalf("permission_request not stamped: %v", ev)
			}
		}
	}
	if !seen {
		t.Fatalf("no permission_request: %s", r.stdout)
	}
}

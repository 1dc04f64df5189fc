package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// execResult is the part of `-o json`'s result the subtype tests read.
type execResult struct {
	Subtype, Final, StopReason, SessionID, SessionLog, Error string
	IsError                                                  bool
	PermissionDenials                                        []struct{ Tool, CallID, Reason string }
	Totals                                                   struct {
		Turns   int
		CostUsd float64
	}
}

func runJSON(t *testing.T, e *env, dir string, args ...string) (execResult, int, string) {
	t.Helper()
	r := e.run(dir, "", append([]string{"exec", "-o", "json"}, args...)...)
	var s execResult
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("stdout is not one JSON object (exit %d): %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	return s, r.code, r.stderr
}

func TestExecResultNamesHowTheRunEnded(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	base := []string{"--base-url", srv.URL(), "--model", "m"}

	srv.Script(llmtest.Reply(llmtest.Text("done")))
	s, code, _ := runJSON(t, e, dir, append(base, "hi")...)
	if code != 0 || s.Subtype != "success" || s.IsError || s.SessionID == "" || s.Final != "done" {
		t.Fatalf("success: exit %d %+v", code, s)
	}
	if _, err := os.Stat(s.SessionLog); err != nil || !strings.HasPrefix(s.SessionLog, e.sessionDir) {
		t.Fatalf("session log %q: %v", s.SessionLog, err)
	}

	srv.Script(llmtest.Reply(tc("x1", "list_dir", `{"path":"."}`)), llmtest.Reply(tc("x2", "list_dir", `{"path":"."}`)))
	s, code, _ = runJSON(t, e, dir, append(base, "--max-turns", "1", "loop")...)
	if code != 4 || s.Subtype != "max_turns" || !s.IsError || s.Totals.Turns != 1 {
		t.Fatalf("max turns: exit %d %+v", code, s)
	}

	srv.Script(llmtest.Reply(llmtest.Error(401, `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`)))
	s, code, _ = runJSON(t, e, dir, append(base, "hello")...)
	if code != 3 || s.Subtype != "provider_error" || !s.IsError {
		t.Fatalf("provider error: exit %d %+v", code, s)
	}
}

func TestExecStopsWhenEveryToolCallIsDeniedThreeTurnsInARow(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	w := `{"path":"new.txt","content":"x"}`
	srv.Script(
		llmtest.Reply(tc("w1", "write_file", w)), llmtest.Reply(tc("w2", "write_file", w)),
		llmtest.Reply(tc("w3", "write_file", w)), // a fourth request would find the script empty: exit 3
	)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "write new.txt")
	if r.code != 7 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	evs := parseStream(t, r.stdout)
	end := evs[len(evs)-1]
	denials, _ := end["permissionDenials"].([]any)
	if end["type"] != "run_end" || end["subtype"] != "permission_denied" || end["isError"] != true || len(denials) != 3 {
		t.Fatalf("last event %v", end)
	}
	if d := denials[0].(map[string]any); d["tool"] != "write_file" || d["callId"] != "w1" || d["reason"] == "" {
		t.Fatalf("denial %v", d)
	}
	if n := len(completions(srv)); n != 3 {
		t.Fatalf("%d model requests, want 3 (the run stops after the third denied turn)", n)
	}
	var said bool
	for _, ev := range evs {
		said = said || ev["type"] == "error" && strings.Contains(ev["text"].(string), "denied")
	}
	if !said {
		t.Fatal("no error event says why the run stopped")
	}
	// Text mode says so on stderr, with the same exit.
	srv.Script(llmtest.Reply(tc("w4", "write_file", w)), llmtest.Reply(tc("w5", "write_file", w)), llmtest.Reply(tc("w6", "write_file", w)))
	r = e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "write new.txt")
	if r.code != 7 || !strings.Contains(r.stderr, "every tool call was denied in 3 turns in a row") || r.stdout != "" {
		t.Fatalf("text mode: exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

func TestExecStopsAtTheBudget(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	// gpt-4.1 is priced in the catalog: a million input tokens cost dollars.
	srv.Script(
		llmtest.Reply(tc("r1", "list_dir", `{"path":"."}`), llmtest.Usage(1_000_000, 10)),
		llmtest.Reply(llmtest.Text("too late"), llmtest.Usage(1_000_000, 10)),
	)
	s, code, stderr := runJSON(t, e, dir, "--base-url", srv.URL(), "--model", "gpt-4.1", "--max-budget-usd", "0.5", "look around")
	if code != 6 || s.Subtype != "budget" || !s.IsError || s.Totals.CostUsd <= 0.5 || !strings.Contains(s.Error, "max-budget-usd") {
		t.Fatalf("budget: exit %d %+v %s", code, s, stderr)
	}
	if n := len(completions(srv)); n != 1 {
		t.Fatalf("%d model requests after the budget was passed", n)
	}
	// A final answer whose own usage passes the budget is still the run's
	// answer (it was paid for): exit 6 with it in "final", no more requests.
	one := llmtest.NewServer(t)
	one.Script(llmtest.Reply(llmtest.Text("the answer"), llmtest.Usage(1_000_000, 10)), llmtest.Reply(llmtest.Text("again")))
	s, code, stderr = runJSON(t, e, dir, "--base-url", one.URL(), "--model", "gpt-4.1", "--max-budget-usd", "0.5", "answer")
	if code != 6 || s.Subtype != "budget" || s.Final != "the answer" {
		t.Fatalf("budget passed by the final answer: exit %d %+v %s", code, s, stderr)
	}
	if n := len(completions(one)); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
	// An unpriced model cannot be held to a budget: a usage error, before any request.
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "--max-budget-usd", "1", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, "no prices") {
		t.Fatalf("unpriced: exit %d %s", r.code, r.stderr)
	}
}

func TestExecOutputSchemaValidatesAndRetries(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	schema := filepath.Join(dir, "schema.json")
	os.WriteFile(schema, []byte(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`), 0o644)
	base := []string{"--base-url", srv.URL(), "--model", "m", "--output-schema", schema}

	srv.Script(llmtest.Reply(llmtest.Text(`{"count":"three"}`)), llmtest.Reply(llmtest.Text("```json\n{\"count\": 3}\n```")))
	s, code, _ := runJSON(t, e, dir, append(base, "count the files")...)
	if code != 0 || s.Subtype != "success" || s.Final != `{"count": 3}` {
		t.Fatalf("schema success: exit %d %+v", code, s)
	}
	reqs := completions(srv)
	msgs := reqs[1].Map()["messages"].([]any)
	retry := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if !strings.Contains(retry, "does not validate") || !strings.Contains(string(reqs[0].Body), `\"required\":[\"count\"]`) {
		t.Fatalf("retry prompt %q", retry)
	}
	if strings.Contains(string(reqs[0].Body), "response_format") {
		t.Fatal("a local server got response_format (only api.openai.com does)")
	}
	// The model reads the instruction; the log's prompt is the user's.
	var prompts []string
	for _, ev := range readLog(t, s.SessionLog) {
		if ev["type"] == "run_start" {
			prompts = append(prompts, ev["prompt"].(string))
		}
	}
	if len(prompts) != 2 || prompts[0] != "count the files" || strings.Contains(prompts[1], "Give your final answer") {
		t.Fatalf("logged prompts %q", prompts)
	}
	if r := e.run(dir, "", "sessions", "list"); !strings.Contains(r.stdout, "count the files") || strings.Contains(r.stdout, "Give your final answer") {
		t.Fatalf("zero sessions list:\n%s", r.stdout)
	}

	srv.Script(llmtest.Reply(llmtest.Text("no")), llmtest.Reply(llmtest.Text("still no")), llmtest.Reply(llmtest.Text(`{"count":1.5}`)))
	s, code, _ = runJSON(t, e, dir, append(base, "count again")...)
	if code != 8 || s.Subtype != "schema_failed" || !s.IsError || s.Totals.Turns != 3 {
		t.Fatalf("schema failure: exit %d %+v", code, s)
	}

	os.WriteFile(schema, []byte(`{"type":`), 0o644)
	if r := e.run(dir, "", append([]string{"exec"}, append(base, "x")...)...); r.code != 2 || !strings.Contains(r.stderr, "output-schema") {
		t.Fatalf("broken schema: exit %d %s", r.code, r.stderr)
	}
}

// TestExecLastMessageIsOnlyAValidatedAnswer: with --output-schema, a run
// whose answers never validate (exit 8) writes no --output-last-message
// file, and empties one an earlier run left (its old answer must not pass
// for this run's); a file in a folder that does not exist is a usage
// error before anything is sent.
func TestExecLastMessageIsOnlyAValidatedAnswer(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	schema := filepath.Join(dir, "schema.json")
	os.WriteFile(schema, []byte(`{"type":"object","required":["count"]}`), 0o644)
	last := filepath.Join(dir, "last.txt")
	base := []string{"--base-url", srv.URL(), "--model", "m", "--output-schema", schema}

	srv.Script(llmtest.Reply(llmtest.Text("no")), llmtest.Reply(llmtest.Text("still no")), llmtest.Reply(llmtest.Text("never")))
	s, code, _ := runJSON(t, e, dir, append(base, "--output-last-message", last, "count")...)
	if code != 8 || s.Subtype != "schema_failed" {
		t.Fatalf("schema failure: exit %d %+v", code, s)
	}
	if _, err := os.Stat(last); !os.IsNotExist(err) {
		t.Fatalf("the unvalidated answer was written to %s (%v)", last, err)
	}

	os.WriteFile(last, []byte(`{"count":41}`), 0o644) // an earlier run's answer
	srv.Script(llmtest.Reply(llmtest.Text("no")), llmtest.Reply(llmtest.Text("still no")), llmtest.Reply(llmtest.Text("never")))
	r := e.run(dir, "", append([]string{"exec"}, append(base, "--output-last-message", last, "count")...)...)
	if b, err := os.ReadFile(last); r.code != 8 || err != nil || len(b) != 0 || !strings.Contains(r.stderr, "emptied "+last) {
		t.Fatalf("an earlier answer under a schema failure: exit %d, file %q (%v), stderr %s", r.code, b, err, r.stderr)
	}

	before := len(completions(srv))
	missing := filepath.Join(dir, "no-such-folder", "last.txt")
	r = e.run(dir, "", append([]string{"exec"}, append(base, "--output-last-message", missing, "count")...)...)
	if r.code != 2 || !strings.Contains(r.stderr, "--output-last-message "+missing+": no folder "+filepath.Dir(missing)) {
		t.Fatalf("missing folder: exit %d %s", r.code, r.stderr)
	}
	if n := len(completions(srv)); n != before {
		t.Fatalf("%d requests sent for a run that should not start", n-before)
	}
}

// TestExecSchemaFailureErrorCarriesTheRunID: the stream-json error event
// of answers that never validated names the last run (the schema retries
// are runs of their own), as every line of a run does.
func TestExecSchemaFailureErrorCarriesTheRunID(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	schema := filepath.Join(dir, "schema.json")
	os.WriteFile(schema, []byte(`{"type":"object","required":["count"]}`), 0o644)
	srv.Script(llmtest.Reply(llmtest.Text("no")), llmtest.Reply(llmtest.Text("still no")), llmtest.Reply(llmtest.Text("never")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "--output-schema", schema, "count")
	if r.code != 8 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	var lastRun string
	var errEv map[string]any
	for _, ev := range parseStream(t, r.stdout) {
		if ev["runId"] == "" || ev["runId"] == nil {
			t.Errorf("a %v line has no runId: %v", ev["type"], ev)
		}
		switch ev["type"] {
		case "run_start":
			lastRun, _ = ev["runId"].(string)
		case "error":
			errEv = ev
		}
	}
	if errEv == nil || errEv["runId"] != lastRun || !strings.Contains(errEv["text"].(string), "does not validate") {
		t.Fatalf("error event %v, last run %s", errEv, lastRun)
	}
}

func TestExecEphemeralKeepsNoSessionAndWritesTheLastMessage(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("the answer")))
	last := filepath.Join(dir, "last.txt")
	s, code, stderr := runJSON(t, e, dir, "--base-url", srv.URL(), "--model", "m", "--ephemeral", "--output-last-message", last, "hi")
	if code != 0 || s.Subtype != "success" || s.SessionLog != "" || s.SessionID != "" {
		t.Fatalf("exit %d %+v %s", code, s, stderr)
	}
	if b, err := os.ReadFile(last); err != nil || string(b) != "the answer" {
		t.Fatalf("last message %q %v", b, err)
	}
	if ents, _ := os.ReadDir(e.sessionDir); len(ents) != 0 {
		t.Fatalf("sessions directory holds %v", ents)
	}
	if r := e.run(dir, "", "exec", "--ephemeral", "--resume", "--base-url", srv.URL(), "--model", "m", "more"); r.code != 2 {
		t.Fatalf("--ephemeral --resume: exit %d %s", r.code, r.stderr)
	}
}

// TestExecModelNotFoundHintNamesTheFlag: a 404 for the model tells an
// exec user to pick another with --model (the app's /model is no command
// here), on stderr and in the json result alike.
func TestExecModelNotFoundHintNamesTheFlag(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	notFound := `{"error":{"message":"The model gpt-9 does not exist","type":"invalid_request_error","code":"model_not_found"}}`
	srv.Script(llmtest.Reply(llmtest.Error(404, notFound)), llmtest.Reply(llmtest.Error(404, notFound)))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "gpt-9", "hi")
	if r.code != 3 || !strings.Contains(r.stderr, "pick another with --model (zero models lists them)") || strings.Contains(r.stderr, "/model") {
		t.Fatalf("text: exit %d, stderr %s", r.code, r.stderr)
	}
	s, code, _ := runJSON(t, e, dir, "--base-url", srv.URL(), "--model", "gpt-9", "hi")
	if code != 3 || !strings.Contains(s.Error, "--model (zero models lists them)") || strings.Contains(s.Error, "/model") {
		t.Fatalf("json: exit %d, error %q", code, s.Error)
	}
}

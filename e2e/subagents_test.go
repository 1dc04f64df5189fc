package e2e

import (
	"bufio"
	"context"
	"encoding/json"
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

// The fake server plays the parent and its sub-agents at once and tells
// them apart by their requests: a child's holds the sub-agent brief
// (childAsks), the parent's request after a task call holds the task
// result's note (parentHasResult), and the parent's first request holds
// the user's prompt, which no child's does.
const (
	childAsks       = "You are a sub-agent"
	parentHasResult = "sub-agent, session"
)

// newAgentsEnv is an env whose model has a 64K window: the task tool is
// offered from 32K.
func newAgentsEnv(t *testing.T) *env {
	e := newEnv(t)
	e.vars = append(e.vars, "ZERO_CONTEXT_WINDOW=65536")
	return e
}

// childEvents are the events of evs tagged with the parent's task call
// callID, by type.
func childEvents(evs []map[string]any, callID string) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, ev := range evs {
		if ev["parentToolCallId"] == callID {
			out[ev["type"].(string)] = append(out[ev["type"].(string)], ev)
		}
	}
	return out
}

// taskResults are the parent's task tool results, by call id.
func taskResults(evs []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, ev := range eventsOf(evs, "tool_result") {
		if r := ev["result"].(map[string]any); r["name"] == "task" && ev["parentToolCallId"] == nil {
			out[r["callId"].(string)] = r
		}
	}
	return out
}

// TestTaskCallRunsAChildWhoseAnswerReturnsToTheParent: through `zero
// exec -o stream-json`, the parent's task call runs an explorer in a
// session of its own: the child's requests carry its job alone and
// read-only tools (no task tool), its events are tagged with the parent's
// call id and agent, its answer is the parent's tool result naming its
// session, a PreToolUse hook fires for its call (with its session) and a
// SubagentStop hook when it ends, `zero sessions tree` shows
// it under the parent, and it resumes on its own.
func TestTaskCallRunsAChildWhoseAnswerReturnsToTheParent(t *testing.T) {
	e := newAgentsEnv(t)
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hi\" }\n"})
	mark, pre := filepath.Join(e.home, "subagent-stop.json"), filepath.Join(e.home, "pre-read.json")
	testbin.WriteTree(t, e.home, map[string]string{".config/zero/settings.json": `{"hooks": {
		"SubagentStop": [{"matcher": "explore", "hooks": [{"command": "cat > ` + mark + `"}]}],
		"PreToolUse": [{"matcher": "Read", "hooks": [{"command": "cat > ` + pre + `"}]}]}}`})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: find where Greet is defined","agent":"explore"}`).WithID("call_t1")).When("PARENT-JOB"),
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"greet.go"}`).WithID("call_r1")).When(childAsks),
		llmtest.Reply(llmtest.Text("Greet is defined in greet.go, line 3.")).When(childAsks),
		llmtest.Reply(llmtest.Text("It is in greet.go.")).When(parentHasResult),
	)
	evs, r := execStream(t, e, dir, "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: where is Greet?")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if f := eventsOf(evs, "final"); len(f) == 0 || f[len(f)-1]["text"] != "It is in greet.go." {
		t.Fatalf("final: %v", f)
	}
	chat := chatRequests(srv, 0)
	if len(chat) != 4 {
		t.Fatalf("%d model requests, want parent, child, child, parent", len(chat))
	}
	for _, c := range chat[1:3] {
		body := string(c.Body)
		if !strings.Contains(body, "CHILD-JOB") || strings.Contains(body, "PARENT-JOB") {
			t.Errorf("a child's request does not hold its job alone:\n%s", body)
		}
		if names := toolNames(c); has(names, "task") || has(names, "write_file") || has(names, "bash") || !has(names, "read_file") {
			t.Errorf("the explorer is offered %v", names)
		}
	}

	child := childEvents(evs, "call_t1")
	if len(child["run_start"]) != 1 || len(child["run_end"]) != 1 || len(child["tool_call"]) != 1 || len(child["tool_result"]) != 1 {
		t.Fatalf("the child's events tagged call_t1: %v", child)
	}
	if child["run_start"][0]["agent"] != "explore" || child["run_end"][0]["stopReason"] != "completed" {
		t.Errorf("child run_start %v, run_end %v", child["run_start"][0], child["run_end"][0])
	}
	childID, _ := child["run_start"][0]["sessionId"].(string)
	parentID, _ := evs[len(evs)-1]["sessionId"].(string)
	if childID == "" || childID == parentID {
		t.Fatalf("child session %q, parent %q", childID, parentID)
	}
	res := taskResults(evs)["call_t1"]
	if content, _ := res["content"].(string); !strings.HasPrefix(content, "Greet is defined in greet.go, line 3.") || !strings.Contains(content, "explore sub-agent, session "+childID) || res["isError"] == true {
		t.Errorf("the parent's task result: %v", res)
	}

	b, err := os.ReadFile(mark)
	var stop map[string]any
	if err != nil || json.Unmarshal(b, &stop) != nil || stop["agent_id"] != childID || stop["session_id"] != parentID || stop["agent_type"] != "explore" {
		t.Errorf("SubagentStop stdin (%v): %s", err, b)
	}

	b, err = os.ReadFile(pre)
	var read map[string]any
	if err != nil || json.Unmarshal(b, &read) != nil || read["session_id"] != childID || read["tool_name"] != "Read" {
		t.Errorf("the PreToolUse hook did not fire for the child's read (%v): %s", err, b)
	}

	tree := e.run(dir, "", "sessions", "tree", parentID)
	if i, j := strings.Index(tree.stdout, parentID), strings.Index(tree.stdout, childID); tree.code != 0 || i < 0 || j < i || !strings.Contains(tree.stdout, "explore") {
		t.Errorf("zero sessions tree:\n%s\n%s", tree.stdout, tree.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("Still greet.go.")))
	r = e.run(dir, "", "exec", "--resume="+childID, "--base-url", srv.URL(), "--model", "m", "sure?")
	last := chatRequests(srv, 4)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Still greet.go." || len(last) != 1 || has(toolNames(last[0]), "task") || !strings.Contains(string(last[0].Body), "CHILD-JOB") {
		t.Errorf("resuming the child: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// TestTwoTaskCallsOfOneTurnRunAtOnce: each child's answer is held until
// both children's requests are in flight; each child's events carry its
// own task call's id; the results come back in call order and the run's
// totals roll up both children's usage.
func TestTwoTaskCallsOfOneTurnRunAtOnce(t *testing.T) {
	e := newAgentsEnv(t)
	srv := llmtest.NewServer(t)
	hold := 30 * time.Second // only a broken build waits this long
	srv.Script(
		llmtest.Reply(
			llmtest.ToolCall("task", `{"prompt":"JOB-A: survey the parser"}`).WithID("call_a"),
			llmtest.ToolCall("task", `{"prompt":"JOB-B: survey the printer"}`).WithID("call_b"),
		).When("PARENT-JOB"),
		llmtest.Reply(llmtest.Text("A: the parser is in parse.go"), llmtest.Usage(100, 10)).When("JOB-A").Await(2, hold),
		llmtest.Reply(llmtest.Text("B: the printer is in print.go"), llmtest.Usage(200, 20)).When("JOB-B").Await(2, hold),
		llmtest.Reply(llmtest.Text("Both surveyed.")).When(parentHasResult),
	)
	evs, r := execStream(t, e, t.TempDir(), "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: survey both")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := srv.MaxInFlight(); n != 2 {
		t.Errorf("%d requests in flight at once, want the two children's", n)
	}
	for id, want := range map[string]string{"call_a": "A: the parser", "call_b": "B: the printer"} {
		c := childEvents(evs, id)
		if len(c["run_start"]) != 1 || len(c["run_end"]) != 1 || !strings.Contains(eventText(c["text"]), want) {
			t.Errorf("%s's tagged events: %v", id, c)
		}
		if res := taskResults(evs)[id]; !strings.HasPrefix(res["content"].(string), want) {
			t.Errorf("%s's result: %v", id, res)
		}
	}
	chat := chatRequests(srv, 0)
	back := string(chat[len(chat)-1].Body)
	if a, b := strings.Index(back, "A: the parser"), strings.Index(back, "B: the printer"); a < 0 || b < a {
		t.Errorf("results not in call order in the parent's request:\n%s", back)
	}
	end := evs[len(evs)-1]
	sub, _ := end["totals"].(map[string]any)["subagents"].(map[string]any)
	if u, _ := sub["usage"].(map[string]any); u["inputTokens"] != 300.0 || u["outputTokens"] != 30.0 {
		t.Errorf("run_end totals do not roll up the children: %v", end["totals"])
	}
}

// eventText joins the text of text events.
func eventText(evs []map[string]any) string {
	var b strings.Builder
	for _, ev := range evs {
		s, _ := ev["text"].(string)
		b.WriteString(s)
	}
	return b.String()
}

// TestFailingChildIsAnErrorResultAndTheParentGoesOn: a child whose
// request the server refuses ends with provider_error; the parent's task
// result is an error saying so, and the parent's run completes.
func TestFailingChildIsAnErrorResultAndTheParentGoesOn(t *testing.T) {
	e := newAgentsEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: survey"}`).WithID("call_f")).When("PARENT-JOB"),
		llmtest.Reply(llmtest.Error(400, `{"error":{"message":"the child's request is bad"}}`)).When(childAsks),
		llmtest.Reply(llmtest.Text("The explorer failed; I will look myself.")).When("the explore sub-agent stopped"),
	)
	evs, r := execStream(t, e, t.TempDir(), "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: survey")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := taskResults(evs)["call_f"]
	if content, _ := res["content"].(string); res["isError"] != true || !strings.Contains(content, "the explore sub-agent stopped (provider_error)") || !strings.Contains(content, "the child's request is bad") {
		t.Errorf("the failing child's result: %v", res)
	}
	if c := childEvents(evs, "call_f")["run_end"]; len(c) != 1 || c[0]["stopReason"] != "provider_error" {
		t.Errorf("the child's run_end: %v", c)
	}
	if end := evs[len(evs)-1]; end["stopReason"] != "completed" || end["parentToolCallId"] != nil {
		t.Errorf("the parent's run_end: %v", end)
	}
}

// TestSigintWhileAChildRunsEndsTheChildAndLeavesNoProcess: a general
// sub-agent runs a long shell command; SIGINT to zero ends the child's
// run (interrupted), the parent's, and the command's process; zero exits
// 130 and the child's session resumes on its own.
func TestSigintWhileAChildRunsEndsTheChildAndLeavesNoProcess(t *testing.T) {
	e := newAgentsEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	const long, argv = "sleep 3599.417", "sleep\x003599.417" // a command line no other process has
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: wait for the build","agent":"general"}`).WithID("call_g")).When("PARENT-JOB"),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"`+long+`"}`).WithID("call_sleep")).When(childAsks),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, zeroBin, "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: build")
	cmd.Dir, cmd.Env = dir, e.vars
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), `"type":"tool_call"`) && strings.Contains(sc.Text(), "call_sleep") {
			waitFor(t, "the child's command to start", func() bool { return processWith(argv) })
			cmd.Process.Signal(syscall.SIGINT)
		}
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("want exit 130, got %v", err)
	}
	waitFor(t, "the child's command to end", func() bool { return !processWith(argv) })
	evs := parseStream(t, strings.Join(lines, "\n"))
	c := childEvents(evs, "call_g")
	if len(c["run_end"]) != 1 || c["run_end"][0]["stopReason"] != "interrupted" || c["run_start"][0]["agent"] != "general" {
		t.Fatalf("the child's run did not end interrupted: %v", c)
	}
	if end := evs[len(evs)-1]; end["type"] != "run_end" || end["stopReason"] != "interrupted" || end["parentToolCallId"] != nil {
		t.Fatalf("the parent's last event: %v", end)
	}
	childID := c["run_start"][0]["sessionId"].(string)
	srv.Script(llmtest.Reply(llmtest.Text("the build was interrupted")))
	r := e.run(dir, "", "exec", "--resume="+childID, "--base-url", srv.URL(), "--model", "m", "what happened?")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "the build was interrupted" {
		t.Errorf("resuming the interrupted child: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// waitFor polls cond until it holds; the deadline only guards against a
// hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestACPAsksForASubagentsCallLabelled: under `zero acp` (driven by the
// official TypeScript client) a general sub-agent's write reaches the
// editor's permission request saying which agent asks; allowed once, it
// writes, and the parent's turn ends.
func TestACPAsksForASubagentsCallLabelled(t *testing.T) {
	e := newAgentsEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: write notes.txt","agent":"general"}`)).When("PARENT-JOB"),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"from the child\n"}`)).When(childAsks),
		llmtest.Reply(llmtest.Text("notes.txt written")).When(childAsks),
		llmtest.Reply(llmtest.Text("the worker wrote the notes")).When(parentHasResult),
	)
	r := acpClient(t, e, dir, srv, []string{"allow_once"}, "prompt", "PARENT-JOB: take notes")
	if r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q\n%s", r.StopReason, r.stderr)
	}
	if len(r.Permissions) != 1 {
		t.Fatalf("permission requests %+v", r.Permissions)
	}
	if b, _ := json.Marshal(r.Permissions[0].ToolCall); !strings.Contains(string(b), "asked by the general sub-agent") {
		t.Errorf("the editor's request does not name the agent: %s", b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "from the child\n" {
		t.Errorf("the allowed write did not happen: %q %v", b, err)
	}
}

// TestStreamJSONAsksForASubagentsCallLabelled: with -i stream-json a
// general sub-agent's write is a permission_request tagged with the
// parent's task call and saying which agent asks; the client's allow
// lets it write.
func TestStreamJSONAsksForASubagentsCallLabelled(t *testing.T) {
	e := newAgentsEnv(t)
	dir := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: write notes.txt","agent":"general"}`).WithID("call_w")).When("PARENT-JOB"),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"from the child\n"}`).WithID("call_write")).When(childAsks),
		llmtest.Reply(llmtest.Text("notes.txt written")).When(childAsks),
		llmtest.Reply(llmtest.Text("the worker wrote the notes")).When(parentHasResult),
	)
	var asked []map[string]any
	evs, code := e.converse(dir, func(ev map[string]any) []string {
		if ev["type"] != "permission_request" {
			return nil
		}
		asked = append(asked, ev)
		id := ev["permission"].(map[string]any)["id"]
		return []string{`{"type":"permission_decision","id":"` + id.(string) + `","decision":"allow_once"}`}
	}, "exec", "-i", "stream-json", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: take notes")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if len(asked) != 1 {
		t.Fatalf("permission requests: %v", asked)
	}
	p := asked[0]["permission"].(map[string]any)
	if reason, _ := p["reason"].(string); p["id"] != "call_write" || !strings.Contains(reason, "asked by the general sub-agent") || asked[0]["parentToolCallId"] != "call_w" {
		t.Errorf("the child's permission request: %v", asked[0])
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "from the child\n" {
		t.Errorf("the allowed write did not happen: %q %v", b, err)
	}
	if f := eventsOf(evs, "final"); len(f) == 0 || f[len(f)-1]["text"] != "the worker wrote the notes" {
		t.Errorf("final: %v", f)
	}
}

// TestPluginAgentRunsThroughTheTaskTool: an installed plugin's agent is
// offered to the model as PLUGIN:NAME and runs as the user's own would:
// the child starts from its body and is offered only the tools it names.
func TestPluginAgentRunsThroughTheTaskTool(t *testing.T) {
	e := newAgentsEnv(t)
	src := filepath.Join(t.TempDir(), "kit")
	testbin.WriteTree(t, src, map[string]string{
		".claude-plugin/plugin.json": `{"name": "kit", "version": "0.1.0"}`,
		"agents/reviewer.md":         "---\nname: reviewer\ndescription: Reviews the diff\ntools: Read, Grep\n---\nREVIEWER-BODY: review carefully.\n",
	})
	work := t.TempDir()
	if r := e.run(work, "", "plugin", "add", src); r.code != 0 || !strings.Contains(r.stdout, "enabled: its parts load") {
		t.Fatalf("plugin add: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"CHILD-JOB: review","agent":"kit:reviewer"}`).WithID("call_k")).When("PARENT-JOB"),
		llmtest.Reply(llmtest.Text("looks fine")).When(childAsks),
		llmtest.Reply(llmtest.Text("reviewed")).When(parentHasResult),
	)
	evs, r := execStream(t, e, work, "--base-url", srv.URL(), "--model", "m", "PARENT-JOB: review it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	chat := chatRequests(srv, 0)
	if len(chat) != 3 {
		t.Fatalf("%d model requests", len(chat))
	}
	if schema, _ := json.Marshal(chat[0].Map()["tools"]); !strings.Contains(string(schema), `"kit:reviewer"`) {
		t.Errorf("the task tool does not offer kit:reviewer: %s", schema)
	}
	child := chat[1]
	if names := toolNames(child); !has(names, "read_file") || !has(names, "grep") || has(names, "bash") || has(names, "write_file") || has(names, "task") {
		t.Errorf("kit:reviewer is offered %v", names)
	}
	if !strings.Contains(string(child.Body), "REVIEWER-BODY: review carefully.") {
		t.Errorf("the child does not start from the plugin agent's body:\n%s", child.Body)
	}
	if c := childEvents(evs, "call_k")["run_start"]; len(c) != 1 || c[0]["agent"] != "kit:reviewer" {
		t.Errorf("the child's run_start: %v", c)
	}
}

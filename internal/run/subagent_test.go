package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/permission"
)

func requestToolNames(r llmtest.Request) []string {
	var names []string
	for _, x := range r.Map()["tools"].([]any) {
		names = append(names, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return names
}

// The task tool runs an explorer in a child session: the child's request
// carries the job and read-only tools (no task tool: sub-agents do not
// nest), its final answer is the parent's tool result with the child's
// session named, and the child's metadata names its parent and root.
func TestTaskToolRunsAnExplorerInAChildSession(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536") // the task tool is offered from 32K
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"find where the config is parsed","agent":"explore"}`)),
		llmtest.Reply(llmtest.Text("It is parsed in config/file.go, func ReadFile.")),
		llmtest.Reply(llmtest.Text("The explorer found it.")),
	)
	res := s.Prompt(context.Background(), Turn{Prompt: "where is the config parsed?"})
	if res.StopReason != event.StopCompleted || res.Final != "The explorer found it." {
		t.Fatalf("parent: %+v", res)
	}
	reqs := srv.Requests()
	var chat []llmtest.Request
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			chat = append(chat, r)
		}
	}
	if len(chat) != 3 {
		t.Fatalf("%d model requests, want parent, child, parent", len(chat))
	}
	parentTools, childTools := requestToolNames(chat[0]), requestToolNames(chat[1])
	if !slices.Contains(parentTools, "task") {
		t.Errorf("the parent is not offered task: %v", parentTools)
	}
	if slices.Contains(childTools, "task") || slices.Contains(childTools, "write_file") || slices.Contains(childTools, "bash") {
		t.Errorf("the explorer is offered %v", childTools)
	}
	child := string(chat[1].Body)
	if !strings.Contains(child, "You are a sub-agent") || !strings.Contains(child, "find where the config is parsed") || strings.Contains(child, "where is the config parsed?") {
		t.Errorf("the child's request does not hold the job alone:\n%s", child)
	}
	back := string(chat[2].Body)
	if !strings.Contains(back, "It is parsed in config/file.go, func ReadFile.") || !strings.Contains(back, "explore sub-agent, session ") {
		t.Fatalf("the parent did not get the child's answer:\n%s", back)
	}
	list, err := rt.Store.List()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range list {
		if m.ParentID == s.ID() {
			found = true
			if m.RootID != s.ID() || !strings.Contains(back, m.ID) {
				t.Errorf("child metadata %+v", m)
			}
		}
	}
	if !found {
		t.Fatalf("no child session recorded with parent %s: %+v", s.ID(), list)
	}
}

// A general sub-agent's permission request reaches the parent's asker,
// labelled with the agent; a denial is the child's tool result.
func TestSubagentPermissionRequestsReachTheParentLabelled(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536") // the task tool is offered from 32K
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"create notes.txt","agent":"general"}`)),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"x"}`)),
		llmtest.Reply(llmtest.Text("I was not allowed to write notes.txt.")),
		llmtest.Reply(llmtest.Text("The worker could not write.")),
	)
	var asked []string
	res := s.Prompt(context.Background(), Turn{Prompt: "make notes", Ask: func(_ context.Context, req permission.Request) permission.Decision {
		asked = append(asked, req.Tool+" | "+req.Why)
		return permission.Decision{Choice: permission.Reject}
	}})
	if res.Final != "The worker could not write." {
		t.Fatalf("parent: %+v", res)
	}
	if len(asked) != 1 || !strings.HasPrefix(asked[0], "write_file | asked by the general sub-agent") {
		t.Fatalf("asked %q", asked)
	}
}

// A small window is not offered the task tool (a sub-agent's brief and
// answer cost more than they save there).
func TestSmallWindowIsNotOfferedTheTaskTool(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "16384")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	for _, tl := range s.Offered() {
		if tl.Name() == TaskToolName {
			t.Fatal("task offered in a 16K window")
		}
	}
}

// SubagentStop fires in the parent's session when a sub-agent ends, with
// Claude Code's fields (agent_id, agent_type, agent_transcript_path,
// last_assistant_message); its matcher is the agent's name.
func TestSubagentStopHookFiresWhenTheChildEnds(t *testing.T) {
	srv := llmtest.NewServer(t)
	home := isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536") // the task tool is offered from 32K
	mark, other := filepath.Join(home, "explore.json"), filepath.Join(home, "general.json")
	writeUserSettings(t, `{"hooks": {"SubagentStop": [
	  {"matcher": "explore", "hooks": [{"command": "cat > `+mark+`"}]},
	  {"matcher": "general", "hooks": [{"command": "cat > `+other+`"}]}]}}`)
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"find the config parser"}`)),
		llmtest.Reply(llmtest.Text("config/file.go parses it.")),
		llmtest.Reply(llmtest.Text("done")),
	)
	if res := s.Prompt(context.Background(), Turn{Prompt: "where?"}); res.Final != "done" {
		t.Fatalf("parent: %+v", res)
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("SubagentStop did not fire: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("stdin %s: %v", b, err)
	}
	id, _ := in["agent_id"].(string)
	if in["hook_event_name"] != "SubagentStop" || in["session_id"] != s.ID() || in["agent_type"] != "explore" ||
		in["last_assistant_message"] != "config/file.go parses it." || id == "" || id == s.ID() {
		t.Errorf("SubagentStop stdin: %s", b)
	}
	if p, _ := in["agent_transcript_path"].(string); !strings.Contains(p, id) {
		t.Errorf("agent_transcript_path %q does not name the child's session %s", p, id)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a SubagentStop hook matching general fired for explore")
	}
}

// A child's answer is a tool result like any other: one far past the
// tool output cap is cut by the output pipeline before the parent's
// window sees it, and the cut result still names the child's session.
func TestLongChildAnswerIsCappedLikeAnyToolResult(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	long := strings.Repeat("finding: a line of the explorer's report\n", 5000) // ~200 KB
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"report everything"}`)),
		llmtest.Reply(llmtest.Text(long)),
		llmtest.Reply(llmtest.Text("done")),
	)
	var evs events
	if res := s.Prompt(context.Background(), Turn{Prompt: "survey", Sink: &evs}); res.Final != "done" {
		t.Fatalf("parent: %+v", res)
	}
	var got *event.ToolOutcome
	for _, e := range evs.all {
		if e.Type == event.ToolResult && e.ParentToolCallID == "" && e.Result.Name == TaskToolName {
			got = e.Result
		}
	}
	if got == nil || got.RawBytes < len(long) || got.KeptBytes >= got.RawBytes/4 || !strings.Contains(got.Content, "explore sub-agent, session ") {
		t.Fatalf("the task result was not capped with its session note kept: %+v", got)
	}
	chat := chatRequests(srv)
	if n := len(chat[len(chat)-1].Body); n > len(long)/2 {
		t.Errorf("the parent's request after the task is %d bytes: the child's whole answer reached its window", n)
	}
}

// Only the tool hooks and SubagentStop fire for a sub-agent's run, as in
// Claude Code (https://docs.claude.com/en/docs/claude-code/hooks): the
// parent's SessionStart, UserPromptSubmit, Notification, Stop and
// SessionEnd fire once each, for the parent's session, even though the
// child is a session of its own that asks permission and stops.
func TestSessionHooksFireOnceForTheParentNotForItsSubagent(t *testing.T) {
	srv := llmtest.NewServer(t)
	home := isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536") // the task tool is offered from 32K
	logf := filepath.Join(home, "hooks.jsonl")
	record := `[{"hooks": [{"command": "cat >> ` + logf + `; echo >> ` + logf + `"}]}]`
	writeUserSettings(t, `{"hooks": {"SessionStart": `+record+`, "UserPromptSubmit": `+record+`,
	  "Notification": `+record+`, "Stop": `+record+`, "SessionEnd": `+record+`, "SubagentStop": `+record+`}}`)
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"create notes.txt","agent":"general"}`)),
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"x"}`)),
		llmtest.Reply(llmtest.Text("notes.txt written.")),
		llmtest.Reply(llmtest.Text("done")),
	)
	res := s.Prompt(context.Background(), Turn{Prompt: "make notes", Ask: func(context.Context, permission.Request) permission.Decision {
		return permission.Decision{Choice: permission.AllowOnce}
	}})
	if res.Final != "done" {
		t.Fatalf("parent: %+v", res)
	}
	s.Close()
	b, err := os.ReadFile(logf)
	if err != nil {
		t.Fatal(err)
	}
	var fired []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var in struct {
			Event   string `json:"hook_event_name"`
			Session string `json:"session_id"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("hook stdin %q: %v", line, err)
		}
		if in.Session != s.ID() {
			t.Errorf("%s fired for session %s, not the parent's %s", in.Event, in.Session, s.ID())
		}
		fired = append(fired, in.Event)
	}
	want := []string{"SessionStart", "UserPromptSubmit", "Notification", "SubagentStop", "Stop", "SessionEnd"}
	if strings.Join(fired, " ") != strings.Join(want, " ") {
		t.Errorf("hooks fired %q, want %q", fired, want)
	}
}

// A SubagentStop hook that blocks sends the sub-agent back to work with
// its reason, as a Stop hook does for a session (Claude Code's
// "decision": "block"); once stop_hook_active is set it lets it stop,
// and the parent's tool result is the sub-agent's second answer.
func TestSubagentStopHookBlockSendsTheSubagentBackToWork(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536") // the task tool is offered from 32K
	writeUserSettings(t, `{"hooks": {"SubagentStop": [{"hooks": [{"command":
	  "grep -q '\"stop_hook_active\":true' && exit 0; echo '{\"decision\": \"block\", \"reason\": \"name the line too\"}'"}]}]}}`)
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"where is the config parsed?"}`)),
		llmtest.Reply(llmtest.Text("config/file.go.")),
		llmtest.Reply(llmtest.Text("config/file.go, line 120.")),
		llmtest.Reply(llmtest.Text("done")),
	)
	var evs events
	if res := s.Prompt(context.Background(), Turn{Prompt: "where?", Sink: &evs}); res.Final != "done" {
		t.Fatalf("parent: %+v", res)
	}
	reqs := completions(srv)
	if len(reqs) != 4 || !strings.Contains(string(reqs[2].Body), "A SubagentStop hook asks you to continue before finishing: name the line too") {
		t.Fatalf("the sub-agent was not sent back with the hook's reason: %d requests", len(reqs))
	}
	var result string
	for _, e := range evs.all {
		if e.Type == event.ToolResult && e.ParentToolCallID == "" && e.Result.Name == TaskToolName {
			result = e.Result.Content
		}
	}
	if !strings.HasPrefix(result, "config/file.go, line 120.") {
		t.Errorf("task result %q, want the second answer", result)
	}
}

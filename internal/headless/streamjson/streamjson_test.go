package streamjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func sample() []event.Event {
	code := 0
	return []event.Event{
		{SchemaVersion: 1, Type: event.RunStart, RunID: "run_1", Model: "m", Provider: "p", Prompt: "hi"},
		{SchemaVersion: 1, Type: event.Message, RunID: "run_1", Message: &llm.Message{Role: llm.RoleUser}},
		{SchemaVersion: 1, Type: event.Text, RunID: "run_1", Text: "ok"},
		{SchemaVersion: 1, Type: event.ToolCall, RunID: "run_1", ToolCall: &llm.ToolCall{ID: "c1", Name: "bash", Arguments: `{"command":"true"}`}},
		{SchemaVersion: 1, Type: event.ToolResult, RunID: "run_1", Result: &event.ToolOutcome{CallID: "c1", Name: "bash", RawBytes: 10, KeptBytes: 5, ExitCode: &code}},
		{SchemaVersion: 1, Type: event.Final, RunID: "run_1", Text: "done"},
		{SchemaVersion: 1, Type: event.RunEnd, RunID: "run_1", StopReason: event.StopCompleted, Totals: &event.Totals{Turns: 2, ToolCalls: 1}},
	}
}

func TestWriterOneLinePerPublicEvent(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.SessionID = "s1"
	for _, e := range sample() {
		w.Emit(e)
	}
	if bytes.Contains(buf.Bytes(), []byte(`"run_end"`)) {
		t.Fatal("run_end was written before End")
	}
	w.End(Result{Subtype: "success", PermissionDenials: []Denial{}, SessionLog: "/s/events.jsonl"}, event.Totals{Turns: 3})
	sc := bufio.NewScanner(&buf)
	var types []string
	var last map[string]any
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		if m["schemaVersion"] != float64(1) || m["runId"] != "run_1" {
			t.Fatalf("missing common fields: %v", m)
		}
		types = append(types, m["type"].(string))
		last = m
		if m["type"] == "run_start" && m["sessionId"] != "s1" {
			t.Fatalf("run_start without session: %v", m)
		}
	}
	want := []string{"run_start", "text", "tool_call", "tool_result", "final", "run_end"}
	if len(types) != len(want) {
		t.Fatalf("types %v want %v", types, want)
	}
	if last["subtype"] != "success" || last["isError"] != false || last["sessionLog"] != "/s/events.jsonl" || last["sessionId"] != "s1" ||
		last["stopReason"] != "completed" || last["totals"].(map[string]any)["turns"] != float64(3) {
		t.Fatalf("last run_end %v", last)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("types %v want %v", types, want)
		}
	}
}

func TestCollectorSummary(t *testing.T) {
	c := NewCollector()
	for _, e := range sample() {
		c.Emit(e)
	}
	var buf bytes.Buffer
	if err := c.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(buf.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Final != "done" || s.StopReason != event.StopCompleted || len(s.ToolCalls) != 1 || s.ToolCalls[0].KeptBytes != 5 || *s.ToolCalls[0].ExitCode != 0 || s.Totals.Turns != 2 {
		t.Fatalf("summary %+v", s)
	}
}

// A sub-agent's events are written as they come, its run_start and
// run_end with its own session; its run_end neither releases nor
// replaces the parent's, which End writes last. The -o json summary is
// the parent's, with the child's warning named after it.
func TestSubagentEventsKeepTheirSessionAndLeaveTheParentsRunEnd(t *testing.T) {
	child := func(e event.Event) event.Event {
		e.RunID, e.ParentToolCallID, e.Agent, e.AgentSession = "run_2", "call_t", "explore", "s-child"
		return e
	}
	evs := sample()
	parentEnd := evs[len(evs)-1]
	evs = append(evs[:len(evs)-1],
		child(event.Event{SchemaVersion: 1, Type: event.RunStart, Model: "m"}),
		child(event.Event{SchemaVersion: 1, Type: event.Warning, Text: "slow"}),
		child(event.Event{SchemaVersion: 1, Type: event.Error, Text: "child failed"}),
		child(event.Event{SchemaVersion: 1, Type: event.Final, Text: "child answer"}),
		child(event.Event{SchemaVersion: 1, Type: event.RunEnd, StopReason: event.StopProviderError}),
		parentEnd)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.SessionID = "s1"
	c := NewCollector()
	for _, e := range evs {
		w.Emit(e)
		c.Emit(e)
	}
	w.End(Result{Subtype: "success"}, event.Totals{})
	var lines []map[string]any
	for sc := bufio.NewScanner(&buf); sc.Scan(); {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	var ends []string
	for _, m := range lines {
		if m["type"] == "run_start" || m["type"] == "run_end" {
			ends = append(ends, m["type"].(string)+":"+m["runId"].(string)+":"+m["sessionId"].(string))
		}
	}
	want := "run_start:run_1:s1 run_start:run_2:s-child run_end:run_2:s-child run_end:run_1:s1"
	if got := strings.Join(ends, " "); got != want {
		t.Errorf("runs: %s\nwant  %s", got, want)
	}
	if last := lines[len(lines)-1]; last["subtype"] != "success" || last["parentToolCallId"] != nil {
		t.Errorf("last line %v", last)
	}
	s := c.S
	if s.RunID != "run_1" || s.Final != "done" || s.Error != "" || s.StopReason != event.StopCompleted || len(s.ToolCalls) != 1 ||
		len(s.Warnings) != 1 || s.Warnings[0] != "explore sub-agent: slow" {
		t.Errorf("summary %+v", s)
	}
}

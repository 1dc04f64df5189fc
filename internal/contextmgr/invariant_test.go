package contextmgr

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

func jsonOf(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// checkInvariant fails unless every call has exactly one result in the
// tool messages right after it and every result answers such a call.
func checkInvariant(t *testing.T, msgs []llm.Message) {
	t.Helper()
	if again, log := Repair(msgs); len(log) != 0 || !reflect.DeepEqual(again, msgs) {
		t.Fatalf("repaired history is not stable: %v", log)
	}
	for i, m := range msgs {
		if m.Role != llm.RoleAssistant {
			continue
		}
		want := map[string]int{}
		for _, c := range m.ToolCalls() {
			want[c.ID] = 0
		}
		for j := i + 1; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			for _, r := range msgs[j].ToolResults() {
				if _, ok := want[r.CallID]; !ok {
					t.Fatalf("result %s has no call in message %d", r.CallID, i)
				}
				want[r.CallID]++
			}
		}
		for id, n := range want {
			if n != 1 {
				t.Fatalf("call %s has %d results", id, n)
			}
		}
	}
}

// TestRepairDropsAnOrphanResultAndFoldsItIntoTheSummary: a compaction that
// kept a tool_result but summarised away its tool_use is repaired to the
// expected messages, the orphan's output folded into the summary, the
// input untouched.
// Case B25 (testdata/B25/messages_after_compaction_BAD.json; openclaw/openclaw#8525).
func TestRepairDropsAnOrphanResultAndFoldsItIntoTheSummary(t *testing.T) {
	dir := filepath.Join("testdata", "B25")
	bad := fromWire(t, filepath.Join(dir, "messages_after_compaction_BAD.json"))
	got, log := Repair(bad)
	checkInvariant(t, got)
	if len(log) != 1 || !strings.Contains(log[0], "toolu_A1") {
		t.Errorf("repair log = %v, want one line about toolu_A1", log)
	}
	want := readWireJSON(t, filepath.Join(dir, "messages_repaired.json"))
	gotWire := toAnthropic(got)
	if len(gotWire) != len(want) {
		t.Fatalf("got %d messages, want %d:\n%s", len(gotWire), len(want), jsonOf(gotWire))
	}
	// Messages after the summary: exactly as expected.
	if !reflect.DeepEqual(gotWire[1:], want[1:]) {
		t.Errorf("repaired tail:\n%s\nwant:\n%s", jsonOf(gotWire[1:]), jsonOf(want[1:]))
	}
	// The summary keeps its text and carries the orphan's output. The
	// expected file words that note as a model would ("go test reported
	// FAIL TestParse"); Repair, being pure, folds the output's own first
	// line under the same label.
	summary := bad[0].Text()
	gotFirst := gotWire[0].(map[string]any)["content"].(string)
	wantFirst := want[0].(map[string]any)["content"].(string)
	if !strings.HasPrefix(wantFirst, summary+" "+foldPrefix) {
		t.Fatalf("expected file changed shape: %q", wantFirst)
	}
	if gotFirst != summary+" "+foldPrefix+"--- FAIL: TestParse (0.00s)]" {
		t.Errorf("summary = %q", gotFirst)
	}
	if input := toAnthropic(bad); reflect.DeepEqual(input, gotWire) {
		t.Error("input was modified")
	}
}

// TestRepairDropsAnOrphanToolMessageInTheOpenAIShape: the same repair for
// a role "tool" message without its assistant call.
// Case B25 (testdata/B25/messages_after_compaction_BAD_openai.json; earendil-works/pi#8667).
func TestRepairDropsAnOrphanToolMessageInTheOpenAIShape(t *testing.T) {
	bad := fromWire(t, filepath.Join("testdata", "B25", "messages_after_compaction_BAD_openai.json"))
	got, log := Repair(bad)
	checkInvariant(t, got)
	if len(log) != 1 || !strings.Contains(log[0], "call_A1") {
		t.Errorf("repair log = %v", log)
	}
	// system, summary (+ folded note), assistant call_B2, its result.
	want := []llm.Message{bad[0], llm.TextMessage(llm.RoleUser, "[Summary: ...] "+foldPrefix+"--- FAIL: TestParse (0.00s)]"), bad[3], bad[4]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", jsonOf(got), jsonOf(want))
	}
}

// TestInterruptedCallsEachGetOneResultRecordedOrRepaired: an interrupt
// records a result for every emitted call (partial output for the running
// one) before the user's text, giving the expected next request; a log that
// lost the interrupt is repaired on resume with errors in the same places.
// Case B26 (testdata/B26; anthropics/claude-code#1956, tidyverse/ellmer#459).
func TestInterruptedCallsEachGetOneResultRecordedOrRepaired(t *testing.T) {
	dir := filepath.Join("testdata", "B26")
	session := fromWire(t, filepath.Join(dir, "session_events.json"))
	want := readWireJSON(t, filepath.Join(dir, "expected_next_request_messages.json"))

	// The loop's path: on interrupt it records results for every call at
	// once (the running one with its partial output), then the user's text.
	calls := session[1].ToolCalls()
	var results []llm.Part
	for _, r := range InterruptResults(calls, "toolu_C1", "ok  \tzero/pkg/a\t0.2s", 3*time.Second+200*time.Millisecond) {
		results = append(results, llm.Part{Type: llm.PartToolResult, ToolResult: &r})
	}
	next := []llm.Message{session[0], session[1], {Role: llm.RoleTool, Parts: results}, session[2]}
	got, log := Repair(next)
	if len(log) != 0 {
		t.Errorf("a recorded interrupt needed repairs: %v", log)
	}
	checkInvariant(t, got)
	if gotWire := toAnthropic(got); !reflect.DeepEqual(gotWire, want) {
		t.Errorf("next request:\n%s\nwant:\n%s", jsonOf(gotWire), jsonOf(want))
	}

	// The safety net: a session log that lost the interrupt (crash) is
	// repaired on resume with synthetic errors in the same places.
	got, log = Repair(session)
	checkInvariant(t, got)
	if len(log) != 2 || !strings.Contains(log[0], "toolu_C1") || !strings.Contains(log[1], "toolu_C2") {
		t.Errorf("repair log = %v", log)
	}
	gotWire := toAnthropic(got)
	for _, i := range []int{0, 1} {
		blk := want[2].(map[string]any)["content"].([]any)[i].(map[string]any)
		blk["content"] = MissingResultContent
	}
	if !reflect.DeepEqual(gotWire, want) {
		t.Errorf("resumed:\n%s\nwant:\n%s", jsonOf(gotWire), jsonOf(want))
	}
}

func TestRepairTable(t *testing.T) {
	call := func(id string) llm.Part {
		return llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "grep", Arguments: "{}"}}
	}
	res := func(id string) llm.Message {
		return llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "grep", Content: "r" + id})
	}
	asst := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, id := range ids {
			m.Parts = append(m.Parts, call(id))
		}
		return m
	}
	user := llm.TextMessage(llm.RoleUser, "go on")
	missing := func(id string) llm.Message {
		return llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "grep", Content: MissingResultContent, IsError: true})
	}
	tests := []struct {
		name    string
		in, out []llm.Message
		repairs int
	}{
		{"valid", []llm.Message{user, asst("a", "b"), res("a"), res("b"), user}, []llm.Message{user, asst("a", "b"), res("a"), res("b"), user}, 0},
		{"duplicate result", []llm.Message{asst("a"), res("a"), res("a")}, []llm.Message{asst("a"), res("a")}, 1},
		{"result after user text is orphan", []llm.Message{asst("a"), user, res("a")}, []llm.Message{asst("a"), missing("a"), user}, 2},
		{"result for older assistant", []llm.Message{asst("a"), res("a"), asst("b"), res("a"), res("b")}, []llm.Message{asst("a"), res("a"), asst("b"), res("b")}, 1},
		{"dangling at end", []llm.Message{user, asst("a")}, []llm.Message{user, asst("a"), missing("a")}, 1},
		{"repeated call id", []llm.Message{asst("a", "a"), res("a")}, []llm.Message{asst("a"), res("a")}, 1},
		{"partial answers", []llm.Message{asst("a", "b"), res("b"), user}, []llm.Message{asst("a", "b"), res("b"), missing("a"), user}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, log := Repair(tt.in)
			if len(log) != tt.repairs {
				t.Errorf("repairs %v, want %d", log, tt.repairs)
			}
			if !reflect.DeepEqual(got, tt.out) {
				t.Errorf("got\n%s\nwant\n%s", jsonOf(got), jsonOf(tt.out))
			}
			checkInvariant(t, got)
		})
	}
}

// TestRepairFixes checks the repairs as values, results in a user message
// (the Anthropic shape) and KeepUserRuns, the form the session log's
// resume uses.
func TestRepairFixes(t *testing.T) {
	call := func(id string) llm.Part {
		return llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "grep", Arguments: "{}"}}
	}
	resPart := func(id, content string, isErr bool) llm.Part {
		return llm.Part{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: id, Name: "grep", Content: content, IsError: isErr}}
	}
	text := llm.Part{Type: llm.PartText, Text: "go on"}
	asst := llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{call("a"), call("b"), call("b")}}
	asstAB := llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{call("a"), call("b")}}
	u1, u2 := llm.TextMessage(llm.RoleUser, "one"), llm.TextMessage(llm.RoleUser, "two")
	tests := []struct {
		name  string
		opts  RepairOptions
		in    []llm.Message
		out   []llm.Message
		fixes []Fix
	}{
		{"mixed user message: missing result before the text", RepairOptions{},
			[]llm.Message{asst, {Role: llm.RoleUser, Parts: []llm.Part{resPart("a", "ra", false), resPart("zz", "stray", false), text}}},
			[]llm.Message{asstAB, {Role: llm.RoleUser, Parts: []llm.Part{resPart("a", "ra", false), resPart("b", MissingResultContent, true), text}}},
			[]Fix{{FixRepeatedCall, "b", "grep"}, {FixOrphanResult, "zz", "grep"}, {FixMissingResult, "b", "grep"}}},
		{"mixed message closes the calls: a later result is an orphan", RepairOptions{},
			[]llm.Message{asstAB, {Role: llm.RoleUser, Parts: []llm.Part{resPart("a", "ra", false), resPart("b", "rb", false), text}}, llm.ToolResultMessage(llm.ToolResult{CallID: "b"})},
			[]llm.Message{asstAB, {Role: llm.RoleUser, Parts: []llm.Part{resPart("a", "ra", false), resPart("b", "rb", false), text}}},
			[]Fix{{FixOrphanResult, "b", ""}}},
		{"mixed message left with text only is a user message", RepairOptions{},
			[]llm.Message{u1, {Role: llm.RoleUser, Parts: []llm.Part{resPart("zz", "stray", false), text}}},
			[]llm.Message{llm.TextMessage(llm.RoleUser, "one\n\ngo on")},
			[]Fix{{FixOrphanResult, "zz", "grep"}, {Kind: FixMergedUsers}}},
		{"result part without a result", RepairOptions{},
			[]llm.Message{{Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult}}}, u1},
			[]llm.Message{u1},
			[]Fix{{Kind: FixOrphanResult}}},
		{"user runs merged", RepairOptions{},
			[]llm.Message{u1, u2},
			[]llm.Message{llm.TextMessage(llm.RoleUser, "one\n\ntwo")},
			[]Fix{{Kind: FixMergedUsers}}},
		{"user runs kept", RepairOptions{KeepUserRuns: true},
			[]llm.Message{u1, u2}, []llm.Message{u1, u2}, nil},
		{"caller's missing text", RepairOptions{KeepUserRuns: true, MissingContent: "lost"},
			[]llm.Message{asstAB, llm.ToolResultMessage(llm.ToolResult{CallID: "b", Name: "grep", Content: "rb"})},
			[]llm.Message{asstAB, llm.ToolResultMessage(llm.ToolResult{CallID: "b", Name: "grep", Content: "rb"}), llm.ToolResultMessage(llm.ToolResult{CallID: "a", Name: "grep", Content: "lost", IsError: true})},
			[]Fix{{FixMissingResult, "a", "grep"}}},
		{"second result", RepairOptions{KeepUserRuns: true},
			[]llm.Message{asstAB, {Role: llm.RoleTool, Parts: []llm.Part{resPart("b", "rb", false), resPart("a", "ra", false), resPart("b", "again", false)}}},
			[]llm.Message{asstAB, {Role: llm.RoleTool, Parts: []llm.Part{resPart("b", "rb", false), resPart("a", "ra", false)}}},
			[]Fix{{FixSecondResult, "b", "grep"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := jsonOf(tt.in)
			got, fixes := RepairFixes(tt.in, tt.opts)
			if !reflect.DeepEqual(got, tt.out) {
				t.Errorf("got\n%s\nwant\n%s", jsonOf(got), jsonOf(tt.out))
			}
			if !reflect.DeepEqual(fixes, tt.fixes) {
				t.Errorf("fixes %v, want %v", fixes, tt.fixes)
			}
			if jsonOf(tt.in) != before {
				t.Error("input modified")
			}
			// Repair logs the same repairs, one line each.
			if !tt.opts.KeepUserRuns {
				_, log := Repair(tt.in)
				var want []string
				for _, f := range tt.fixes {
					want = append(want, f.String())
				}
				if !reflect.DeepEqual(log, want) {
					t.Errorf("log %q, want %q", log, want)
				}
			}
			if again, more := RepairFixes(got, tt.opts); more != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("repaired history is not stable: %v", more)
			}
		})
	}
}

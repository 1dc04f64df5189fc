package contextmgr

import (
	"reflect"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// historyFrom builds a history from fuzz bytes, two bytes a message: the
// first picks the shape, the second the call ids (from a small alphabet,
// so repeats, orphans and duplicates are common).
func historyFrom(data []byte) []llm.Message {
	id := func(b byte) string { return string(rune('a' + b%4)) }
	res := func(b byte) llm.Part {
		return llm.Part{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: id(b), Name: "t", Content: "r" + id(b)}}
	}
	var out []llm.Message
	for i := 0; i+1 < len(data); i += 2 {
		k, b := data[i], data[i+1]
		switch k % 7 {
		case 0:
			out = append(out, llm.TextMessage(llm.RoleUser, "u"))
		case 1:
			out = append(out, llm.TextMessage(llm.RoleUser, "[Summary: s]"))
		case 2:
			m := llm.Message{Role: llm.RoleAssistant}
			for j := range int(b%3) + 1 {
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id(b >> (2 * j)), Name: "t", Arguments: "{}"}})
			}
			out = append(out, m)
		case 3:
			out = append(out, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{res(b), res(b >> 2)}})
		case 4:
			out = append(out, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{res(b), {Type: llm.PartText, Text: "go on"}}})
		case 5:
			out = append(out, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult}}})
		case 6:
			out = append(out, llm.TextMessage(llm.RoleAssistant, "a"))
		}
	}
	return out
}

// FuzzRepair: for any history, the repaired one keeps the invariant
// (every call answered once by the result-bearing messages right after
// it, every result answering such a call), repairing it again changes
// nothing, and the input is left as it was; with either option set.
func FuzzRepair(f *testing.F) {
	f.Add([]byte{2, 5, 3, 1, 0, 0})       // B26 shape: calls, one result, user
	f.Add([]byte{1, 0, 3, 0, 2, 1, 3, 1}) // B25 shape: summary, orphan, pair
	f.Add([]byte{2, 6, 4, 2, 0, 0, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := historyFrom(data)
		before := jsonOf(in)
		for _, opts := range []RepairOptions{{}, {KeepUserRuns: true, MissingContent: "lost"}} {
			got, fixes := RepairFixes(in, opts)
			if jsonOf(in) != before {
				t.Fatal("input modified")
			}
			again, more := RepairFixes(got, opts)
			if more != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("not stable: %v\n%s", more, jsonOf(got))
			}
			if len(fixes) == 0 && !reflect.DeepEqual(got, in) {
				t.Fatal("changed without a fix")
			}
			checkPairs(t, got)
			if !opts.KeepUserRuns {
				for i := 1; i < len(got); i++ {
					if mergeable(got[i-1]) && mergeable(got[i]) {
						t.Fatalf("user messages %d and %d not merged", i-1, i)
					}
				}
			}
		}
	})
}

// checkPairs is checkInvariant's rule over any message that carries
// results, the Anthropic-shaped user message included.
func checkPairs(t *testing.T, msgs []llm.Message) {
	t.Helper()
	var want map[string]int
	for i, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant:
			closeCalls(t, want)
			want = map[string]int{}
			for _, c := range m.ToolCalls() {
				if _, dup := want[c.ID]; dup {
					t.Fatalf("message %d repeats call %s", i, c.ID)
				}
				want[c.ID] = 0
			}
		case hasResults(m):
			for _, p := range m.Parts {
				if p.Type != llm.PartToolResult {
					continue
				}
				if p.ToolResult == nil {
					t.Fatalf("message %d keeps an empty result part", i)
				}
				if _, ok := want[p.ToolResult.CallID]; !ok {
					t.Fatalf("message %d: result %s answers no call", i, p.ToolResult.CallID)
				}
				want[p.ToolResult.CallID]++
			}
			if m.Role != llm.RoleTool && len(m.ToolResults()) < len(m.Parts) {
				closeCalls(t, want) // results then text: the calls end here
				want = nil
			}
		default:
			closeCalls(t, want)
			want = nil
		}
	}
	closeCalls(t, want)
}

func closeCalls(t *testing.T, want map[string]int) {
	t.Helper()
	for id, n := range want {
		if n != 1 {
			t.Fatalf("call %s has %d results", id, n)
		}
	}
}

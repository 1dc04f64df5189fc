package contextmgr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// session builds: system, task, then turns of (assistant text + read_file
// call, its result of resultBytes, assistant remark).
func session(turns, resultBytes int) []llm.Message {
	msgs := []llm.Message{
		llm.TextMessage(llm.RoleSystem, "You are Zero."),
		llm.TextMessage(llm.RoleUser, "Fix the parser."),
	}
	for i := 0; i < turns; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{
				{Type: llm.PartText, Text: fmt.Sprintf("Reading file %d.", i)},
				{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i)}},
			}},
			llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "read_file", Content: strings.Repeat(fmt.Sprintf("line of f%d\n", i), resultBytes/11)}),
			llm.TextMessage(llm.RoleAssistant, strings.Repeat(fmt.Sprintf("Notes on file %d. ", i), 30)),
		)
	}
	return msgs
}

func TestPlanCompactionUnderBudget(t *testing.T) {
	msgs := session(3, 500)
	p, err := PlanCompaction(msgs, HistoryBytes(msgs), 4)
	if err != nil || p.Summarize() || len(p.Prune) != 0 {
		t.Fatalf("plan %+v err %v", p, err)
	}
	out, log := ApplyCompaction(msgs, p, "")
	if !reflect.DeepEqual(out, msgs) || len(log) != 0 {
		t.Error("empty plan changed the history")
	}
}

func TestPlanCompactionPruneFirst(t *testing.T) {
	msgs := session(6, 6000)
	dir := t.TempDir()
	// The oldest result was capped earlier: its spill file holds it all.
	full := msgs[3].Parts[0].ToolResult.Content + "more"
	path, err := Spill(dir, "call_0", full)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := Cap(full, 5000, path)
	msgs[3].Parts[0].ToolResult.Content = kept

	budget := HistoryBytes(msgs) - 15000
	p, err := PlanCompaction(msgs, budget, 6)
	if err != nil {
		t.Fatal(err)
	}
	if p.Summarize() || len(p.Prune) != 4 || p.AfterPrune > budget {
		t.Fatalf("plan %+v: want pruning of the 4 stale results only", p)
	}
	out, log := ApplyCompaction(msgs, p, "")
	if len(log) != 0 {
		t.Errorf("repairs %v", log)
	}
	if HistoryBytes(out) != p.AfterPrune || HistoryBytes(out) > budget {
		t.Errorf("size %d, plan said %d, budget %d", HistoryBytes(out), p.AfterPrune, budget)
	}
	// The recent suffix is untouched; the stale results are stubs that
	// still say where the full text is.
	if !reflect.DeepEqual(out[len(out)-6:], msgs[len(msgs)-6:]) {
		t.Error("recent messages changed")
	}
	first := out[3].ToolResults()[0].Content
	if !strings.Contains(first, "full output in "+path) {
		t.Errorf("pruned capped result lost its spill path: %q", first)
	}
	if c := out[6].ToolResults()[0].Content; !strings.HasPrefix(c, "[old tool output pruned: ") || !strings.Contains(c, "run the tool again") {
		t.Errorf("pruned result: %q", c)
	}
}

func TestPlanCompactionSummarize(t *testing.T) {
	msgs := session(12, 200)
	budget := HistoryBytes(msgs) / 3
	p, err := PlanCompaction(msgs, budget, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Summarize() || p.Start != 1 {
		t.Fatalf("plan %+v: want a summary from the first non-system message", p)
	}
	// keepRecent 5 would start the suffix at a tool result: the cut moves
	// back to its assistant call.
	if msgs[p.End].Role == llm.RoleTool || len(msgs)-p.End < 5 {
		t.Fatalf("cut at %d (%s) keeps %d messages", p.End, msgs[p.End].Role, len(msgs)-p.End)
	}
	out, log := ApplyCompaction(msgs, p, "Read f0..f9; parser bug is in f3.")
	if len(log) != 0 {
		t.Errorf("repairs %v", log)
	}
	if HistoryBytes(out) >= HistoryBytes(msgs) || HistoryBytes(out) > p.After {
		t.Errorf("size %d -> %d, plan said %d", HistoryBytes(msgs), HistoryBytes(out), p.After)
	}
	if out[0].Role != llm.RoleSystem || out[1].Text() != SummaryPrefix+"Read f0..f9; parser bug is in f3.]" {
		t.Errorf("head: %+v", out[:2])
	}
	if !reflect.DeepEqual(out[2:], msgs[p.End:]) {
		t.Error("suffix changed")
	}

	// Low-water mark: the next plan never re-summarises the summary.
	more := append(out, session(12, 200)[2:]...)
	p2, err := PlanCompaction(more, HistoryBytes(more)/2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !p2.Summarize() || p2.Start != 2 {
		t.Errorf("second plan starts at %d, want 2 (after the summary)", p2.Start)
	}
}

func TestPlanCompactionKeepsPinned(t *testing.T) {
	msgs := session(12, 200)
	plan := llm.TextMessage(llm.RoleSystem, "Plan: 1. read 2. fix 3. test")
	msgs = append(msgs[:8:8], append([]llm.Message{plan}, msgs[8:]...)...)
	p, err := PlanCompaction(msgs, HistoryBytes(msgs)/3, 5)
	if err != nil || !p.Summarize() || p.Start > 8 || p.End <= 8 {
		t.Fatalf("plan %+v err %v: want the plan message inside the range", p, err)
	}
	out, _ := ApplyCompaction(msgs, p, "done so far")
	if !reflect.DeepEqual(out[1], plan) || !strings.HasPrefix(out[2].Text(), SummaryPrefix) {
		t.Errorf("pinned plan not kept before the summary: %s", jsonOf(out[:3]))
	}
}

func TestPlanCompactionCannotShrink(t *testing.T) {
	msgs := session(2, 200)
	// Everything is within the recent suffix: nothing to prune or summarise.
	_, err := PlanCompaction(msgs, 100, len(msgs))
	if !errors.Is(err, ErrCannotShrink) {
		t.Fatalf("err = %v, want ErrCannotShrink", err)
	}
	// A middle too small to beat a summary is not worth summarising.
	small := []llm.Message{llm.TextMessage(llm.RoleSystem, "s"), llm.TextMessage(llm.RoleUser, "hi"), llm.TextMessage(llm.RoleAssistant, strings.Repeat("x", 5000))}
	if _, err := PlanCompaction(small, 100, 1); !errors.Is(err, ErrCannotShrink) {
		t.Fatalf("err = %v, want ErrCannotShrink", err)
	}
}

// TestApplyCompactionKeepsPinnedUserMessages: pinned user messages survive
// a summary verbatim, right after the summary text, inside the summary
// message; indices outside the range or not a user text message are
// ignored.
func TestApplyCompactionKeepsPinnedUserMessages(t *testing.T) {
	base := session(12, 200)
	p0, err := PlanCompaction(base, HistoryBytes(base)/3, 5)
	if err != nil || !p0.Summarize() {
		t.Fatalf("plan %+v err %v", p0, err)
	}
	tests := []struct {
		name string
		pin  []int
		want []string // texts that must follow the summary, in order
	}{
		{"none", nil, nil},
		{"the task", []int{1}, []string{"Fix the parser."}},
		{"out of range and non-user ignored", []int{0, 2, p0.End, len(base) + 3}, nil},
		{"duplicates once", []int{1, 1}, []string{"Fix the parser."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := p0
			p.Pin = nil
			p.PinMessages(base, tc.pin...)
			if len(p.Pin) != len(tc.want) {
				t.Fatalf("pinned %v, want %d", p.Pin, len(tc.want))
			}
			out, log := ApplyCompaction(base, p, "Read some files.")
			if len(log) != 0 {
				t.Errorf("repairs %v", log)
			}
			got := out[1].Text()
			wantText := SummaryPrefix + "Read some files.]"
			for _, w := range tc.want {
				wantText += "\n\n" + PinnedLabel + "\n\n" + w
			}
			if got != wantText {
				t.Fatalf("summary message\n got %q\nwant %q", got, wantText)
			}
			if HistoryBytes(out) > p.After {
				t.Errorf("size %d over the plan's estimate %d", HistoryBytes(out), p.After)
			}
			if !reflect.DeepEqual(out[2:], base[p.End:]) {
				t.Error("suffix changed")
			}
		})
	}
}

package contextmgr

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
	"github.com/zero-agent/zero/internal/llm"
)

// SummaryPrefix opens every summary message ApplyCompaction inserts; the
// planner treats such a message as the low-water mark and never puts it in
// a range to summarise again.
const SummaryPrefix = "[Summary of earlier conversation: "

// Planning constants, in bytes.
const (
	// PruneMin is the smallest tool result worth pruning.
	PruneMin = 1024
	// SummaryReserve is the room the planner expects a summary to take.
	SummaryReserve = 2048
)

// ErrCannotShrink is returned when no compaction would make the history
// smaller: the caller must stop with a clear error instead of looping.
var ErrCannotShrink = errors.New("context compaction cannot shrink the conversation any further")

// Plan is what a compaction should do, in two stages: prune stale large
// tool results, then (if still over budget) summarise Start..End.
type Plan struct {
	// Prune lists tool-result locations whose content is replaced by a
	// stub (ApplyCompaction does it).
	Prune []PartRef
	// Start and End delimit the half-open range of messages to summarise;
	// Start == End when pruning alone reaches the budget.
	Start, End int
	// Recap lists recent tool results (in the kept suffix) to cut again,
	// harder, when pruning and summarising cannot reach the budget: one
	// huge result is the usual cause. ApplyCompaction does it with
	// RecapResult.
	Recap []RecapRef
	// Pin lists messages of Start..End (indices into the planned
	// history, ascending) that ApplyCompaction keeps verbatim inside the
	// summary message, after the summary: the user's task must survive a
	// summary that left it out. Set it with PinMessages.
	Pin []int
	// Bytes is the history's size now; AfterPrune after the pruning;
	// After the estimate once summarised (with SummaryReserve) and
	// recapped.
	Bytes, AfterPrune, After int
}

// PinnedLabel introduces a pinned message inside the summary message.
const PinnedLabel = "The user's message, kept verbatim:"

// PinMessages pins the messages of msgs at idx that ApplyCompaction would
// otherwise summarise away: user messages of text and images inside
// Start..End. Other indices (outside the range, not such a user message,
// already pinned) are ignored. After grows by the pinned bytes.
func (p *Plan) PinMessages(msgs []llm.Message, idx ...int) {
	for _, i := range idx {
		if !p.Summarize() || i < p.Start || i >= p.End || i >= len(msgs) || !mergeable(msgs[i]) || isSummary(msgs[i]) || slices.Contains(p.Pin, i) {
			continue
		}
		p.Pin = append(p.Pin, i)
		p.After += MessageBytes(msgs[i]) + len(PinnedLabel) + 4
	}
	slices.Sort(p.Pin)
}

// RecapRef is one result to cut again: where it is, its new cap in bytes,
// and for a read_file result the path its marker names ("" otherwise).
type RecapRef struct {
	PartRef
	Max      int
	ReadPath string
}

// PartRef locates one part of one message.
type PartRef struct{ Msg, Part int }

// Summarize reports whether the plan needs a model summary.
func (p Plan) Summarize() bool { return p.End > p.Start }

// PlanCompaction plans how to bring msgs under budgetBytes while keeping
// every system message (the agent carries the plan and loaded skills as
// system messages; those inside the summarised range are moved before the
// summary), every earlier summary and at least the last keepRecent messages (moved back to a clean tool-call boundary, so a call
// and its results are never split). Stage one prunes tool results larger
// than PruneMin outside the kept suffix; stage two picks the middle after
// the low-water mark (the last summary) up to the suffix for the model to
// summarise. Stage three, when the first two leave the history over
// budget, cuts the tool results of the kept suffix again, sharing what is
// left of the budget among them like TurnCaps (never below MinResultCap):
// a read_file result keeps whole lines and a marker naming the omitted
// range, any other keeps the spill path its marker names. It returns
// ErrCannotShrink (wrapped with the sizes) when no stage would make the
// history smaller. A history already under budget gets an empty plan.
func PlanCompaction(msgs []llm.Message, budgetBytes, keepRecent int) (Plan, error) {
	p := Plan{Bytes: HistoryBytes(msgs)}
	p.AfterPrune, p.After = p.Bytes, p.Bytes
	if p.Bytes <= budgetBytes {
		return p, nil
	}
	end := cutBoundary(msgs, len(msgs)-max(keepRecent, 0))
	for i := 0; i < end; i++ {
		for j, part := range msgs[i].Parts {
			if part.Type == llm.PartToolResult && part.ToolResult != nil && len(part.ToolResult.Content) > PruneMin && !isPruned(part.ToolResult.Content) {
				p.Prune = append(p.Prune, PartRef{i, j})
				p.AfterPrune -= len(part.ToolResult.Content) - len(prunedStub(part.ToolResult.Content))
			}
		}
	}
	p.After = p.AfterPrune
	if p.AfterPrune <= budgetBytes {
		return p, nil
	}
	start := lowWater(msgs)
	if start < end {
		middle := 0
		for _, m := range msgs[start:end] {
			if m.Role != llm.RoleSystem { // pinned: kept by ApplyCompaction
				middle += MessageBytes(m)
			}
		}
		for _, r := range p.Prune {
			if r.Msg >= start {
				middle -= len(msgs[r.Msg].Parts[r.Part].ToolResult.Content) - len(prunedStub(msgs[r.Msg].Parts[r.Part].ToolResult.Content))
			}
		}
		if middle > SummaryReserve {
			p.Start, p.End = start, end
			p.After = p.AfterPrune - middle + SummaryReserve
		}
	}
	if p.After > budgetBytes {
		p.planRecap(msgs, end, budgetBytes)
	}
	if p.After >= p.Bytes {
		return p, fmt.Errorf("%w (%d bytes, budget %d, %d recent messages kept)", ErrCannotShrink, p.Bytes, budgetBytes, keepRecent)
	}
	return p, nil
}

// planRecap plans stage three over the results of msgs[end:].
func (p *Plan) planRecap(msgs []llm.Message, end, budgetBytes int) {
	var refs []RecapRef
	var sizes []int
	total := 0
	for i := end; i < len(msgs); i++ {
		for j, part := range msgs[i].Parts {
			if part.Type != llm.PartToolResult || part.ToolResult == nil {
				continue
			}
			refs = append(refs, RecapRef{PartRef: PartRef{i, j}})
			sizes = append(sizes, len(part.ToolResult.Content))
			total += len(part.ToolResult.Content)
		}
	}
	if total == 0 {
		return
	}
	// Every marker costs bytes; leave room for one per result.
	allowed := total - (p.After - budgetBytes) - len(refs)*markerRoom
	caps := TurnCaps(sizes, max(allowed, 1), slices.Max(sizes))
	for k, r := range refs {
		if caps[k] >= sizes[k] {
			continue
		}
		res := msgs[r.Msg].Parts[r.Part].ToolResult
		if res.Name == "read_file" {
			r.ReadPath = readPathOf(msgs, r.Msg, res.CallID)
		}
		r.Max = caps[k]
		kept := RecapResult(res.Content, r.Max, r.ReadPath)
		if len(kept) >= sizes[k] {
			continue
		}
		p.Recap = append(p.Recap, r)
		p.After -= sizes[k] - len(kept)
	}
}

// markerRoom is what planRecap reserves for one marker, in bytes.
const markerRoom = 160

// readPathOf returns the path argument of read_file call id, looked up in
// the assistant messages before msgs[at]; "" when not found.
func readPathOf(msgs []llm.Message, at int, id string) string {
	for i := at - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls() {
			if c.ID != id {
				continue
			}
			var args struct {
				Path string `json:"path"`
			}
			raw, err := c.ArgumentsJSON()
			if err != nil || json.Unmarshal(raw, &args) != nil {
				return ""
			}
			return args.Path
		}
	}
	return ""
}

// RecapResult cuts a tool result that is already in the history to max
// bytes: a read_file result (readPath set, numbered lines) by CapRead, so
// its markers still name exact line ranges; any other by Cap, keeping the
// spill path its earlier marker named (none: the marker only counts
// bytes). Content within max comes back unchanged.
func RecapResult(content string, max int, readPath string) string {
	if len(content) <= max {
		return content
	}
	if readPath != "" {
		if kept, _, ok := CapRead(content, max, max, readPath); ok {
			return kept
		}
	}
	sp, extra := spill{}, 0
	if m := spillRefRe.FindStringSubmatch(content); m != nil {
		sp.path = m[2]
	}
	if m := partialRefRe.FindStringSubmatch(content); m != nil && m[3] == sp.path {
		// The file holds the first held bytes of total: say so again.
		held, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		sp.held, extra = held, total-len(content)
	}
	kept, _ := capExtra(content, max, sp, extra)
	return kept
}

// lowWater returns the first index that may be summarised: after the
// leading system messages and after the last summary message.
func lowWater(msgs []llm.Message) int {
	start := 0
	for start < len(msgs) && msgs[start].Role == llm.RoleSystem {
		start++
	}
	for i := len(msgs) - 1; i >= start; i-- {
		if isSummary(msgs[i]) {
			start = i + 1
			break
		}
	}
	return cutBoundaryForward(msgs, start)
}

func isSummary(m llm.Message) bool {
	return m.Role == llm.RoleUser && strings.HasPrefix(m.Text(), SummaryPrefix)
}

// cutBoundary moves i back until msgs[i] starts a clean segment: not a
// tool message (its call would be cut off from it).
func cutBoundary(msgs []llm.Message, i int) int {
	i = min(max(i, 0), len(msgs))
	for i > 0 && i < len(msgs) && msgs[i].Role == llm.RoleTool {
		i--
	}
	return i
}

// cutBoundaryForward moves i forward past tool messages.
func cutBoundaryForward(msgs []llm.Message, i int) int {
	for i < len(msgs) && msgs[i].Role == llm.RoleTool {
		i++
	}
	return i
}

// spillRefRe finds the spill file a marker names: the whole output (Marker)
// or its first bytes (a tool's file limit), and prunedStub's two forms.
var spillRefRe = lazyregexp.New(`(full output|bytes are|output is) in (\S+), read it with read_file`)

// partialRefRe is the marker of a spill file that holds only the first
// bytes of the output (spill.marker): held, total, path.
var partialRefRe = lazyregexp.New(`the first (\d+) of (\d+) bytes are in (\S+), read it with read_file`)

// prunedStub replaces a stale result. When the result was already capped,
// its spill file still holds everything (or the first bytes, up to the
// tool's limit), and the stub keeps pointing there.
func prunedStub(content string) string {
	if m := spillRefRe.FindStringSubmatch(content); m != nil {
		what := "full output"
		if m[1] != what {
			what = "the start of its output is"
		}
		return fmt.Sprintf("[old tool output pruned: %d bytes; %s in %s, read it with read_file offset/limit]", len(content), what, m[2])
	}
	return fmt.Sprintf("[old tool output pruned: %d bytes; run the tool again if you need it]", len(content))
}

func isPruned(s string) bool { return strings.HasPrefix(s, "[old tool output pruned: ") }

// ApplyCompaction carries out p: it cuts the Recap results again
// (RecapResult), replaces pruned results with a stub
// and, when p.Summarize(), replaces the non-system messages of Start..End
// with one user message SummaryPrefix + summary + "]", placed after the
// system messages of that range; each message of p.Pin follows the
// summary inside that message, introduced by PinnedLabel, its parts
// unchanged. The result passes through Repair
// as a safety net; its log is returned. msgs is not modified.
func ApplyCompaction(msgs []llm.Message, p Plan, summary string) ([]llm.Message, []string) {
	out := make([]llm.Message, len(msgs))
	copy(out, msgs)
	for _, r := range p.Recap {
		m := out[r.Msg]
		parts := append([]llm.Part(nil), m.Parts...)
		res := *parts[r.Part].ToolResult
		res.Content = RecapResult(res.Content, r.Max, r.ReadPath)
		parts[r.Part].ToolResult = &res
		out[r.Msg] = llm.Message{Role: m.Role, Parts: parts}
	}
	for _, r := range p.Prune {
		m := out[r.Msg]
		parts := append([]llm.Part(nil), m.Parts...)
		res := *parts[r.Part].ToolResult
		res.Content = prunedStub(res.Content)
		parts[r.Part].ToolResult = &res
		out[r.Msg] = llm.Message{Role: m.Role, Parts: parts}
	}
	if p.Summarize() {
		s := llm.TextMessage(llm.RoleUser, SummaryPrefix+strings.TrimSpace(summary)+"]")
		for _, i := range p.Pin {
			s = mergeUser(mergeUser(s, llm.TextMessage(llm.RoleUser, PinnedLabel)), out[i])
		}
		head := append([]llm.Message(nil), out[:p.Start]...)
		for _, m := range out[p.Start:p.End] {
			if m.Role == llm.RoleSystem { // the plan, loaded skills: pinned
				head = append(head, m)
			}
		}
		out = append(append(head, s), out[p.End:]...)
	}
	return Repair(out)
}

// MessageBytes is the size of a message as the levers count it: text,
// reasoning, tool-call names and arguments, and tool-result content.
func MessageBytes(m llm.Message) int {
	n := 0
	for _, p := range m.Parts {
		n += len(p.Text)
		if p.ToolCall != nil {
			n += len(p.ToolCall.Name) + len(p.ToolCall.Arguments)
		}
		if p.ToolResult != nil {
			n += len(p.ToolResult.Content) + len(p.ToolResult.Images)*ImageBytes
		}
		if p.Image != nil {
			n += ImageBytes
		}
	}
	return n
}

// ImageBytes is what one image counts as, in text bytes: providers bill
// an image by its pixels, not its file size (Anthropic: about
// width×height/750 tokens, at most about 1600 for an image they do not
// scale down, https://docs.anthropic.com/en/docs/build-with-claude/vision),
// so a 1 MB screenshot must not look like 250K tokens of text.
const ImageBytes = 1600 * 4

// HistoryBytes sums MessageBytes over msgs.
func HistoryBytes(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += MessageBytes(m)
	}
	return n
}

package contextmgr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
)

// Lever names one way of saving context, as /context and `zero context`
// show it.
type Lever string

// Levers.
const (
	LeverCap        Lever = "result cap"       // Cap and Shape of one result
	LeverTurnBudget Lever = "turn budget"      // extra cut from TurnCaps
	LeverReadCache  Lever = "read cache"       // stubs for unchanged re-reads
	LeverSearch     Lever = "two-stage search" // grep pointers instead of file bodies
	LeverWrites     Lever = "write compaction"
	LeverPrune      Lever = "pruning"     // stale large results stubbed
	LeverSummary    Lever = "summarizing" // middle replaced by a summary
)

// Levers lists every lever in display order.
var Levers = []Lever{LeverCap, LeverTurnBudget, LeverReadCache, LeverSearch, LeverWrites, LeverPrune, LeverSummary}

// Stats counts what each lever saved this session: bytes kept out of the
// window and how many times it acted; and what the server's prompt cache
// reused. The zero value is ready to use; not safe for concurrent use.
type Stats struct {
	Saved map[Lever]int // bytes
	Times map[Lever]int
	// Cache is the session's prompt-cache accounting, from usage reports.
	Cache PromptCache
}

// Add records that lever saved bytes once. Non-positive savings count as
// an action with no bytes.
func (s *Stats) Add(lever Lever, bytes int) {
	if s.Saved == nil {
		s.Saved, s.Times = map[Lever]int{}, map[Lever]int{}
	}
	s.Saved[lever] += max(bytes, 0)
	s.Times[lever]++
}

// Total returns the bytes saved by all levers.
func (s *Stats) Total() int {
	n := 0
	for _, v := range s.Saved {
		n += v
	}
	return n
}

// Report renders one line per lever that acted, with estimated tokens,
// then a total line, e.g. "read cache        3x   12.0 KB  (~3.1K tokens)".
func (s *Stats) Report(e *Estimator) string {
	var b strings.Builder
	for _, l := range Levers {
		if s.Times[l] == 0 {
			continue
		}
		fmt.Fprintf(&b, "%-17s %4dx  %9s  (~%s tokens)\n", l, s.Times[l], HumanBytes(s.Saved[l]), humanCount(e.Tokens(s.Saved[l])))
	}
	fmt.Fprintf(&b, "%-17s        %9s  (~%s tokens)\n", "total saved", HumanBytes(s.Total()), humanCount(e.Tokens(s.Total())))
	return b.String()
}

// HumanBytes renders n bytes as "512 B", "12.0 KB" or "3.4 MB".
func HumanBytes(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}

func humanCount(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fK", float64(n)/1000)
}

// Item is one entry of the window as /context lists it.
type Item struct {
	// Msg is the message index; Label says what it is, e.g.
	// "tool result read_file (call_ab12)", "assistant text", "user text".
	Msg   int
	Label string
	Bytes int
}

// Biggest returns the n largest parts of msgs (text, reasoning, tool-call
// arguments, tool results), largest first; ties keep history order.
func Biggest(msgs []llm.Message, n int) []Item {
	var items []Item
	for i, m := range msgs {
		for _, p := range m.Parts {
			it := Item{Msg: i}
			switch {
			case p.ToolResult != nil:
				it.Label = fmt.Sprintf("tool result %s (%s)", p.ToolResult.Name, p.ToolResult.CallID)
				it.Bytes = len(p.ToolResult.Content)
			case p.ToolCall != nil:
				it.Label = fmt.Sprintf("tool call %s (%s)", p.ToolCall.Name, p.ToolCall.ID)
				it.Bytes = len(p.ToolCall.Name) + len(p.ToolCall.Arguments)
			case p.Image != nil:
				it.Label = fmt.Sprintf("%s image", m.Role)
				it.Bytes = ImageBytes
			default:
				it.Label = fmt.Sprintf("%s %s", m.Role, p.Type)
				it.Bytes = len(p.Text)
			}
			items = append(items, it)
		}
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].Bytes > items[b].Bytes })
	if n >= 0 && len(items) > n {
		items = items[:n]
	}
	return items
}

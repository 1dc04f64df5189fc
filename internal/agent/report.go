package agent

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"github.com/zero-agent/zero/internal/llm"
)

// Report is the state of the context window for /context and
// `zero context`: how full the window is and with what (system prompt,
// tool schemas, messages, free space, as Claude Code's /context shows
// it), what each lever saved this session and what takes the most room.
// Bytes are bytes; tokens are estimated with the bytes-per-token ratio of
// the last request the server counted (4 bytes per token until the first
// report, Calibrated false). What the server measured (the last prompt,
// the prompt cache's hits) is reported apart, and String says which
// figures are which.
//
// The savings cover the session: on resume (Options.History) they are
// recounted from the markers the levers left in the history (see
// recount); what an earlier summary replaced counts as an action without
// bytes, and the cap and turn-budget cuts of a resumed history are all
// counted as the result cap.
type Report struct {
	// Levers lists each lever that acted, in contextmgr.Levers order.
	Levers []LeverReport
	// SavedBytes and SavedTokens total the levers.
	SavedBytes, SavedTokens int
	// WindowTokens is Options.ContextWindow (0: unknown).
	WindowTokens int
	// UsedTokens estimates the next request with the calibrated ratio:
	// SystemTokens + ToolsTokens + MessagesTokens.
	UsedTokens int
	// SystemBytes and SystemTokens are the system prompt's, sent with
	// every request.
	SystemBytes, SystemTokens int
	// Tools is how many tool schemas are offered now (plan mode offers
	// fewer); ToolsBytes and ToolsTokens are their size in every request.
	Tools, ToolsBytes, ToolsTokens int
	// MessagesTokens is the history's share of UsedTokens, with the
	// framing of each message.
	MessagesTokens int
	// FreeTokens is what the window has left (0 when WindowTokens is
	// unknown or the estimate passes it).
	FreeTokens int
	// LastInputTokens is the prompt size the server last reported (0:
	// never reported).
	LastInputTokens int
	// Cache is the session's prompt-cache account: the prompt tokens the
	// server measured and how many it read from its cache.
	Cache contextmgr.PromptCache
	// InstructionBytes is how much of the system prompt is instruction
	// files (AGENTS.md, CLAUDE.md, ZERO.md…) and InstructionBudget their
	// budget; the run layer fills both (0: none loaded).
	InstructionBytes, InstructionBudget int
	// SkillBytes is how much of the system prompt is the skills listing,
	// SkillBudget its budget, SkillsListed of Skills the skills it names;
	// the run layer fills them (0: no skills).
	SkillBytes, SkillBudget, SkillsListed, Skills int
	// FixedCounted is the system prompt and tool schemas (with an empty
	// turn) as the server's tokenizer counted them at session start, 0
	// when the server offers no count (MeasureFixed).
	FixedCounted int
	// Calibrated says a usage report or a count set BytesPerToken.
	Calibrated    bool
	BytesPerToken float64
	// HistoryBytes and Messages describe the history as it is now.
	HistoryBytes, Messages int
	// Compactions counts compactions this session.
	Compactions int
	// Biggest lists the largest items in the window, largest first.
	Biggest []contextmgr.Item
}

// LeverReport is one lever's savings: how many times it acted and the
// bytes (and estimated tokens) it kept out of the window.
type LeverReport struct {
	Lever         contextmgr.Lever
	Times         int
	Bytes, Tokens int
}

// reportBiggest is how many items ContextReport lists.
const reportBiggest = 8

// ContextReport measures the window now. It is cheap (no I/O) and must not
// be called during a Run from another goroutine.
func (a *Agent) ContextReport() Report {
	specs := a.opts.Tools.Specs(a.opts.Visible)
	r := Report{
		WindowTokens:    a.opts.ContextWindow,
		UsedTokens:      a.est.Tokens(a.historyRequestBytes(a.history)),
		SystemBytes:     len(a.opts.System),
		Tools:           len(specs),
		ToolsBytes:      specBytes(specs),
		LastInputTokens: a.lastInput,
		Cache:           a.mgr.Stats.Cache,
		FixedCounted:    a.fixedCounted,
		Calibrated:      a.lastInput > 0 || a.fixedCounted > 0,
		BytesPerToken:   a.est.BytesPerToken(),
		HistoryBytes:    contextmgr.HistoryBytes(a.history),
		Messages:        len(a.history),
		Compactions:     a.compactions,
		Biggest:         contextmgr.Biggest(a.history, reportBiggest),
	}
	r.SystemTokens = a.est.Tokens(r.SystemBytes)
	r.ToolsTokens = a.est.Tokens(r.ToolsBytes)
	r.MessagesTokens = max(0, r.UsedTokens-r.SystemTokens-r.ToolsTokens)
	if r.WindowTokens > 0 {
		r.FreeTokens = max(0, r.WindowTokens-r.UsedTokens)
	}
	st := a.mgr.Stats
	for _, l := range contextmgr.Levers {
		if st.Times[l] == 0 {
			continue
		}
		r.Levers = append(r.Levers, LeverReport{Lever: l, Times: st.Times[l], Bytes: st.Saved[l], Tokens: a.est.Tokens(st.Saved[l])})
	}
	r.SavedBytes = st.Total()
	r.SavedTokens = a.est.Tokens(r.SavedBytes)
	return r
}

// RestoreMeasurements gives an agent rebuilt from a stored session
// (`zero context`, a resume) what the session's server measured: cache is
// the account of its logged usage events, and counted the history the last
// of them counted (the log rebuilt up to that event). The estimator takes
// its ratio from that request, as if the agent had sent it with today's
// system prompt and tools.
func (a *Agent) RestoreMeasurements(counted []llm.Message, cache contextmgr.PromptCache) {
	a.mgr.Stats.Cache = cache
	if cache.Last.InputTokens <= 0 {
		return
	}
	b := a.historyRequestBytes(counted)
	a.est.Measure(b, cache.Last.InputTokens)
	a.lastInput, a.lastBytes = cache.Last.InputTokens, b
}

// String renders the report as /context prints it: the window, then one
// line per part of the next request and the free space, then what the
// server measured and what is estimated (figures marked ~), the prompt
// cache's hit rate, the savings and the biggest items.
func (r Report) String() string {
	var b strings.Builder
	if r.WindowTokens > 0 {
		fmt.Fprintf(&b, "window: ~%d of %d tokens (%d%%)\n", r.UsedTokens, r.WindowTokens, r.UsedTokens*100/r.WindowTokens)
	} else {
		fmt.Fprintf(&b, "window: ~%d tokens used (window size unknown)\n", r.UsedTokens)
	}
	r.part(&b, "system prompt", r.SystemTokens, contextmgr.HumanBytes(r.SystemBytes))
	if r.InstructionBudget > 0 && r.InstructionBytes > 0 {
		fmt.Fprintf(&b, "    of which instruction files %s of their %s budget (/memory lists them)\n",
			contextmgr.HumanBytes(r.InstructionBytes), contextmgr.HumanBytes(r.InstructionBudget))
	}
	if r.Skills > 0 {
		fmt.Fprintf(&b, "    of which skills listing %s of its %s budget (%d of %d skills; /skills lists them)\n",
			contextmgr.HumanBytes(r.SkillBytes), contextmgr.HumanBytes(r.SkillBudget), r.SkillsListed, r.Skills)
	}
	r.part(&b, fmt.Sprintf("tool schemas (%d)", r.Tools), r.ToolsTokens, contextmgr.HumanBytes(r.ToolsBytes))
	r.part(&b, fmt.Sprintf("messages (%d)", r.Messages), r.MessagesTokens, contextmgr.HumanBytes(r.HistoryBytes))
	if r.WindowTokens > 0 {
		r.part(&b, "free", r.FreeTokens, "")
	}
	r.measured(&b)
	if len(r.Levers) == 0 {
		b.WriteString("saved: nothing yet\n")
	} else {
		b.WriteString("saved this session:\n")
		for _, l := range r.Levers {
			fmt.Fprintf(&b, "  %-17s %4dx  %9s  (~%d tokens)\n", l.Lever, l.Times, contextmgr.HumanBytes(l.Bytes), l.Tokens)
		}
		fmt.Fprintf(&b, "  %-17s        %9s  (~%d tokens)\n", "total", contextmgr.HumanBytes(r.SavedBytes), r.SavedTokens)
	}
	if r.Compactions > 0 {
		fmt.Fprintf(&b, "compactions: %d\n", r.Compactions)
	}
	if len(r.Biggest) > 0 {
		b.WriteString("biggest items:\n")
		for _, it := range r.Biggest {
			fmt.Fprintf(&b, "  %9s  %s (message %d)\n", contextmgr.HumanBytes(it.Bytes), it.Label, it.Msg)
		}
	}
	return b.String()
}

// measured writes which figures the server measured and which are
// estimated, then the prompt cache's hit rate over the session and for the
// last request (cached prompt tokens / prompt tokens).
func (r Report) measured(b *strings.Builder) {
	if r.LastInputTokens > 0 {
		fmt.Fprintf(b, "measured by the server: last request %d prompt tokens", r.LastInputTokens)
		if last := r.Cache.Last; last.InputTokens == r.LastInputTokens && last.OutputTokens > 0 {
			fmt.Fprintf(b, ", %d output tokens", last.OutputTokens)
		}
		b.WriteString("\n")
	}
	if r.FixedCounted > 0 {
		fmt.Fprintf(b, "counted by the server's tokenizer: system prompt and tool schemas %d tokens\n", r.FixedCounted)
	}
	how := "as the server counted the last request"
	switch {
	case !r.Calibrated:
		how = "the default, not yet matched to a server count"
	case r.LastInputTokens == 0:
		how = "as the server's tokenizer counted the system prompt and tools"
	}
	fmt.Fprintf(b, "estimated: every figure marked ~, at %.1f bytes/token (%s)\n", r.BytesPerToken, how)
	c := r.Cache
	switch {
	case c.Requests == 0:
	case c.CachedTokens == 0:
		fmt.Fprintf(b, "prompt cache: the server reported no cached prompt tokens in %s\n", requests(c.Requests))
	default:
		fmt.Fprintf(b, "prompt cache: %s of prompt tokens read from the server's cache (%d of %d in %s); last request %s (%d of %d)\n",
			percent(c.HitRate()), c.CachedTokens, c.PromptTokens, requests(c.Requests), percent(c.LastHitRate()), c.Last.CacheReadTokens, c.Last.InputTokens)
	}
}

// requests renders a count of requests ("1 request", "10 requests").
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return strconv.Itoa(n) + " requests"
}

// percent renders a share as a whole percentage, rounded down (a partial
// share never reads 100%).
func percent(f float64) string { return strconv.Itoa(int(f*100)) + "%" }

// part writes one line of the window's breakdown: label, estimated
// tokens, their share of a known window, and the bytes behind them.
func (r Report) part(b *strings.Builder, label string, tokens int, bytes string) {
	share := ""
	if r.WindowTokens > 0 {
		share = fmt.Sprintf("%5.1f%%", float64(tokens)*100/float64(r.WindowTokens))
	}
	line := fmt.Sprintf("  %-19s %8s tokens %s  %9s", label, "~"+strconv.Itoa(tokens), share, bytes)
	b.WriteString(strings.TrimRight(line, " "))
	b.WriteString("\n")
}

// Markers the levers leave in the history (internal/contextmgr), read back
// on resume to recount the savings; compiled on first use (start-up time
// counts, and only a resumed session needs them).
var (
	omittedRe = lazyregexp.New(`\[\.\.\. (\d+) bytes omitted`)
	// readCutRe is contextmgr.ReadMarker with a byte count.
	readCutRe = lazyregexp.New(`\[\.\.\. lines \d+-\d+ omitted \(\d+ lines, (\d+) bytes\)`)
	prunedRe  = lazyregexp.New(`^\[old tool output pruned: (\d+) bytes`)
	appliedRe = lazyregexp.New(`\[(\d+) bytes applied; omitted from history`)
	cachedRe  = lazyregexp.New(`^\[.+ unchanged since turn \d+, see the earlier result\]$`)
)

// recount restores the lever statistics of a resumed history from the
// markers its levers left: cut results name the bytes omitted, pruned
// results their size, applied write stubs the payload size, read-cache
// stubs point at an earlier result of the same call. Items a summary
// replaced are gone; each summary counts as one action with no bytes.
func (a *Agent) recount(h []llm.Message) {
	st := &a.mgr.Stats
	lastFull := map[string]int{} // tool+arguments -> full size of its last result
	args := map[string]string{}  // call id -> tool+arguments
	for _, m := range h {
		if strings.HasPrefix(m.Text(), contextmgr.SummaryPrefix) && m.Role == llm.RoleUser {
			st.Add(contextmgr.LeverSummary, 0)
			a.compactions++
		}
		for _, c := range m.ToolCalls() {
			args[c.ID] = c.Name + "\x00" + c.Arguments
			for _, sm := range appliedRe.FindAllStringSubmatch(c.Arguments, -1) {
				n, _ := strconv.Atoi(sm[1])
				st.Add(contextmgr.LeverWrites, n)
			}
		}
		for _, r := range m.ToolResults() {
			switch {
			case prunedRe.MatchString(r.Content):
				n, _ := strconv.Atoi(prunedRe.FindStringSubmatch(r.Content)[1])
				st.Add(contextmgr.LeverPrune, n-len(r.Content))
			case cachedRe.MatchString(r.Content):
				st.Add(contextmgr.LeverReadCache, lastFull[args[r.CallID]]-len(r.Content))
			default:
				full := len(r.Content)
				sm := omittedRe.FindStringSubmatch(r.Content)
				if sm == nil {
					sm = readCutRe.FindStringSubmatch(r.Content)
				}
				if sm != nil {
					n, _ := strconv.Atoi(sm[1])
					st.Add(contextmgr.LeverCap, n)
					full += n
				}
				lastFull[args[r.CallID]] = full
			}
		}
	}
}

// Output budget (issue 11 item 2): every request asks for at most
// Options.MaxOutputTokens of reply, and never more than the window has
// left after the prompt. llama-server's own default is unlimited
// (n_predict -1), so without a cap a rambling model holds the server's
// only slot until the window is full; vLLM rejects a request whose prompt
// plus max_tokens passes max_model_len. The budget is not part of the
// prompt: llama.cpp's prompt cache reuses the longest common prefix of
// prompt tokens (cache_prompt, get_common_prefix in tools/server), and
// vendor caches key on the prompt, so a budget that changes between
// requests keeps them append-only.

package agent

import (
	"errors"
	"fmt"

	"github.com/zero-agent/zero/internal/llm"
)

// DefaultMaxOutputTokens caps one reply when Options.MaxOutputTokens is 0
// (config maxOutputTokens): room for a long file written in one tool call
// (about 32 KB of code) and Anthropic's default already, yet small enough
// that a runaway reply on a CPU-bound local server ends in minutes, not
// at a full window. Reasoning models count their thinking against it:
// raise maxOutputTokens for them.
const DefaultMaxOutputTokens = 8192

// minReplyTokens is the least output room a request is worth sending
// with; a continuation of a cut reply that would have less is preceded by
// compaction.
const minReplyTokens = 512

// windowSlack is how close (tokens) prompt plus reply must come to the
// window for a "length" finish to mean the window filled: llama-server
// stops a slot when its next position would pass n_ctx (STOP_TYPE_LIMIT),
// one token short of it.
const windowSlack = 8

// maxOutput is the configured cap on one reply.
func (a *Agent) maxOutput() int {
	if a.opts.MaxOutputTokens > 0 {
		return a.opts.MaxOutputTokens
	}
	return DefaultMaxOutputTokens
}

// outputBudget is the max output tokens for req: the cap, less when the
// window known has less room after the prompt, but at least
// minReplyTokens (below that the request is better sent and answered by
// the server's overflow error, which compaction handles, than refused
// here).
//
// The prompt counted is the larger of its estimate and 2/3 of the window,
// the most proactive compaction lets a request carry (prepareRequest). So
// while compaction keeps up, the budget is min(cap, window/3) on every
// request: it always fits, and two requests of one conversation differ
// only by their new messages, byte for byte (e2e TestRequestsAreAppendOnly),
// which caches keyed on the whole body need too. Only a prompt past 2/3
// (compaction could not shrink it) lowers the budget to the room left.
func (a *Agent) outputBudget(req llm.Request) int {
	limit := a.maxOutput()
	w := a.opts.ContextWindow
	if w <= 0 {
		return limit
	}
	prompt := max(a.est.Tokens(requestBytes(req)), w*2/3)
	return max(min(limit, w-prompt), min(limit, minReplyTokens))
}

// filledWindow reports whether a reply cut with finish "length" stopped
// because prompt plus reply reached the window (the server counted both,
// usage u) rather than at the request's max output tokens. Such a reply
// cannot be continued: there is no room left to continue in.
func (a *Agent) filledWindow(u *llm.Usage) bool {
	w := a.opts.ContextWindow
	return w > 0 && u != nil && !u.Estimated && u.InputTokens+u.OutputTokens >= w-windowSlack
}

// continuationFits reports whether the request continuing a reply cut at
// its budget (the prompt the server counted, plus the cut reply, plus the
// nudge) still leaves minReplyTokens in the window. An unknown window or
// no usage report fits (proactive compaction at 2/3 still applies).
func (a *Agent) continuationFits(u *llm.Usage) bool {
	w := a.opts.ContextWindow
	if w <= 0 || u == nil || u.Estimated || u.InputTokens <= 0 {
		return true
	}
	next := u.InputTokens + u.OutputTokens + a.est.Tokens(len(cutNudge)+messageOverhead)
	return next+minReplyTokens <= w
}

// ErrWindowFull ends a run whose model filled the context window with its
// reply (finish "length" at the window) again after one compaction, or
// when compaction could not make room; the event's kind is
// context_overflow.
var ErrWindowFull = errors.New("the model's reply filled the context window")

// windowFullError says what the user can do about ErrWindowFull, in one
// sentence: after one compaction (compacted) or when the history could
// not be compacted (the compaction warning said why).
func windowFullError(w int, compacted bool) error {
	how := "even after compacting the history"
	if !compacted {
		how = "and the history cannot be compacted further"
	}
	return fmt.Errorf("%w (%d tokens) %s: raise the window (llama-server -c, Ollama num_ctx) or lower maxOutputTokens in the config",
		ErrWindowFull, w, how)
}

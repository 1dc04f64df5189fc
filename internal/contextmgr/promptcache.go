package contextmgr

import "github.com/zero-agent/zero/internal/llm"

// PromptCache accounts for the server's prompt cache over a session, from
// the usage each request reported: how many prompt tokens the server
// read from its cache instead of processing them (llama-server's
// timings.cache_n and prompt_tokens_details.cached_tokens, OpenAI's
// cached_tokens, Anthropic's cache_read_input_tokens, Gemini's
// cachedContentTokenCount). On a local server prefill is most of a turn's
// wait (issue 11: ~35 tokens/s on a CPU), so the hit rate is the figure
// that says whether requests stay append-only. The zero value is ready to
// use; not safe for concurrent use.
type PromptCache struct {
	// Requests counts the requests the server measured (estimated usage
	// is not counted).
	Requests int
	// PromptTokens sums their prompts (llm.Usage.InputTokens, the whole
	// prompt, cached part included); CachedTokens the cached part.
	PromptTokens, CachedTokens int
	// Last is the last measured request's usage.
	Last llm.Usage
}

// Add records one request's usage; an estimate or a report without a
// prompt count is ignored.
func (c *PromptCache) Add(u llm.Usage) {
	if u.Estimated || u.InputTokens <= 0 {
		return
	}
	u.CacheReadTokens = min(max(u.CacheReadTokens, 0), u.InputTokens)
	c.Requests++
	c.PromptTokens += u.InputTokens
	c.CachedTokens += u.CacheReadTokens
	c.Last = u
}

// HitRate is the share of the session's measured prompt tokens read from
// the cache (0 when nothing was measured).
func (c PromptCache) HitRate() float64 {
	if c.PromptTokens <= 0 {
		return 0
	}
	return float64(c.CachedTokens) / float64(c.PromptTokens)
}

// LastHitRate is the last measured request's share.
func (c PromptCache) LastHitRate() float64 {
	if c.Last.InputTokens <= 0 {
		return 0
	}
	return float64(c.Last.CacheReadTokens) / float64(c.Last.InputTokens)
}

package agent

import (
	"github.com/zero-agent/zero/internal/llm"
)

// FixedRequest is the smallest request the agent would send now: the
// system prompt and the offered tool schemas, with one one-byte user
// message (chat templates need a message to render). Its token count is
// Zero's own overhead, the part of every request compaction cannot shrink.
func (a *Agent) FixedRequest() llm.Request {
	return llm.Request{
		Model:    a.opts.Model,
		System:   a.opts.System,
		Tools:    a.opts.Tools.Specs(a.opts.Visible),
		Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: "."}}}},
	}
}

// MeasureFixed records that the server counted req (a FixedRequest) as
// tokens, before any request was sent: the estimator takes its ratio, so
// the first compaction decision, the output budget and the minimal-profile
// choice count with the server's tokenizer, and /context says the fixed
// part was counted. A later usage report replaces the ratio.
func (a *Agent) MeasureFixed(req llm.Request, tokens int) {
	if tokens <= 0 {
		return
	}
	a.est.Measure(requestBytes(req), tokens)
	a.fixedCounted = tokens
}

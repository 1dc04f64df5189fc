package run

import (
	"context"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// countTimeout bounds the two local requests of a prompt count; a server
// slower than this is not worth delaying the session for.
const countTimeout = 2 * time.Second

// countFixed asks a llama.cpp server to count the agent's fixed prompt
// (system prompt and tool schemas) with the model's own template and
// tokenizer, and gives the count to the agent, so the first decisions
// (the minimal profile, the first compaction, the output budget) use the
// server's tokens rather than a bytes-per-token guess. It reports whether
// it counted; any failure leaves the estimate as it was.
func (s *Session) countFixed() bool {
	pc, ok := s.rt.Provider.(llm.PromptCounter)
	if !s.rt.counts || !ok {
		return false
	}
	req := s.agent.FixedRequest()
	ctx, cancel := context.WithTimeout(context.Background(), countTimeout)
	defer cancel()
	n, err := pc.CountPrompt(ctx, req)
	if err != nil || n <= 0 {
		return false
	}
	s.agent.MeasureFixed(req, n)
	return true
}

package contextmgr

import (
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// The hit rate is cached over prompt tokens, over the session and for the
// last request; estimates are not measurements and do not count.
func TestPromptCacheHitRate(t *testing.T) {
	var c PromptCache
	if c.HitRate() != 0 || c.LastHitRate() != 0 {
		t.Fatal("an empty account has a hit rate")
	}
	c.Add(llm.Usage{InputTokens: 1000})
	c.Add(llm.Usage{InputTokens: 1100, CacheReadTokens: 999})
	c.Add(llm.Usage{InputTokens: 5000, Estimated: true})
	c.Add(llm.Usage{InputTokens: 1200, CacheReadTokens: 5000}) // more cached than the prompt: capped
	if c.Requests != 3 || c.PromptTokens != 3300 || c.CachedTokens != 2199 {
		t.Fatalf("account %+v", c)
	}
	if got := c.HitRate(); got != 2199.0/3300 {
		t.Errorf("session rate %v", got)
	}
	if got := c.LastHitRate(); got != 1 {
		t.Errorf("last rate %v", got)
	}
}

// A measured request sets the ratio outright: the same request estimated
// again is the server's count. Rougher counts still average.
func TestEstimatorFollowsMeasurement(t *testing.T) {
	var e Estimator
	e.Measure(9000, 3000)
	e.Measure(12_000, 2000) // the server counted 6 bytes a token
	if e.BytesPerToken() != 6 || e.Tokens(12_000) != 2000 {
		t.Errorf("ratio %v, %d tokens; want 6 and the server's 2000", e.BytesPerToken(), e.Tokens(12_000))
	}
	e.Measure(0, 10)
	e.Measure(10, 0)
	e.Calibrate(4000, 1000)
	if e.BytesPerToken() != 5 {
		t.Errorf("ratio %v after a rough count, want the average 5", e.BytesPerToken())
	}
	e.Measure(100_000, 1) // garbage is clamped
	if e.BytesPerToken() != 16 {
		t.Errorf("ratio %v, want the clamp 16", e.BytesPerToken())
	}
}

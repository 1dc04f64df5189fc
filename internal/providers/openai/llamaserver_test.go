package openai

import (
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// llama-server's usage and timings (testdata/llamaserver, sources in
// SOURCES.md) become one measured usage: the whole prompt, the tokens the
// slot's cache supplied, the reply's tokens. cached_tokens is read when
// the server sends it, timings.cache_n otherwise; with no usage object at
// all the timings alone are the count.
func TestLlamaServerTimingsFillCachedTokens(t *testing.T) {
	want := llm.Usage{InputTokens: 237, OutputTokens: 35, CacheReadTokens: 236}
	for _, file := range []string{"stream_usage_cached_tokens.sse", "stream_usage_without_details.sse", "stream_timings_without_usage.sse"} {
		t.Run(file, func(t *testing.T) {
			evs, err := decodeBytes(Options{}, readFile(t, "llamaserver", file))
			if err != nil {
				t.Fatal(err)
			}
			a := assemble(evs)
			if a.Usage == nil || *a.Usage != want {
				t.Errorf("usage %+v, want %+v", a.Usage, want)
			}
			if a.Message().Text() != "Done: main.go builds." || a.Finish != llm.FinishStop {
				t.Errorf("text %q finish %q", a.Message().Text(), a.Finish)
			}
			usages := 0
			for _, ev := range evs {
				if ev.Type == llm.EventUsage {
					usages++
				}
			}
			if usages != 1 {
				t.Errorf("%d usage events, want 1", usages)
			}
		})
	}
}

// A non-streamed llama-server reply carries timings beside usage too.
func TestLlamaServerWholeReplyTimingsFillCachedTokens(t *testing.T) {
	c, err := ParseResponse(readFile(t, "llamaserver", "whole_usage_timings.json"), Options{Name: "llama"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (llm.Usage{InputTokens: 237, OutputTokens: 35, CacheReadTokens: 236}); c.Usage == nil || *c.Usage != want {
		t.Errorf("usage %+v, want %+v", c.Usage, want)
	}
}

// cached_tokens, when sent, is the server's word even where timings
// disagree; a server with neither reports nothing cached.
func TestCachedTokensPreferredOverTimings(t *testing.T) {
	raw := sseOf(`{"choices":[{"delta":{"content":"x"},"finish_reason":"stop"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":90}},"timings":{"cache_n":80,"prompt_n":20,"predicted_n":2}}`,
		`[DONE]`)
	evs, err := decodeBytes(Options{}, raw)
	if err != nil {
		t.Fatal(err)
	}
	if u := assemble(evs).Usage; u == nil || u.CacheReadTokens != 90 || u.InputTokens != 100 {
		t.Errorf("usage %+v, want 100 prompt tokens, 90 cached", u)
	}
}

// Timings without cache_n (older builds) count only the processed part of
// the prompt: alone they are no prompt count, and the usage stays an
// estimate.
func TestTimingsWithoutCacheNAreNoPromptCount(t *testing.T) {
	raw := sseOf(`{"choices":[{"delta":{"content":"x"},"finish_reason":"stop"}],"timings":{"prompt_n":3,"predicted_n":1}}`, `[DONE]`)
	evs, err := decodeBytes(Options{}, raw)
	if err != nil {
		t.Fatal(err)
	}
	if u := assemble(evs).Usage; u == nil || !u.Estimated {
		t.Errorf("usage %+v, want an estimate", u)
	}
}

// Context-overflow recognition (case B10, testdata/B10): every server's
// wording of "the prompt does not fit", with the numbers it gives, becomes
// an *llm.ContextOverflow.

package transport

import (
	"fmt"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
)

// Message phrases that mean "the prompt does not fit", lower case. Sources:
// OpenAI, Anthropic, Gemini, llama.cpp, ik_llama.cpp and vLLM bodies of
// case B10, plus older OpenAI/vLLM wording ("maximum context length").
var overflowPhrases = []string{
	"context window", "context length", "context_length", "maximum context",
	"context size", "context limit", "prompt is too long", "prompt too long",
	"input is too long", "input token count", "context shift is disabled",
	"too many tokens", "max_tokens is too large", "reduce the length",
}

// overflowPatterns pull the numbers out of the overflow messages of case
// B10, compiled on first use (start-up time counts).
var overflowPatterns = &overflowRes{
	anthropicPrompt: lazyregexp.New(`prompt is too long: (\d+) tokens > (\d+)`),
	sumOverLimit:    lazyregexp.New(`(\d+) \+ (\d+) > (\d+)`),
	gemini:          lazyregexp.New(`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`),
	llamaCpp:        lazyregexp.New(`request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`),
	maxContext:      lazyregexp.New(`maximum context length is (\d+) tokens`),
	outputRequested: lazyregexp.New(`requested (\d+) output tokens`),
	promptAtLeast:   lazyregexp.New(`prompt contains at least (\d+) input tokens`),
	messagesSplit:   lazyregexp.New(`you requested (\d+) tokens \((\d+) in the messages, (\d+) in the completion\)`),
	messagesResult:  lazyregexp.New(`messages resulted in (\d+) tokens`),
	vllmBudget:      lazyregexp.New(`is too large: (\d+)\. This model's maximum context length is (\d+) tokens and your request has (\d+) input tokens`),
}

type overflowRes struct {
	anthropicPrompt, sumOverLimit, gemini, llamaCpp, maxContext,
	outputRequested, promptAtLeast, messagesSplit, messagesResult, vllmBudget *lazyregexp.Regexp
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// overflow recognises a context-window error: type/code fields first, then
// message phrases. It returns nil when the error is something else.
func overflow(d details) *llm.ContextOverflow {
	t, code := strings.ToLower(d.Type), strings.ToLower(d.Code)
	msg := strings.ToLower(d.Message)
	if t == "rate_limit_error" || code == "rate_limit_exceeded" || d.Status == "RESOURCE_EXHAUSTED" {
		return nil // "tokens per minute" limits are rate limits, not windows
	}
	if strings.Contains(msg, "no user query found in messages") {
		return &llm.ContextOverflow{Suspected: true}
	}
	found := code == "context_length_exceeded" || t == "exceed_context_size_error"
	for _, p := range overflowPhrases {
		if found {
			break
		}
		found = strings.Contains(msg, p)
	}
	if !found {
		return nil
	}
	o := &llm.ContextOverflow{PromptTokens: d.NPrompt, Limit: d.NCtx}
	m, re := d.Message, overflowPatterns
	if s := re.anthropicPrompt.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := re.sumOverLimit.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.MaxTokens, o.Limit = atoi(s[1]), atoi(s[2]), atoi(s[3])
	}
	if s := re.gemini.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := re.llamaCpp.FindStringSubmatch(m); s != nil && o.PromptTokens == 0 {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := re.maxContext.FindStringSubmatch(m); s != nil {
		o.Limit = atoi(s[1])
	}
	if s := re.outputRequested.FindStringSubmatch(m); s != nil {
		o.MaxTokens = atoi(s[1])
	}
	if s := re.promptAtLeast.FindStringSubmatch(m); s != nil {
		o.PromptTokens = atoi(s[1])
	}
	if s := re.messagesSplit.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.MaxTokens = atoi(s[2]), atoi(s[3])
	}
	if s := re.messagesResult.FindStringSubmatch(m); s != nil {
		o.PromptTokens = atoi(s[1])
	}
	if s := re.vllmBudget.FindStringSubmatch(m); s != nil {
		// vLLM's check of prompt + max_tokens against max_model_len
		// (vllm/entrypoints/openai/serving_engine.py _validate_input).
		o.MaxTokens, o.Limit, o.PromptTokens = atoi(s[1]), atoi(s[2]), atoi(s[3])
	}
	switch {
	case o.MaxTokens > 0 && o.PromptTokens > 0 && o.Limit > 0:
		o.OutputBudget = o.PromptTokens < o.Limit
	case strings.Contains(msg, "max_tokens is too large"):
		o.OutputBudget = true
	}
	return o
}

// withOverflow fills e as a context-overflow error carrying o.
func withOverflow(e *llm.ProviderError, o *llm.ContextOverflow) *llm.ProviderError {
	e.Kind = llm.ErrContextOverflow
	e.Err = o
	switch {
	case o.Suspected:
		e.Hint = "context overflow suspected: the server probably cut the prompt to its window and lost the user turn; " +
			"raise the window (Ollama num_ctx / OLLAMA_CONTEXT_LENGTH, llama.cpp -c) or " + llm.Compact
	case o.OutputBudget:
		e.Hint = "output budget: the prompt fits but prompt + max_tokens does not; lower max_tokens to fit, then compact if still short"
	default:
		e.Hint = "the conversation no longer fits the model's context window: " + llm.Compact + " or raise the window " +
			"(llama.cpp -c, Ollama num_ctx); retrying as-is will fail again"
	}
	if o.PromptTokens > 0 && o.Limit > 0 {
		e.Hint += fmt.Sprintf(" (prompt %d tokens, window %d)", o.PromptTokens, o.Limit)
	}
	return e
}

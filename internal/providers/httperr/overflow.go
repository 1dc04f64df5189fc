package httperr

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
)

// ContextOverflow is the parsed detail of a context-window error (case
// B10). Classify returns it as the Err of a *llm.ProviderError whose Kind is
// llm.ErrContextOverflow; get it back with Overflow(err). All counts are
// tokens; 0 means the server did not say.
//
// The shared ProviderError type has no room for these numbers, so they
// travel in Err rather than in new fields; the subclass is also stated in
// the error's Hint for people reading it.
type ContextOverflow struct {
	// PromptTokens is the prompt size the server counted.
	PromptTokens int
	// MaxTokens is the output budget (max_tokens) the request asked for,
	// when the server reported it.
	MaxTokens int
	// Limit is the model's context window as the server reported it;
	// callers should learn it for the session.
	Limit int
	// OutputBudget is set when the prompt alone fits but prompt plus
	// max_tokens does not: lower max_tokens first, compact only if that
	// is not enough (subclass "output_budget").
	OutputBudget bool
	// Suspected is set when the server did not say "context" but the
	// error is a known symptom of a prompt silently truncated to the
	// window (Ollama's "no user query found in messages", case B11):
	// class "context_overflow_suspected".
	Suspected bool
}

// Error describes the overflow with its numbers.
func (o *ContextOverflow) Error() string {
	var b strings.Builder
	switch {
	case o.Suspected:
		b.WriteString("context overflow suspected (the server likely truncated the prompt)")
	case o.OutputBudget:
		b.WriteString("prompt plus output budget exceeds the context window")
	default:
		b.WriteString("prompt exceeds the context window")
	}
	if o.PromptTokens > 0 || o.Limit > 0 {
		fmt.Fprintf(&b, " (prompt %d", o.PromptTokens)
		if o.MaxTokens > 0 {
			fmt.Fprintf(&b, " + max_tokens %d", o.MaxTokens)
		}
		fmt.Fprintf(&b, " > limit %d tokens)", o.Limit)
	}
	return b.String()
}

// Subclass names the overflow as case B10 does: "output_budget",
// "suspected", or "" for a plain overflow.
func (o *ContextOverflow) Subclass() string {
	switch {
	case o.Suspected:
		return "suspected"
	case o.OutputBudget:
		return "output_budget"
	}
	return ""
}

// Overflow returns the *ContextOverflow carried by err, if any.
func Overflow(err error) (*ContextOverflow, bool) {
	var o *ContextOverflow
	ok := errors.As(err, &o)
	return o, ok
}

// Message phrases that mean "the prompt does not fit", lower case. Sources:
// OpenAI, Anthropic, Gemini, llama.cpp, ik_llama.cpp and vLLM bodies of
// case B10, plus older OpenAI/vLLM wording ("maximum context length").
var overflowPhrases = []string{
	"context window", "context length", "context_length", "maximum context",
	"context size", "context limit", "prompt is too long", "prompt too long",
	"input is too long", "input token count", "context shift is disabled",
	"too many tokens", "max_tokens is too large", "reduce the length",
}

var (
	reAnthropicPrompt = regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+)`)
	reSumOverLimit    = regexp.MustCompile(`(\d+) \+ (\d+) > (\d+)`)
	reGemini          = regexp.MustCompile(`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`)
	reLlamaCpp        = regexp.MustCompile(`request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`)
	reMaxContext      = regexp.MustCompile(`maximum context length is (\d+) tokens`)
	reOutputRequested = regexp.MustCompile(`requested (\d+) output tokens`)
	rePromptAtLeast   = regexp.MustCompile(`prompt contains at least (\d+) input tokens`)
	reMessagesSplit   = regexp.MustCompile(`you requested (\d+) tokens \((\d+) in the messages, (\d+) in the completion\)`)
	reMessagesResult  = regexp.MustCompile(`messages resulted in (\d+) tokens`)
)

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// overflow recognises a context-window error: type/code fields first, then
// message phrases. It returns nil when the error is something else.
func overflow(d details) *ContextOverflow {
	t, code := strings.ToLower(d.Type), strings.ToLower(d.Code)
	msg := strings.ToLower(d.Message)
	if t == "rate_limit_error" || code == "rate_limit_exceeded" || d.Status == "RESOURCE_EXHAUSTED" {
		return nil // "tokens per minute" limits are rate limits, not windows
	}
	if strings.Contains(msg, "no user query found in messages") {
		return &ContextOverflow{Suspected: true}
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
	o := &ContextOverflow{PromptTokens: d.NPrompt, Limit: d.NCtx}
	m := d.Message
	if s := reAnthropicPrompt.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := reSumOverLimit.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.MaxTokens, o.Limit = atoi(s[1]), atoi(s[2]), atoi(s[3])
	}
	if s := reGemini.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := reLlamaCpp.FindStringSubmatch(m); s != nil && o.PromptTokens == 0 {
		o.PromptTokens, o.Limit = atoi(s[1]), atoi(s[2])
	}
	if s := reMaxContext.FindStringSubmatch(m); s != nil {
		o.Limit = atoi(s[1])
	}
	if s := reOutputRequested.FindStringSubmatch(m); s != nil {
		o.MaxTokens = atoi(s[1])
	}
	if s := rePromptAtLeast.FindStringSubmatch(m); s != nil {
		o.PromptTokens = atoi(s[1])
	}
	if s := reMessagesSplit.FindStringSubmatch(m); s != nil {
		o.PromptTokens, o.MaxTokens = atoi(s[2]), atoi(s[3])
	}
	if s := reMessagesResult.FindStringSubmatch(m); s != nil {
		o.PromptTokens = atoi(s[1])
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
func withOverflow(e *llm.ProviderError, o *ContextOverflow) *llm.ProviderError {
	e.Kind = llm.ErrContextOverflow
	e.Err = o
	switch {
	case o.Suspected:
		e.Hint = "context overflow suspected: the server probably cut the prompt to its window and lost the user turn; " +
			"raise the window (Ollama num_ctx / OLLAMA_CONTEXT_LENGTH, llama.cpp -c) or compact (/compact)"
	case o.OutputBudget:
		e.Hint = "output budget: the prompt fits but prompt + max_tokens does not; lower max_tokens to fit, then compact if still short"
	default:
		e.Hint = "the conversation no longer fits the model's context window: compact (/compact) or raise the window " +
			"(llama.cpp -c, Ollama num_ctx); retrying as-is will fail again"
	}
	if o.PromptTokens > 0 && o.Limit > 0 {
		e.Hint += fmt.Sprintf(" (prompt %d tokens, window %d)", o.PromptTokens, o.Limit)
	}
	return e
}

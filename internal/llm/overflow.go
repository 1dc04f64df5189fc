package llm

import (
	"errors"
	"fmt"
	"strings"
)

// ContextOverflow is the parsed detail of a context-window error (case
// B10): what the server said about the prompt that did not fit. A provider
// returns it as the Err of a *ProviderError whose Kind is
// ErrContextOverflow; get it back with AsOverflow. All counts are tokens;
// 0 means the server did not say.
//
// It lives here, not in a provider package, because the agent loop acts
// on it (learns the window, calibrates its estimate, compacts) and must
// not import a provider. The shared ProviderError type has no room for
// these numbers, so they travel in Err rather than in new fields; the
// subclass is also stated in the error's Hint for people reading it.
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

// AsOverflow returns the *ContextOverflow carried by err (anywhere in its
// chain), if any.
func AsOverflow(err error) (*ContextOverflow, bool) {
	var o *ContextOverflow
	ok := errors.As(err, &o)
	return o, ok
}

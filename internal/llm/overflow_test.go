package llm

import (
	"fmt"
	"testing"
)

// TestAsOverflowFindsTheNumbersThroughWrapping: the agent reads the
// server's window and prompt count from an error wrapped any number of
// times, and the error says them.
func TestAsOverflowFindsTheNumbersThroughWrapping(t *testing.T) {
	o := &ContextOverflow{PromptTokens: 9000, MaxTokens: 1000, Limit: 8192}
	err := fmt.Errorf("turn 4: %w", &ProviderError{Kind: ErrContextOverflow, Provider: "llama.cpp", Err: o})
	got, ok := AsOverflow(err)
	if !ok || got != o {
		t.Fatalf("AsOverflow = %v, %v", got, ok)
	}
	if want := "prompt exceeds the context window (prompt 9000 + max_tokens 1000 > limit 8192 tokens)"; o.Error() != want {
		t.Errorf("Error() = %q, want %q", o.Error(), want)
	}
	for _, tc := range []struct {
		o    ContextOverflow
		want string
	}{{ContextOverflow{}, ""}, {ContextOverflow{OutputBudget: true}, "output_budget"}, {ContextOverflow{Suspected: true, OutputBudget: true}, "suspected"}} {
		if got := tc.o.Subclass(); got != tc.want {
			t.Errorf("%+v: Subclass %q, want %q", tc.o, got, tc.want)
		}
	}
	if _, ok := AsOverflow(&ProviderError{Kind: ErrServer}); ok {
		t.Error("a server error carries no overflow")
	}
}

package llm

import (
	"context"
	"fmt"
	"testing"
)

func TestErrorKindsRetryable(t *testing.T) {
	tests := []struct {
		kind  ErrorKind
		retry bool
	}{
		{ErrRateLimit, true}, {ErrOverloaded, true}, {ErrStreamStall, true},
		{ErrStreamBroken, true}, {ErrServer, true},
		// The transport already retried the connect; nothing listens.
		{ErrConnect, false},
		{ErrAuth, false}, {ErrContextOverflow, false}, {ErrBadRequest, false}, {ErrCanceled, false},
		// A malformed tool call fails the same way when repeated as is.
		{ErrMalformedToolCall, false}, {ErrUnknown, false},
	}
	for _, tc := range tests {
		err := fmt.Errorf("turn 3: %w", &ProviderError{Kind: tc.kind, Provider: "gemini"})
		if got := IsRetryable(err); got != tc.retry {
			t.Errorf("IsRetryable(%s) = %v, want %v", tc.kind, got, tc.retry)
		}
		if got := KindOf(err); got != tc.kind {
			t.Errorf("KindOf(wrapped %s) = %s", tc.kind, got)
		}
	}
	if KindOf(context.Canceled) != ErrCanceled || KindOf(fmt.Errorf("x")) != ErrUnknown {
		t.Error("KindOf of plain errors")
	}
}

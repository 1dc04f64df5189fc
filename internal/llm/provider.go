package llm

import "context"

// Provider streams completions from one model server. Implementations live
// in internal/providers/...; fakes for tests live in llmtest.
//
// Stream starts a request. Errors that happen before the stream opens
// (connect failure after retries, HTTP error status) are returned directly
// as *ProviderError. Once open, the channel yields events and is closed
// after exactly one EventFinish or EventError. Cancelling ctx ends the
// stream promptly with an EventError wrapping context.Canceled.
type Provider interface {
	// Name is the provider profile name shown to users, e.g. "openai",
	// "ollama", "anthropic".
	Name() string
	Stream(ctx context.Context, req Request) (<-chan Event, error)
}

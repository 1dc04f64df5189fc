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

// PromptCounter is a provider that can count a request's prompt tokens
// exactly without running the model (llama.cpp's /apply-template and
// /tokenize). Callers use it where the server is known to offer it; an
// error means "not counted", never a failed run.
type PromptCounter interface {
	CountPrompt(ctx context.Context, req Request) (int, error)
}

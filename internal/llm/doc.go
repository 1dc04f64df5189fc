// Package llm is Zero's provider-neutral vocabulary: messages and their parts
// (text, images, reasoning, tool calls, tool results), tool specs, the stream
// events a provider emits for one completion, usage, and typed provider errors
// (with the context-overflow detail the agent loop acts on, ContextOverflow,
// so the loop needs no provider package to read it).
//
// Providers (internal/providers/...) translate between this vocabulary and a
// wire format; nothing outside a provider package knows a wire format. This
// package must not import any other Zero package and performs no I/O.
package llm

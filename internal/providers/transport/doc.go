// Package transport is the one HTTP layer under Zero's providers: it sends
// a request (Client.Post for a JSON POST answered by an event stream,
// Client.Do for an SDK that builds its own requests), makes the only
// connect retry in Zero, bounds silences with the first-byte and idle
// watchdogs, classifies every failure into a typed *llm.ProviderError
// (Classify for an HTTP error response, ClassifyStreamError for an error
// sent inside a 200 stream, context overflow with its numbers as an
// *llm.ContextOverflow), and runs a provider's decoder on its own
// goroutine with the llm.Provider channel contract (Stream.Run, Run).
//
// It exists because each provider had grown its own copy of all this and
// the copies drifted: one retried connects four times and the agent loop
// retried that again three times, so a refused 127.0.0.1 took 16 attempts
// and 22 s and printed "retrying" before failing; another bounded nothing
// before the headers. Here a refused loopback connection is tried twice,
// 200 ms apart, and ends with one message saying what to do ("no server is
// listening on 127.0.0.1:8080 — start it ... or pass --base-url"); the
// agent loop does not retry llm.ErrConnect (llm.ProviderError.Retryable).
//
// Providers (internal/providers/openai, anthropic, gemini) are wire
// translation only: they build a body, hand it to a Client, and decode the
// events. This package knows the error bodies of the servers Zero talks
// to (testdata/B09, testdata/B10) but no request or event format, nothing
// of the agent loop, sessions or the terminal; it imports only
// internal/llm and internal/llm/sse.
package transport

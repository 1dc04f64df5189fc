// Package anthropic is Zero's adapter for the Anthropic Messages API
// (POST /v1/messages with "stream": true), built on
// github.com/anthropics/anthropic-sdk-go/v2. It translates llm.Request into
// Messages parameters and the Messages server-sent events back into
// llm.Event values.
//
// What it encodes, and why:
//   - Tool results travel in user messages as tool_result blocks placed
//     before any other content, and consecutive messages of the same role are
//     merged: the API rejects both two user turns in a row and text before a
//     tool_result.
//   - Thinking blocks come back with a signature that must be replayed
//     verbatim on later turns (with redacted_thinking blocks as opaque data);
//     reasoning without a signature (e.g. written by another provider) is
//     never sent as a thinking block.
//   - Prompt-cache breakpoints (cache_control ephemeral) sit on the system
//     prompt, the last tool and the last message, so a long agent session
//     pays for its prefix once.
//   - InputTokens reported upward is the whole prompt: input_tokens plus
//     cache_read_input_tokens plus cache_creation_input_tokens.
//   - The SDK sends through internal/providers/transport (a
//     *transport.Client is its option.HTTPClient): the connect retry (the
//     only one in Zero), the first-byte and idle watchdogs and the
//     classification of error responses are the transport's, and the
//     SDK's own retries are off (option.WithMaxRetries(0)); the agent loop
//     owns the retry of a whole request. An `event: error` that arrives
//     after HTTP 200 (overloaded_error, case B09) and a stream that ends
//     without message_stop both end the stream with an EventError carrying
//     a *llm.ProviderError, and nothing is emitted after it; the loop
//     retries the whole request and must discard what the failed stream
//     produced, so no text is shown twice and no half-streamed tool call
//     runs.
//   - The client never reads ANTHROPIC_* environment variables or profile
//     files: the key and base URL come only from Options, so a project
//     config cannot redirect a user's key.
//
// Tool schemas are cleaned for the Anthropic dialect and tool names mapped
// to legal names (internal/llm/schema) just before each request; called
// names are mapped back. This package is wire translation only.
//
// It imports no other provider and nothing above internal/llm besides
// internal/llm/schema and internal/providers/transport; it does no
// terminal or file I/O.
package anthropic

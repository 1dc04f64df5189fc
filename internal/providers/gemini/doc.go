// Package gemini is Zero's adapter for the Gemini API's streaming
// generateContent endpoint (POST /v1beta/models/{model}:streamGenerateContent?alt=sse,
// key in x-goog-api-key). It translates llm.Request into the REST
// GenerateContentRequest JSON and the server-sent GenerateContentResponse
// chunks back into llm.Event values.
//
// It speaks REST over net/http rather than google.golang.org/genai because
// the SDK gets in the way of what the agent needs: its stream iterator
// writes to the process-wide log package on stream errors (which would
// scribble over the terminal UI), its APIError drops the HTTP status line,
// the Retry-After header and the raw body the shared classifier reads, and
// it decodes thoughtSignature into []byte, so a signature is not replayed
// byte for byte. The wire shapes here follow the REST reference
// (ai.google.dev/api/generate-content). Sending, the connect retry, the
// stall watchdogs (IdleTimeout bounds the first byte and every silence)
// and error classification are internal/providers/transport's; this
// package is wire translation only.
//
// What it encodes, and why:
//   - Gemini sends each function call whole; the adapter emits
//     EventToolCallStart and EventToolCallEnd for it with a generated unique
//     id (the server sends none), and answers calls by name.
//   - Parts marked "thought": true are reasoning; a thoughtSignature on a
//     part is kept (llm.Part.Signature, llm.ToolCall.Signature) and replayed
//     verbatim on the same kind of part on later turns: Gemini 3 rejects a
//     function-call turn whose signature is missing.
//   - finishReason MALFORMED_FUNCTION_CALL ends the stream with a
//     *llm.ProviderError of kind llm.ErrMalformedToolCall wrapping
//     ErrMalformedFunctionCall, which the loop answers with a nudge; the
//     blocking finishes (SAFETY, RECITATION, PROHIBITED_CONTENT, BLOCKLIST,
//     SPII, ...) and a blocked prompt end it with kind ErrBadRequest
//     wrapping ErrBlocked, which the loop reports.
//   - Usage: promptTokenCount is the whole prompt (cachedContentTokenCount
//     is part of it); output is candidatesTokenCount plus
//     thoughtsTokenCount, with the thoughts also in ReasoningTokens.
//   - Tool schemas are cleaned into Gemini's OpenAPI subset and tool names
//     mapped to legal names (internal/llm/schema) just before the request;
//     called names are mapped back.
//   - The adapter never retries a request (the transport retries only a
//     connect); a stream that ends without a finishReason is
//     ErrStreamBroken and nothing is emitted after an EventError.
//
// It must not import other providers; it does no terminal or file I/O.
package gemini

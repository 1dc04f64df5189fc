// Package schema rewrites tool JSON Schemas into the dialect each model
// provider accepts, and maps tool names onto the characters providers allow.
//
// Why it exists: tool schemas come from our own tools and from MCP servers
// we do not control. Every provider accepts a different slice of JSON
// Schema: OpenAI rejects arrays without "items" and dotted function names,
// Anthropic rejects names outside ^[a-zA-Z0-9_-]{1,128}$ and combinators at
// the top level, and Gemini takes only an OpenAPI 3.0 subset (no $ref, no
// additionalProperties, no type lists, nullable instead of anyOf-with-null).
// One rejected tool fails every request of a session (case B31), so schemas
// are cleaned per provider just before a request goes out, and a tool whose
// schema cannot be cleaned is dropped with a warning rather than failing
// the request.
//
// The cleaned copy is only what the model sees. Callers keep the raw schema
// to validate arguments, and use NameMap to turn the wire name a model
// calls back into the real tool name.
//
// This package is pure (no I/O) and owns only internal/llm/schema. It must
// not import provider packages; providers import it.
package schema

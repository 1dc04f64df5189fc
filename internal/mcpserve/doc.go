// Package mcpserve owns exposing Zero over MCP (`zero mcp serve`, stdio):
// in agent mode a `zero` tool that runs one prompt in a new session and a
// `zero_reply` tool that continues one, each answering with the thread
// (session) id, the answer, the stop reason and the files the run wrote;
// with --tools, Zero's core tools themselves.
//
// It is a surface, like internal/headless: it must not reimplement the
// agent loop, the tool set or the permission rules. It drives
// internal/run (run.Open, Runtime.OpenSession, Session.Prompt) and gates
// core tool calls with the run's own permission.Gate, so a call over MCP
// is refused, asked or allowed exactly as in `zero exec`. A person's
// approval is asked of the calling client as a form elicitation
// (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation);
// a client that cannot elicit gets a denial the model reads.
//
// The server speaks the protocol revisions up to 2025-11-25 only: from
// 2026-07-28 on a server may not send a request (an elicitation) while it
// serves a call (SEP-2322, the SDK's assertServerInitiatedRequestAllowed),
// and an agent run cannot be paused across calls, so newer clients
// negotiate 2025-11-25 with the SDK's fallback.
package mcpserve

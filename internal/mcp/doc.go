// Package mcp owns connecting to MCP servers and adapting their tools: it
// starts each configured server (stdio, streamable HTTP, legacy SSE) in
// the background, keeps its state (starting, connected, failed, disabled),
// notices a crash, reconnects on request, and turns each server tool into
// a tools.Tool named mcp__<server>__<tool>. It must not decide permissions
// (internal/permission does, from the side-effect class) nor shape output
// for the context window (internal/contextmgr does); it only caps a result
// at MAX_MCP_OUTPUT_TOKENS so one server cannot flood memory.
//
// Hard lessons it encodes, from users' trackers:
//   - servers print banners and logs on stdout (case B29,
//     /work/shared/cases/B29, testdata/B29): such lines are skipped with
//     one warning, never treated as a dead connection;
//   - a server that never initialises, exits at once or dies mid-call
//     must not hang anyone (case B30, testdata/B30): start-up and every
//     call are bounded, and an exit is seen at once;
//   - tool names over 64 characters or with dots make the API answer 400
//     (case B31): names are sanitized and cut with a stable hash.
//
// Built on the official Go SDK, github.com/modelcontextprotocol/go-sdk/mcp.
package mcp

// Package agent owns the agent loop: one run takes a prompt, streams a turn
// from an llm.Provider, gates and runs the tool calls the model asks for,
// appends their results, and repeats until a final answer or a stop reason.
// It recovers from malformed arguments (repaired like text calls when the
// repair keeps their meaning, a warning saying so; otherwise an error
// result the model can act on; the gate and the tool get the repaired
// arguments), empty turns (recorded, one nudge), replies cut off by the
// output-token limit (a continue nudge, at most twice per run), tool calls
// the provider could not parse (llm.ErrMalformedToolCall: a nudge, at most
// twice per run), retryable provider failures (the whole request again,
// never printing text twice, each wait at most 60 s) and interruption (every tool call gets a result so the history stays
// valid, case B26).
//
// It also keeps small local models working (issue 6), one concern per file:
//   - textcalls.go: tool calls written as text are recovered
//     (internal/llm/textcalls) and their markup never reaches a surface;
//   - levers.go: per-result cap, per-turn budget, spill, read cache and
//     write compaction (internal/contextmgr), the invariant repair before
//     every request (cases B25, B26) and the token estimate;
//   - compact.go: proactive (2/3 of the window) and reactive (one
//     context-overflow error, one retry) compaction, and Compact for
//     /compact; the user's task is pinned verbatim after the summary;
//   - budget.go: every request's max output tokens (the configured cap,
//     at most the room the window leaves); a "length" finish at the
//     window is an overflow (compact once, ask again), one at the budget
//     is continued, after compaction when the continuation would not fit;
//   - stuck.go, completion.go, verify.go: stuck detection and the
//     completion check (a "tests pass" claim needs a test or build
//     command that exited 0);
//   - report.go: ContextReport for /context and `zero context`;
//   - toolprotocol.go: a server that refuses tools (llama-server without
//     --jinja, an Ollama model without the tools capability) switches the
//     session once to prompted tools: listed in the system prompt, no
//     tools field, calls and results sent as text;
//   - prompt.go: the system prompt, one for work and one for plan mode.
//     A mode switch (SetSystem, SetVisible) changes the system prompt and
//     the tool list, so the provider's prompt cache misses at that request
//     only; every other request is the previous one plus new messages.
//
// Everything the loop does is reported as internal/event.Event to one Sink;
// surfaces and the session log are consumers. The loop performs no terminal
// or file I/O of its own (spilled outputs are written into
// Options.SessionDir by contextmgr, or streamed there by the bash tool
// under tools.WithFullOutput): tools, providers and the permission gate are
// reached only through their interfaces.
package agent

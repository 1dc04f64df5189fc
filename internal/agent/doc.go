// Package agent owns the agent loop: one run takes a prompt, streams a turn
// from an llm.Provider, gates and runs the tool calls the model asks for,
// appends their results, and repeats until a final answer or a stop reason.
// It recovers from malformed arguments (an error result the model can act
// on), empty turns (one nudge), retryable provider failures (the whole
// request again, never printing text twice) and interruption (every tool
// call gets a result so the history stays valid, case B26).
//
// Everything the loop does is reported as internal/event.Event to one Sink;
// surfaces and the session log are consumers. The loop performs no terminal
// or file I/O of its own: tools, providers and the permission gate are
// reached only through their interfaces.
package agent

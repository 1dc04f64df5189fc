// Package sessions owns Zero's durable session log: one directory per
// session under the sessions directory, holding metadata.json (rewritten
// atomically; a lost or damaged one is rebuilt from the log, whose
// run_start lines record the workspace) and events.jsonl (append-only,
// one event.Event per line).
//
// The hard lesson it encodes (case B27, anthropics/claude-code#53821,
// prime-agent PR#1785): a crash can leave a torn last line, NUL padding or a
// record glued to a fragment. The reader therefore works over raw bytes,
// skips what it cannot read, reports every skip, and recovers complete
// records from damaged lines; the writer issues one write(2) per line on an
// O_APPEND descriptor and, before its first append, makes sure the file
// ends in '\n' so a new record is never glued to garbage. Resume never
// shows a blank conversation while readable records exist.
//
// Session.Lock is an advisory flock(2) on <dir>/lock that a run holds while
// it appends, so two processes resuming one session fail fast ("session X
// is in use by another zero process (pid N)") instead of interleaving
// their records. Create returns a session already locked.
//
// Only sessions in which the user said something are kept (keep.go): a
// session with no prompt and no `!cmd` is removed by Close, hidden by
// List, Latest and prefix Loads, and removed by List when a crash left it
// and no process holds its lock, so --resume continues the last real
// conversation. Metadata.Workspace and InWorkspace let a surface warn on
// a resume from another workspace.
//
// It knows the event vocabulary (internal/event) and messages
// (internal/llm), and borrows the tool-call invariant repair from
// internal/contextmgr (pure, imports only llm) so resume and the request
// path repair one way; it must not import the agent loop, a provider or a
// surface, and it never decides what a run does with the history it
// rebuilds.
package sessions

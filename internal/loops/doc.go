// Package loops owns Zero's loops: long-running agents that wake on a
// schedule, do one iteration of a spec, bank a state row and sleep. The
// harness, not the model, owns the schedule, the gates (commands whose
// measured result is compared against a bar), the contract every wake
// must keep (append a state row that ends with a NEXT ACTION) and the
// budgets, so a small model that forgets everything between wakes still
// makes durable, checked progress.
//
// A loop is a folder under Root ($ZERO_LOOPS_DIR, else the data
// directory's zero/loops): spec.md (the mission, prose), loop.toml (what
// the harness enforces), state.md (append-only rows), rules.md (verified
// rules) and ticks.jsonl (the harness's ledger: one row per arm, wake,
// pause and stop).
//
// The parsers, gate comparisons, contract check, budget and schedule are
// pure functions (config.go, gate.go, state.go, budget.go); the I/O shell
// (loop.go, ticks.go, runner.go) reads and writes the folder and runs
// gate commands. How a wake runs the agent is the caller's (Runner.Wake):
// this package must not build providers, sessions or tools, nor parse
// command-line flags.
package loops

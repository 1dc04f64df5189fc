// Package contextmgr keeps a conversation inside a small context window
// without losing anything: the pure cores of Zero's context economy (SPEC
// §5, issue 6). Every lever here drops bytes from what the model is sent
// but leaves a way to fetch them again:
//
//   - Cap and Shape: a per-result byte cap (head + tail, or the lines that
//     matter for test, compiler, log and diff output) with a marker naming
//     the spill file that holds the full text (SpillPath; a tool that
//     streamed its whole output there, Result.FullOutput, is not copied,
//     and a file the tool stopped at its limit is named with the bytes it
//     holds); ToolOutputCap is the one rule that scales the cap with the
//     context window unless max_tool_output is set (Manager.ResultCap
//     applies it);
//   - CapRead: a read_file result is cut on line boundaries instead, its
//     marker naming the exact omitted line range and the read_file
//     offset/limit call that fetches it, the tool's "offset=N" footer
//     rewritten so the two never disagree;
//   - TurnCaps: a per-turn budget shared by one turn's results, with a
//     floor;
//   - ReadCache: an unchanged file read again becomes a one-line stub;
//   - CompactWrites: applied write/edit payloads leave the history (the
//     file on disk holds them), failed ones stay for a retry;
//   - PlanCompaction / ApplyCompaction: prune stale large results, then
//     summarise the oldest middle, cutting only at tool-call boundaries,
//     then cut the recent results harder (RecapResult) when one huge
//     result is what keeps the history over budget; Plan.PinMessages
//     keeps chosen user messages (the task) verbatim inside the summary;
//   - Repair: the invariant check run before every request, so that each
//     tool call has exactly one result and each result its call (cases B25,
//     B26), and user and assistant turns alternate (consecutive user
//     messages are merged). It is the only implementation: the session
//     log's resume runs it too (RepairFixes, via sessions.RepairToolPairs,
//     case B27).
//
// It must stay pure: no provider calls, no tool runs, no clock. The one
// exception is Spill, which writes a file into a directory the caller
// names (the session directory). Sizes are bytes unless a name says
// tokens; tokens are estimated by Estimator, whose ratio follows the last
// request the server counted (Measure), and PromptCache accounts for the
// prompt tokens the server read from its cache.
package contextmgr

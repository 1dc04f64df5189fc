// Package permission decides whether a tool call may run, in code a
// conversation cannot talk away (SPEC §6). It owns the permission
// vocabulary every surface shares:
//
//   - Mode (normal, auto-accept, plan), parsed in one place (ParseMode;
//     "ask" and "default" are aliases of normal) for flags, config, the
//     app and stream-json;
//   - the Engine, which rules on each call (Verdict: allow, ask or deny)
//     from the tool's side effect, its arguments, the mode, project and
//     user rules (internal/rules), the shell guard (internal/shellguard,
//     whose deny is final in every mode) and the grants the user gave;
//     writes into a root's .git or .zero always ask (RuleControlWrite);
//   - ToolRules, the permission rules of settings files and flags in
//     Claude Code's syntax (Bash(go test:*), Read(./src/**), mcp__server),
//     parsed in one place (ParseToolRule) and folded into every verdict:
//     deny beats ask beats allow, and an allow only spares normal mode's
//     question (toolrules.go);
//   - Request, what a person is shown when the engine asks (tool,
//     arguments summary, the full command or the diff, why it asks), and
//     Decision, the person's answer (once, for the session, always, a
//     command prefix, or deny with a reason);
//   - Grants (session and persisted in grants.json) and folder trust
//     (Trust, TrustState: which workspaces may load their hooks, rules,
//     settings and config, pinned to their content);
//   - Gate, the agent.Gate a run uses: the engine rules, the PreToolUse
//     hooks may block, ask, allow (normal mode's question only) or change
//     the arguments (decided again), a surface's Asker answers, and the
//     request and the decision go to the audit sink (the session log).
//
// It must not run tools, draw a prompt or print: a surface supplies the
// Asker. OS isolation of shell commands is internal/sandbox's; path
// resolution is internal/workspace's (symlinks, "..", B22/B23), this
// package only decides on the resolved path.
package permission

// Package instructions owns finding and assembling instruction files: the
// prose a user or a project writes for coding agents, in the formats users
// already have (issue 13, acceptance 1):
//
//   - AGENTS.md, the agents.md convention (https://agents.md): the nearest
//     file from the working directory up to the repository root, plus the
//     root's own;
//   - CLAUDE.md and CLAUDE.local.md, Claude Code's memory files
//     (https://docs.anthropic.com/en/docs/claude-code/memory): the project
//     root's and the nearest;
//   - ZERO.md, Zero's own (internal/rules.ProseFile), the same way;
//   - the user's ~/.claude/CLAUDE.md and Zero's <config dir>/AGENTS.md
//     (~/.config/zero/AGENTS.md).
//
// Order: user files first (Claude's, then Zero's), then the project's from
// the repository root down to the nearest folder, and within one folder
// AGENTS.md, CLAUDE.md, CLAUDE.local.md, ZERO.md. The nearest, most
// specific file speaks last. An imported file follows the file that
// imports it.
//
// `@path` imports follow Claude Code's memory import syntax: a word
// `@relative/path`, `@~/path` or `@/abs/path`, resolved relative to the
// importing file, at most MaxImportDepth levels deep, each file loaded
// once (a cycle is broken and noted), never inside backtick code spans or
// fenced code blocks.
//
// Trust: project files are prose, not code, so they load in an untrusted
// folder as ZERO.md always has; an import from a project file that points
// outside the project (the repository root, or the working directory
// outside a repository) is read only after `zero trust` and otherwise
// skipped with a note. User files and their imports are the user's own.
// A secret file (shellguard.SecretPath: .env, ~/.ssh, cloud credentials,
// private keys) is never imported, trusted or not.
//
// All text is sanitized like ZERO.md (internal/rules.Sanitize) and the
// system prompt's share is cut to one byte budget with a marker naming
// the file, so the model can read_file the rest. A nested AGENTS.md (or
// CLAUDE.md) below the working directory is added when the model first
// works in its folder (Set.Nested).
//
// This package reads files and assembles text; it must not decide
// permissions (the trust state is an input) or run anything.
package instructions

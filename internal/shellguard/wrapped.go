package shellguard

import (
	"fmt"
	"strings"
)

// A command the guard has no handler for may still run its arguments as
// a command line: `retry sudo dd of=/dev/sda`, `mywrapper rm -rf /`,
// `poetry run python -c ...`. The guard cannot know that it does, so it
// classifies the arguments as if they were run, from each of the first
// few words that name a command it knows, and asks when that command line
// is one it would stop (rule wrapped.command). It asks, never refuses:
// the unknown command may well treat the words as data.

// dataCommands never run their arguments: their words are text, names or
// file names (`echo rm -rf /`, `man rm`, `grep -r rm .`).
var dataCommands = set("echo", "printf", "print", "man", "info", "help", "tldr", "whatis", "apropos",
	"which", "whereis", "type", "hash", "true", "false", ":", "test", "[", "grep", "egrep", "fgrep",
	"zgrep", "rg", "ag", "ack", "cat", "head", "tail", "less", "more", "wc", "ls", "stat", "file",
	"sort", "uniq", "cut", "tr", "diff", "cmp", "jq", "yq", "basename", "dirname", "realpath", "readlink",
	"set", "declare", "typeset", "local", "export", "readonly", "unset", "read", "shift", "exit", "return",
	"complete", "compgen", "history", "getopts", "logger", "notify-send", "say", "espeak", "figlet")

// wrappedIgnored are findings that do not make an argument list a
// dangerous command line: package names that happen to be shells or
// interpreters (`apt install bash` is not bash reading stdin), and writes
// that package managers make as a matter of course.
var wrappedIgnored = set(RuleCodeStdin, RuleWriteOutside, RuleWriteUnknown, RuleWriteDevice,
	RuleScriptRecent, RuleParseError, RuleParseDepth)

// maxWrappedStarts bounds how many argument positions of one unknown
// command are tried as the start of a command line.
const maxWrappedStarts = 4

// unknownCommand looks for a dangerous command line in the arguments of
// a command the guard has no handler for.
func (c *checker) unknownCommand(cmd command) {
	if dataCommands[cmd.base] || c.hypothetical {
		return
	}
	tried := 0
	for i, a := range cmd.args {
		if tried == maxWrappedStarts {
			return
		}
		if !a.known() || a.tree != nil || a.s == "" || a.s[0] != '/' && strings.IndexByte(a.s, '/') >= 0 {
			continue
		}
		base := commandBase(a.s)
		_, handled := handlers[base]
		_, wraps := wrappers[base]
		if !handled && !wraps {
			continue
		}
		tried++
		if f, ok := c.asIfRun(cmd, cmd.args[i:]); ok {
			c.add(RuleWrappedCommand, fmt.Sprintf("%s is not a command the guard knows and its arguments are a command line it would stop: %s",
				quote(cmd.base), f.reason), cmd.part)
			return
		}
	}
}

// asIfRun classifies argv as a command run by cmd and returns its most
// severe finding that counts, leaving the checker's findings and parts
// as they were (Parts lists only what really runs). A check that ran out
// of budget is kept: the line is then too complex to check.
func (c *checker) asIfRun(cmd command, argv []arg) (finding, bool) {
	nf, np, nr := len(c.findings), len(c.parts), len(c.runs)
	c.hypothetical = true
	c.argv(cmd.lv, argv, input{}, "", cmd.hops+1)
	c.hypothetical = false
	found := append([]finding(nil), c.findings[nf:]...)
	c.findings, c.parts, c.runs = c.findings[:nf], c.parts[:np], c.runs[:nr]
	best, ok := finding{}, false
	for _, f := range found {
		if f.rule == RuleParseDepth && c.exhausted {
			c.findings = append(c.findings, f)
			continue
		}
		if wrappedIgnored[f.rule] {
			continue
		}
		if !ok || policy[f.rule].level.rank() > policy[best.rule].level.rank() {
			best, ok = f, true
		}
	}
	return best, ok
}

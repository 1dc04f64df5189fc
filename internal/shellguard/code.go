package shellguard

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// This file follows code hidden in arguments: bash -c, eval, trap, alias,
// watch, heredocs fed to a shell, scripts and interpreter one-liners
// (case B19).

// code classifies a string that will run as shell code.
func (c *checker) code(cmd command, a arg) {
	if a.download {
		c.add(RuleDownloadExec, "runs downloaded content as shell code", cmd.part)
	}
	if a.tree != nil {
		c.add(RuleCodeDynamic, "runs each file found as shell code", cmd.part)
		return
	}
	c.source(a.code, cmd.lv.depth+1)
}

// shell: sh/bash/zsh ... -c CODE, a script file, or code on stdin.
func (c *checker) shell(cmd command) {
	args := cmd.args
	cmdMode, stdinMode := false, false
	i := 0
	for i < len(args) {
		a := args[i]
		s := a.s
		if !a.known() || len(s) < 2 || s[0] != '-' && s[0] != '+' {
			if a.known() && s == "-" {
				stdinMode = true
				i++
			}
			break
		}
		if s == "--" {
			i++
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s, "=")
			switch name {
			case "--version", "--help":
				return
			case "--rcfile", "--init-file", "--init-command":
				if !hasVal {
					i++
				}
			case "--command":
				if hasVal {
					c.code(cmd, arg{s: val, code: val})
					return
				}
				cmdMode = true
			}
			i++
			continue
		}
		takes := 0
		for _, ch := range s[1:] {
			switch ch {
			case 'c':
				cmdMode = true
			case 's':
				stdinMode = true
			case 'o', 'O':
				takes++
			}
		}
		i += 1 + takes
	}
	var rest []arg
	if i < len(args) {
		rest = args[i:]
	}
	switch {
	case cmdMode:
		if len(rest) > 0 {
			c.code(cmd, rest[0])
		}
	case !stdinMode && len(rest) > 0:
		c.script(cmd, rest[0])
	default:
		c.stdinCode(cmd, true)
	}
}

// script records running the file a (checked against recent writes at
// the end), or asks when the file is produced at run time (<(curl ...)).
func (c *checker) script(cmd command, a arg) {
	switch {
	case a.proc && a.download:
		c.add(RuleDownloadExec, cmd.base+" runs a downloaded script", cmd.part)
	case a.proc:
		c.add(RuleCodeDynamic, cmd.base+" runs code produced by a process substitution", cmd.part)
	case !a.known():
		c.add(RuleCodeDynamic, cmd.base+" runs a script whose path is computed at run time", cmd.part)
	default:
		c.runs = append(c.runs, finding{reason: c.resolve(a.s), part: cmd.part})
	}
}

// stdinCode classifies code a shell (isShell) or interpreter reads from
// its standard input: a heredoc is parsed like -c code; a pipe or an
// unknown stdin asks.
func (c *checker) stdinCode(cmd command, isShell bool) {
	r := cmd.in.redirect
	lv := cmd.lv
	switch {
	case r != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc):
		if r.Hdoc == nil {
			return
		}
		if !isShell {
			c.add(RuleInterpreter, cmd.base+" runs a program from a heredoc that the guard cannot check", cmd.part)
			return
		}
		body := lv.text(r.Hdoc)
		a := arg{s: body, code: body}
		c.markSubst([]arg{a}, r.Hdoc)
		c.code(cmd, a)
	case r != nil && r.Op == syntax.WordHdoc:
		if !isShell {
			c.add(RuleInterpreter, cmd.base+" runs a program from a here-string that the guard cannot check", cmd.part)
			return
		}
		c.code(cmd, c.word(lv, r.Word))
	case r != nil && r.Op == syntax.RdrIn:
		c.script(cmd, c.word(lv, r.Word))
	case cmd.in.fromPipe() && c.upstreamDownloads(cmd):
		c.add(RuleDownloadExec, "pipes downloaded content into "+cmd.base, cmd.part)
	case cmd.in.fromPipe():
		c.add(RuleCodeStdin, cmd.base+" runs code read from a pipe", cmd.part)
	default:
		c.add(RuleCodeStdin, cmd.base+" runs code read from its standard input", cmd.part)
	}
}

// upstreamDownloads reports whether an earlier pipeline stage runs a
// downloader (curl, wget, ...), directly or behind a wrapper.
func (c *checker) upstreamDownloads(cmd command) bool {
	found := false
	for _, st := range cmd.in.upstream {
		syntax.Walk(st, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || found {
				return !found
			}
			var argv []arg
			for _, w := range call.Args {
				argv = append(argv, c.fields(cmd.lv, w)...)
			}
			argv = stripWrappers(argv)
			if len(argv) > 0 && argv[0].known() && downloaders[commandBase(argv[0].s)] {
				found = true
			}
			return !found
		})
	}
	return found
}

// interpreter: python -c, node -e, perl -e ... cannot be checked and ask;
// a script file is recorded as a run; no program means code on stdin.
func (c *checker) interpreter(cmd command) {
	spec := interpreters[cmd.base]
	args := cmd.args
	clusters := cmd.base == "perl" || cmd.base == "ruby" || cmd.base == "python" || cmd.base == "pypy"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known() {
			c.script(cmd, a)
			return
		}
		s := a.s
		if cmd.base == "pwsh" || cmd.base == "powershell" {
			s = strings.ToLower(s)
		}
		if contains(spec.info, s) {
			return
		}
		if contains(spec.codeFlags, s) || clusters && isCodeCluster(s, spec.codeFlags) {
			c.add(RuleInterpreter, cmd.base+" "+s+" runs inline code that the guard cannot check", cmd.part)
			return
		}
		switch {
		case s == "-m" && (cmd.base == "python" || cmd.base == "pypy"):
			return // python -m module: runs an installed module
		case contains(spec.argFlags, s):
			i++
		case s == "-":
			c.stdinCode(cmd, false)
			return
		case strings.HasPrefix(s, "-") && len(s) > 1:
		case cmd.base == "deno" && (s == "run" || s == "test" || s == "task"):
		default:
			c.script(cmd, a)
			return
		}
	}
	c.stdinCode(cmd, false)
}

// isCodeCluster reports a short-flag cluster holding a code flag, as in
// perl -pe or python -Bc.
func isCodeCluster(s string, codeFlags []string) bool {
	if len(s) < 3 || s[0] != '-' || s[1] == '-' {
		return false
	}
	for _, f := range codeFlags {
		if len(f) == 2 && strings.IndexByte(s[1:], f[1]) >= 0 {
			return true
		}
	}
	return false
}

// eval joins its arguments and runs them as code.
func (c *checker) eval(cmd command) {
	var parts []string
	joined := arg{}
	for _, a := range cmd.args {
		parts = append(parts, a.code)
		joined.download = joined.download || a.download
	}
	joined.code = strings.Join(parts, " ")
	joined.s = joined.code
	c.code(cmd, joined)
}

// source_ (source, .) runs a script in the current shell.
func (c *checker) source_(cmd command) {
	if len(cmd.args) > 0 {
		c.script(cmd, cmd.args[0])
	}
}

// trap's first operand is code run on a signal.
func (c *checker) trap(cmd command) {
	for _, a := range cmd.args {
		if a.known() && (a.s == "-l" || a.s == "-p" || a.s == "--") {
			continue
		}
		if a.known() && (a.s == "-" || a.s == "") {
			return
		}
		c.code(cmd, a)
		return
	}
}

// alias NAME=VALUE: the value becomes code when the alias is used.
func (c *checker) alias(cmd command) {
	for _, a := range cmd.args {
		if _, v, ok := strings.Cut(a.code, "="); ok {
			c.code(cmd, arg{s: v, code: v, download: a.download})
		}
	}
}

// watch runs its remaining words through sh -c (or exec with -x).
func (c *checker) watch(cmd command) {
	args := cmd.args
	i, exec := 0, false
	for i < len(args) && args[i].known() && strings.HasPrefix(args[i].s, "-") {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		if s == "-x" || s == "--exec" {
			exec = true
		}
		if s == "-n" || s == "--interval" || s == "-q" || s == "--equexit" {
			i++
		}
		i++
	}
	if i >= len(args) {
		return
	}
	if exec {
		c.argv(cmd.lv, args[i:], input{}, cmd.part, cmd.hops+1)
		return
	}
	var parts []string
	dl := false
	for _, a := range args[i:] {
		parts = append(parts, a.code)
		dl = dl || a.download
	}
	s := strings.Join(parts, " ")
	c.code(cmd, arg{s: s, code: s, download: dl})
}

// awkRunsCommands matches awk programs that run commands: system(),
// "cmd" | getline, print | "cmd".
var awkRunsCommands = lazyregexp.New(`system\s*\(|\|\s*getline|\|&|print[f]?[^;{}]*\|\s*["$a-zA-Z_(]`)

// awk asks when its program runs commands.
func (c *checker) awk(cmd command) {
	args := cmd.args
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "-f" || s == "--file":
			if i+1 < len(args) {
				c.script(cmd, args[i+1])
			}
			return
		case s == "-F" || s == "-v" || s == "--assign" || s == "--field-separator":
			i++
		case args[i].known() && strings.HasPrefix(s, "-") && len(s) > 1:
		default:
			if !args[i].known() || awkRunsCommands.MatchString(s) {
				c.add(RuleInterpreter, cmd.base+" program runs commands that the guard cannot check", cmd.part)
			}
			return
		}
	}
}

// su always escalates; its -c value is code.
func (c *checker) su(cmd command) {
	c.add(RulePrivilege, "su runs a shell as another user", cmd.part)
	args := cmd.args
	for i, a := range args {
		s := a.s
		switch {
		case (s == "-c" || s == "--command") && i+1 < len(args):
			c.code(cmd, args[i+1])
			return
		case strings.HasPrefix(s, "--command="):
			v := strings.TrimPrefix(s, "--command=")
			c.code(cmd, arg{s: v, code: v})
			return
		}
	}
}

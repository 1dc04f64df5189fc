package shellguard

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// command is one simple command ready to classify: its name, its
// arguments after static evaluation, where its stdin comes from and the
// text to quote in a reason.
type command struct {
	lv   *level
	name string // argv[0] as evaluated (may be a path)
	base string // the name it is looked up by (commandBase)
	args []arg
	in   input
	part string
	// hops counts wrappers, xargs and find -exec levels above this
	// command.
	hops int
}

// input is where a command's standard input comes from.
type input struct {
	// upstream are the earlier stages of the pipeline it is in.
	upstream []*syntax.Stmt
	// redirect is a heredoc, here-string or < file.
	redirect *syntax.Redirect
}

// fromPipe reports whether stdin is a pipe.
func (in input) fromPipe() bool { return len(in.upstream) > 0 }

// handler classifies one command by name.
type handler func(c *checker, cmd command)

// handlers maps a command name to its classifier; wrappers (sudo, env,
// timeout, ...) are in the wrappers table instead.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"rm": (*checker).rm, "rmdir": (*checker).rmdir, "unlink": (*checker).rmdir, "shred": (*checker).shred,
		"find": (*checker).find, "xargs": (*checker).xargs, "git": (*checker).git,
		"dd": (*checker).dd, "tee": (*checker).tee, "cp": (*checker).copyLike, "install": (*checker).copyLike,
		"ln": (*checker).copyLike, "rsync": (*checker).copyLike, "mv": (*checker).mv,
		"touch": (*checker).touchLike, "mkdir": (*checker).touchLike, "truncate": (*checker).touchLike,
		"chmod": (*checker).chmodLike, "chown": (*checker).chmodLike, "chgrp": (*checker).chmodLike,
		"chattr": (*checker).chmodLike, "sed": (*checker).sed, "curl": (*checker).curl, "wget": (*checker).wget,
		"tar": (*checker).tar, "eval": (*checker).eval, "source": (*checker).source_, ".": (*checker).source_,
		"trap": (*checker).trap, "alias": (*checker).alias, "watch": (*checker).watch,
		"awk": (*checker).awk, "gawk": (*checker).awk, "mawk": (*checker).awk, "nawk": (*checker).awk,
		"nc": (*checker).netcat, "ncat": (*checker).netcat, "netcat": (*checker).netcat, "socat": (*checker).socat,
		"ssh": (*checker).ssh, "crontab": (*checker).crontab,
		"kill": (*checker).kill, "systemctl": (*checker).systemctl, "cd": (*checker).cd, "pushd": (*checker).cd, "shopt": (*checker).shopt, "init": (*checker).initCmd, "su": (*checker).su,
	}
	for s := range shells {
		handlers[s] = (*checker).shell
	}
	for i := range interpreters {
		handlers[i] = (*checker).interpreter
	}
	for f := range formatters {
		handlers[f] = (*checker).formatter
	}
	for e := range containerEngines {
		handlers[e] = (*checker).docker
	}
	for p := range powerCommands {
		handlers[p] = func(c *checker, cmd command) {
			c.add(RuleSystemPower, cmd.base+" shuts down or restarts the machine", cmd.part)
		}
	}
}

// simple classifies one simple command of the parsed source.
func (c *checker) simple(lv *level, call *syntax.CallExpr) {
	if len(call.Args) == 0 {
		return
	}
	var argv []arg
	for _, w := range call.Args {
		argv = append(argv, c.fields(lv, w)...)
	}
	in := input{upstream: lv.upstream[call], redirect: lv.stdin[call]}
	c.argv(lv, argv, in, clip(lv.text(call)), 0)
}

// maxHops bounds wrapper unwrapping (sudo sudo sudo ...) and xargs/find
// nesting on one command line.
const maxHops = 32

// argv classifies a command given as evaluated fields.
func (c *checker) argv(lv *level, argv []arg, in input, part string, hops int) {
	if len(argv) == 0 {
		return
	}
	if hops > maxHops {
		c.add(RuleParseDepth, "too many nested wrappers", part)
		return
	}
	if !c.spend(part) {
		return
	}
	if part == "" {
		part = joinArgs(argv)
	}
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = a.s
		if a.tree != nil {
			words[i] = Unknown
		}
	}
	c.parts = append(c.parts, words)
	name := argv[0]
	if !name.known() {
		if name.tree != nil {
			c.add(RuleCodeDynamic, "runs each file found as a command", part)
		} else if name.download {
			c.add(RuleDownloadExec, "runs a command name taken from a download", part)
		} else {
			c.add(RuleCodeDynamic, "the command name is computed at run time", part)
		}
		return
	}
	cmd := command{lv: lv, name: name.s, base: commandBase(name.s), args: argv[1:], in: in, part: part, hops: hops}
	c.secrets(cmd)
	if strings.Contains(name.s, "/") {
		c.runs = append(c.runs, finding{reason: c.resolve(name.s), part: part})
	}
	if w, ok := wrappers[cmd.base]; ok {
		c.unwrap(cmd, w)
		return
	}
	if h, ok := handlers[cmd.base]; ok {
		h(c, cmd)
		return
	}
	c.unknownCommand(cmd)
}

// secrets asks when an argument names a secret file, directly, through
// a glob that matches one (cat .e?v) or through a symlink (notes.txt ->
// .env); see secretArg.
func (c *checker) secrets(cmd command) {
	for _, a := range cmd.args {
		if !a.known() || a.s == "" || strings.HasPrefix(a.s, "-") {
			continue
		}
		if what, kind, ok := c.secretArg(a, cmd.part); ok {
			c.add(RuleSecretAccess, fmt.Sprintf("%s touches %s (%s)", cmd.base, what, kind), cmd.part)
			return
		}
	}
}

// wrapper describes a command that runs another command given as its
// remaining arguments.
type wrapper struct {
	// argFlags are short flags that take a value; longArgs are long
	// flags that take the next word as value when written without '='.
	argFlags string
	longArgs []string
	// codeFlags are short flags whose value is shell code; codeLongs the
	// long ones.
	codeFlags string
	codeLongs []string
	// operands are words between the flags and the command (timeout's
	// duration, chroot's directory).
	operands int
	// assigns skips NAME=value words (env).
	assigns bool
	// numeric accepts -N flags (nice -10).
	numeric bool
	// escalate marks privilege escalation.
	escalate bool
	// lookup flags make the wrapper only look a command up (command -v).
	lookup []string
}

var wrappers = map[string]wrapper{
	"sudo": {argFlags: "ugpCDhrtTUR", escalate: true, lookup: []string{"-l", "--list", "-v", "--validate", "-k", "-K", "-V"},
		longArgs: []string{"--user", "--group", "--prompt", "--close-from", "--chdir", "--host", "--role", "--type",
			"--command-timeout", "--other-user", "--chroot"}},
	"doas":     {argFlags: "uC", escalate: true},
	"pkexec":   {longArgs: []string{"--user"}, escalate: true},
	"run0":     {argFlags: "uDg", longArgs: []string{"--user", "--group", "--chdir", "--unit", "--property", "--description", "--slice", "--setenv", "--nice", "--background", "--machine"}, escalate: true},
	"runuser":  {argFlags: "ugGws", codeFlags: "c", codeLongs: []string{"--command"}, longArgs: []string{"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"}, escalate: true},
	"sudoedit": {argFlags: "ugpCDhrtTUR", escalate: true},
	"env": {argFlags: "uC", codeFlags: "S", codeLongs: []string{"--split-string"}, assigns: true,
		longArgs: []string{"--unset", "--chdir", "--block-signal", "--default-signal", "--ignore-signal"}},
	"nice":        {argFlags: "n", numeric: true, longArgs: []string{"--adjustment"}},
	"nohup":       {},
	"timeout":     {argFlags: "sk", longArgs: []string{"--signal", "--kill-after"}, operands: 1},
	"command":     {lookup: []string{"-v", "-V"}},
	"builtin":     {},
	"exec":        {argFlags: "a"},
	"stdbuf":      {argFlags: "ioe", longArgs: []string{"--input", "--output", "--error"}},
	"time":        {argFlags: "fo", longArgs: []string{"--format", "--output"}},
	"setsid":      {},
	"ionice":      {argFlags: "cnpPu", longArgs: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}},
	"taskset":     {operands: 1},
	"chroot":      {longArgs: []string{"--userspec", "--groups"}, operands: 1},
	"flock":       {argFlags: "wE", codeFlags: "c", codeLongs: []string{"--command"}, longArgs: []string{"--timeout", "--wait", "--conflict-exit-code"}, operands: 1},
	"unbuffer":    {},
	"busybox":     {},
	"toybox":      {},
	"xvfb-run":    {argFlags: "nsefwp", longArgs: []string{"--server-num", "--server-args", "--error-file", "--auth-file", "--wait"}},
	"strace":      {argFlags: "abeEIoOpPsSuUX"},
	"ltrace":      {argFlags: "aeEIlnoOpsSuxX"},
	"caffeinate":  {argFlags: "tw"},
	"doppler":     {},
	"script":      {argFlags: "EIOTm", codeFlags: "c", codeLongs: []string{"--command"}, operands: -1},
	"chrt":        {operands: 1},
	"prlimit":     {argFlags: "p"},
	"systemd-run": {argFlags: "pEuM", longArgs: []string{"--unit", "--property", "--setenv", "--uid", "--gid", "--working-directory", "--description", "--slice", "--machine", "--nice"}},
}

// unwrap classifies the command behind a wrapper. operands == -1 means
// the remaining words are not a command (script's log file).
func (c *checker) unwrap(cmd command, w wrapper) {
	if w.escalate {
		c.add(RulePrivilege, cmd.base+" runs a command with raised privileges", cmd.part)
	}
	args := cmd.args
	i := 0
flags:
	for i < len(args) {
		a := args[i]
		if !a.known() || !strings.HasPrefix(a.s, "-") || a.s == "-" {
			break
		}
		if a.s == "--" {
			i++
			break
		}
		for _, l := range w.lookup {
			if a.s == l {
				return
			}
		}
		if strings.HasPrefix(a.s, "--") {
			name, val, hasVal := strings.Cut(a.s, "=")
			if contains(w.codeLongs, name) {
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i].code
				}
				c.code(cmd, arg{s: val, code: val})
			} else if !hasVal && contains(w.longArgs, name) {
				i++
			}
			i++
			continue
		}
		if w.numeric && strings.Trim(a.s[1:], "0123456789") == "" {
			i++
			continue
		}
		for j := 1; j < len(a.s); j++ {
			f := a.s[j]
			if strings.IndexByte(w.argFlags+w.codeFlags, f) < 0 {
				continue
			}
			val := arg{s: a.s[j+1:], code: a.s[j+1:]}
			if val.s == "" {
				if i+1 >= len(args) {
					break flags
				}
				i++
				val = args[i]
			}
			if strings.IndexByte(w.codeFlags, f) >= 0 {
				c.code(cmd, val)
			}
			break
		}
		i++
	}
	if w.assigns {
		for i < len(args) && args[i].known() && isAssign(args[i].s) {
			i++
		}
	}
	if w.operands < 0 {
		return
	}
	i += w.operands
	if i >= len(args) {
		return
	}
	// flock FILE -c CODE: a code flag may follow the operands.
	if a := args[i]; a.known() && i+1 < len(args) && (len(a.s) == 2 && a.s[0] == '-' &&
		strings.IndexByte(w.codeFlags, a.s[1]) >= 0 || contains(w.codeLongs, a.s)) {
		c.code(cmd, args[i+1])
		return
	}
	inner := cmd.part
	c.argv(cmd.lv, args[i:], cmd.in, inner, cmd.hops+1)
}

// isAssign reports NAME=value.
func isAssign(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	return ok && syntax.ValidName(name)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// joinArgs renders synthetic argv (from xargs or find -exec) for a reason.
func joinArgs(argv []arg) string {
	var parts []string
	for _, a := range argv {
		switch {
		case a.tree != nil:
			parts = append(parts, "<each path under "+a.tree.root+">")
		case !a.known():
			parts = append(parts, strings.ReplaceAll(a.s, unknown, "<?>"))
		default:
			parts = append(parts, shellQuote(a.s))
		}
	}
	return clip(strings.Join(parts, " "))
}

// splitFlags separates leading flags from operands, honouring "--".
// Short clusters (-rf) are returned whole.
func splitFlags(args []arg) (flags []string, operands []arg) {
	for i, a := range args {
		if a.known() && a.s == "--" {
			return flags, append(operands, args[i+1:]...)
		}
		if a.known() && strings.HasPrefix(a.s, "-") && len(a.s) > 1 {
			flags = append(flags, a.s)
			continue
		}
		operands = append(operands, a)
	}
	return flags, operands
}

// hasFlag reports whether flags hold the long flag or a short cluster
// containing the letter short (0 for none).
func hasFlag(flags []string, short byte, long ...string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "--") {
			name, _, _ := strings.Cut(f, "=")
			if contains(long, name) {
				return true
			}
			continue
		}
		if short != 0 && strings.IndexByte(f[1:], short) >= 0 {
			return true
		}
	}
	return false
}

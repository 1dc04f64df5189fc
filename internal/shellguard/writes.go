package shellguard

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect classifies an output redirection's target (> >> >| &> <>):
// a disk device is refused, a path outside the workspace asks (case B18).
func (c *checker) redirect(lv *level, r *syntax.Redirect) {
	if r.Word == nil {
		return
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
	case syntax.DplOut:
		if t := r.Word.Lit(); t == "-" || strings.Trim(t, "0123456789") == "" && t != "" {
			return
		}
	case syntax.RdrIn:
		if a := c.word(lv, r.Word); a.known() {
			if what, kind, ok := c.secretArg(a, clip(lv.text(r))); ok {
				c.add(RuleSecretAccess, "reads "+what+" ("+kind+")", clip(lv.text(r)))
			}
		}
		return
	default:
		return
	}
	cmd := command{lv: lv, base: "redirect", part: clip(lv.text(r))}
	c.writeTarget(cmd, c.word(lv, r.Word))
}

// writeTarget classifies writing the file t.
func (c *checker) writeTarget(cmd command, t arg) {
	if !t.known() {
		if t.proc {
			return // >(cmd): the command is classified on its own
		}
		c.add(RuleWriteUnknown, "writes to a path computed at run time", cmd.part)
		return
	}
	p := c.resolve(t.s)
	if strings.Contains(p, unknown) {
		c.add(RuleWriteUnknown, "writes "+quote(t.s)+" relative to a directory computed at run time", cmd.part)
		return
	}
	c.written[p] = true
	switch deviceKind(p) {
	case "harmless":
		return
	case "disk":
		c.add(RuleDiskWrite, "writes the disk device "+quote(p), cmd.part)
		return
	case "other":
		c.add(RuleWriteDevice, "writes the device "+quote(p), cmd.part)
		return
	}
	if kind, ok := SecretPath(p, c.opts.Home, ""); ok {
		c.add(RuleSecretAccess, "writes "+quote(t.s)+" ("+kind+")", cmd.part)
		return
	}
	if what := c.controlPath(p); what != "" {
		c.add(RuleWriteControl, "writes "+quote(t.s)+", "+what, cmd.part)
		return
	}
	if !c.writable(p) {
		c.add(RuleWriteOutside, "writes "+quote(p)+", outside the workspace", cmd.part)
	}
}

// controlPath says why p, in the workspace or an added root, runs code
// later ("" when it does not): git runs .git/hooks and what .git/config
// names; Zero loads .zero's hooks, rules and config next session.
func (c *checker) controlPath(p string) string {
	for _, r := range append([]string{c.opts.Workspace}, c.opts.Roots...) {
		if r == "" {
			continue
		}
		r = filepath.Clean(r)
		switch {
		case within(p, filepath.Join(r, ".git", "hooks")):
			return "a git hook git runs later"
		case within(p, filepath.Join(r, ".git", "config")):
			return "git's config, whose settings can run programs"
		case within(p, filepath.Join(r, ".zero")):
			return "Zero's project hooks, rules or config"
		}
	}
	return ""
}

// tee writes every file operand.
func (c *checker) tee(cmd command) {
	_, ops := splitFlags(cmd.args)
	for _, o := range ops {
		c.writeTarget(cmd, o)
	}
}

// copyLike (cp, install, ln, rsync) writes its destination: the -t
// directory or the last operand.
func (c *checker) copyLike(cmd command) {
	flags, ops := splitFlags(cmd.args)
	if dest, ok := targetDir(cmd.args); ok {
		c.writeTarget(cmd, dest)
		return
	}
	if cmd.base == "rsync" {
		for _, o := range ops {
			if strings.Contains(o.s, ":") && !strings.HasPrefix(o.s, "/") {
				return // remote side: not a local write
			}
		}
	}
	if len(ops) >= 2 || len(ops) == 1 && cmd.base == "ln" && hasFlag(flags, 's', "--symbolic") {
		dest := ops[len(ops)-1]
		if len(ops) == 1 {
			dest = literal(".")
		}
		// rsync --delete removes whatever the source lacks: a recursive
		// delete of the destination.
		if cmd.base == "rsync" && hasFlag(flags, 0, "--delete", "--delete-before", "--delete-during", "--delete-after",
			"--delete-delay", "--delete-excluded", "--del", "--remove-source-files") {
			c.deletes(cmd, []arg{dest}, true)
		}
		c.writeTarget(cmd, dest)
	}
}

// targetDir finds -t DIR / --target-directory=DIR.
func targetDir(args []arg) (arg, bool) {
	for i, a := range args {
		switch {
		case a.s == "-t" || a.s == "--target-directory":
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(a.s, "--target-directory="):
			v := strings.TrimPrefix(a.s, "--target-directory=")
			return arg{s: v, code: v}, true
		}
	}
	return arg{}, false
}

// mv deletes its sources from where they were: moving a protected path
// is refused; moving from or to outside the workspace asks.
func (c *checker) mv(cmd command) {
	_, ops := splitFlags(cmd.args)
	dest, hasT := targetDir(cmd.args)
	sources := ops
	if !hasT && len(ops) >= 2 {
		dest, sources = ops[len(ops)-1], ops[:len(ops)-1]
	}
	for _, s := range sources {
		if !s.known() {
			continue
		}
		p := c.resolve(s.s)
		if strings.Contains(p, unknown) {
			continue
		}
		if why := c.protected(p, s.glob, false); why != "" {
			c.add(RuleMoveProtected, "moves "+why, cmd.part)
			return
		}
		if !c.writable(p) {
			c.add(RuleWriteOutside, "moves "+quote(p)+" from outside the workspace", cmd.part)
		}
	}
	if dest.s != "" {
		c.writeTarget(cmd, dest)
	}
}

// touchLike (touch, mkdir, truncate) writes every operand.
func (c *checker) touchLike(cmd command) {
	args := cmd.args
	var ops []arg
	for i := 0; i < len(args); i++ {
		s := args[i].s
		if args[i].known() && strings.HasPrefix(s, "-") && len(s) > 1 {
			if s == "-m" || s == "-s" || s == "-r" || s == "-d" || s == "-t" || s == "--mode" || s == "--size" ||
				s == "--reference" || s == "--date" {
				i++
			}
			continue
		}
		ops = append(ops, args[i])
	}
	for _, o := range ops {
		c.writeTarget(cmd, o)
	}
}

// chmodLike (chmod, chown, chgrp, chattr): -R on / or a system path is
// refused; changing anything outside the workspace asks.
func (c *checker) chmodLike(cmd command) {
	var flags []string
	var ops []arg
	for _, a := range cmd.args {
		s := a.s
		isMode := cmd.base == "chmod" && len(s) > 1 && strings.Trim(s[1:], "rwxXstugoa+-=,0123456789") == "" &&
			(s[0] == '-' || s[0] == '+' || s[0] == '=') && s != "-R"
		if cmd.base == "chattr" && len(s) > 1 && (s[0] == '+' || s[0] == '-' || s[0] == '=') && s != "-R" {
			isMode = true
		}
		if a.known() && strings.HasPrefix(s, "-") && len(s) > 1 && !isMode {
			flags = append(flags, s)
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) > 0 && !hasReference(flags) {
		ops = ops[1:] // the mode or owner
	}
	recursive := hasFlag(flags, 'R', "--recursive")
	for _, o := range ops {
		if !o.known() {
			continue
		}
		p := c.resolve(o.s)
		if strings.Contains(p, unknown) {
			continue
		}
		if recursive {
			probe := p
			if o.glob {
				probe = p[:strings.LastIndexByte(p, '/')+1]
				if probe != "/" {
					probe = strings.TrimSuffix(probe, "/")
				}
			}
			if probe == "/" || c.isSystem(probe) && !c.strictlyInside(probe) {
				c.add(RulePermSystem, cmd.base+" -R on "+quote(probe), cmd.part)
				return
			}
		}
		if !c.writable(p) {
			c.add(RuleWriteOutside, cmd.base+" changes "+quote(p)+", outside the workspace", cmd.part)
		}
	}
}

func hasReference(flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "--reference") {
			return true
		}
	}
	return false
}

// sed -i edits its file operands in place.
func (c *checker) sed(cmd command) {
	inPlace, script := false, false
	var files []arg
	args := cmd.args
	for i := 0; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "-e" || s == "-f" || s == "--expression" || s == "--file":
			script = true
			i++
		case strings.HasPrefix(s, "--in-place") || strings.HasPrefix(s, "-i") ||
			strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "i"):
			inPlace = true
		case strings.HasPrefix(s, "-") && len(s) > 1:
		case !script:
			script = true
		default:
			files = append(files, args[i])
		}
	}
	if inPlace {
		for _, f := range files {
			c.writeTarget(cmd, f)
		}
	}
}

// curl writes -o FILE; wget writes -O FILE. Both may upload a local
// file (remote.go).
func (c *checker) curl(cmd command) {
	c.outputFlag(cmd, "-o", "--output")
	c.curlUpload(cmd)
}

func (c *checker) wget(cmd command) {
	c.outputFlag(cmd, "-O", "--output-document")
	c.wgetUpload(cmd)
}

func (c *checker) outputFlag(cmd command, short, long string) {
	args := cmd.args
	for i, a := range args {
		var v arg
		switch {
		case (a.s == short || a.s == long) && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a.s, long+"="):
			s := strings.TrimPrefix(a.s, long+"=")
			v = arg{s: s, code: s}
		case strings.HasPrefix(a.s, short) && len(a.s) > len(short) && !strings.HasPrefix(a.s, "--"):
			s := a.s[len(short):]
			v = arg{s: s, code: s}
		default:
			continue
		}
		if v.s != "-" {
			c.writeTarget(cmd, v)
		}
	}
}

// tar extracting with -C DIR writes DIR.
func (c *checker) tar(cmd command) {
	extract := false
	for i, a := range cmd.args {
		s := a.s
		if s == "-x" || s == "--extract" || s == "--get" || i == 0 && !strings.HasPrefix(s, "-") && strings.Contains(s, "x") ||
			strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "x") {
			extract = true
		}
	}
	if !extract {
		return
	}
	for i, a := range cmd.args {
		switch {
		case (a.s == "-C" || a.s == "--directory") && i+1 < len(cmd.args):
			c.writeTarget(cmd, cmd.args[i+1])
		case strings.HasPrefix(a.s, "--directory="):
			s := strings.TrimPrefix(a.s, "--directory=")
			c.writeTarget(cmd, arg{s: s, code: s})
		}
	}
}

// dd writes its of= operand.
func (c *checker) dd(cmd command) {
	for _, a := range cmd.args {
		if strings.HasPrefix(a.s, "of=") {
			s := strings.TrimPrefix(a.s, "of=")
			c.writeTarget(cmd, arg{s: s, code: s})
		}
	}
}

// formatter: mkfs and friends are refused; partition tools only list.
func (c *checker) formatter(cmd command) {
	if cmd.base != "mkfs" && cmd.base != "mke2fs" && cmd.base != "mkswap" && cmd.base != "wipefs" && cmd.base != "blkdiscard" {
		for _, a := range cmd.args {
			if formatterListFlags[a.s] {
				return
			}
		}
		if len(cmd.args) == 0 && cmd.base != "diskutil" {
			return
		}
		if cmd.base == "diskutil" || cmd.base == "zpool" {
			if len(cmd.args) == 0 || !strings.Contains(strings.ToLower(cmd.args[0].s), "erase") &&
				cmd.args[0].s != "destroy" && cmd.args[0].s != "partitionDisk" && cmd.args[0].s != "zeroDisk" &&
				cmd.args[0].s != "randomDisk" && cmd.args[0].s != "create" {
				return
			}
		}
	}
	if cmd.base == "wipefs" && !hasFlag(flagsOf(cmd.args), 'a', "--all") && !hasFlag(flagsOf(cmd.args), 'o', "--offset") {
		return // wipefs without -a/-o only lists signatures
	}
	c.add(RuleDiskFormat, cmd.base+" formats, wipes or partitions a disk", cmd.part)
}

func flagsOf(args []arg) []string {
	f, _ := splitFlags(args)
	return f
}

// systemctl poweroff/reboot/halt and init 0/6 stop the machine.
func (c *checker) systemctl(cmd command) {
	for _, a := range cmd.args {
		switch a.s {
		case "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "rescue", "emergency":
			c.add(RuleSystemPower, "systemctl "+a.s+" stops or restarts the machine", cmd.part)
			return
		}
	}
}

// kill -1 signals every process the user may signal, Zero included.
func (c *checker) kill(cmd command) {
	args := cmd.args
	i := 0
	switch {
	case len(args) > 1 && (args[0].s == "-s" || args[0].s == "-n"):
		i = 2
	case len(args) > 1 && strings.HasPrefix(args[0].s, "-") && args[0].s != "--":
		i = 1 // the signal: -9, -KILL
	}
	for _, a := range args[min(i, len(args)):] {
		if a.known() && a.s == "-1" {
			c.add(RuleSystemPower, "kill -1 signals every process of the user, Zero included", cmd.part)
			return
		}
	}
}

func (c *checker) initCmd(cmd command) {
	if len(cmd.args) > 0 && (cmd.args[0].s == "0" || cmd.args[0].s == "6") {
		c.add(RuleSystemPower, "init "+cmd.args[0].s+" stops or restarts the machine", cmd.part)
	}
}

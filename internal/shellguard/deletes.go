package shellguard

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// rm: a recursive delete asks; of the workspace root itself it asks
// under its own rule (delete.workspace); of a protected path it is
// refused (cases B18, B19). Deleting one ordinary workspace file is not
// dangerous: the mode decides whether it asks.
func (c *checker) rm(cmd command) {
	flags, targets := splitFlags(cmd.args)
	recursive := hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R')
	if hasFlag(flags, 0, "--no-preserve-root") {
		c.add(RuleDeleteProtected, "rm --no-preserve-root removes the safety check for \"/\"", cmd.part)
	}
	c.deletes(cmd, targets, recursive)
}

// rmdir and unlink delete one entry at a time.
func (c *checker) rmdir(cmd command) {
	_, targets := splitFlags(cmd.args)
	c.deletes(cmd, targets, false)
}

// shred overwrites files; of a device it destroys a disk.
func (c *checker) shred(cmd command) {
	_, targets := splitFlags(cmd.args)
	for _, t := range targets {
		if t.known() && deviceKind(c.resolve(t.s)) == "disk" {
			c.add(RuleDiskWrite, "shred overwrites the disk device "+quote(c.resolve(t.s)), cmd.part)
			return
		}
	}
	c.deletes(cmd, targets, false)
	// Unlike rm, shred leaves nothing to recover from (no undo, no
	// checkpoint can bring the contents back), so it always asks.
	c.add(RuleDeleteFiles, "shred overwrites and deletes files", cmd.part)
}

// deletes classifies deleting targets. A tree target (items from find)
// deletes everything under its root, so it counts as recursive. A
// non-recursive delete is a finding only when a target is not one
// ordinary workspace file (see plainDelete).
func (c *checker) deletes(cmd command, targets []arg, recursive bool) {
	if !recursive {
		if c.plainDelete(cmd, targets) {
			return
		}
	}
	worst := RuleDeleteFiles
	worstWhat := ""
	if recursive {
		worst = RuleDeleteRecursive
	}
	undo := len(targets) > 0
	for _, t := range targets {
		rec, filtered, glob := recursive, false, t.glob
		var p string
		switch {
		case t.tree != nil:
			p, rec, filtered, glob = c.resolve(t.tree.root), true, t.tree.filtered, false
			if filtered {
				worstWhat = "deletes what find matches under " + quote(t.tree.root)
			} else {
				worstWhat = "deletes everything under " + quote(t.tree.root)
			}
		case !t.known():
			if rec {
				c.add(RuleDeleteRecursive, "recursive delete of a path computed at run time", cmd.part)
				return
			}
			undo = false
			continue
		default:
			if t.userHome != "" && rec {
				c.add(RuleDeleteProtected, "recursive delete of the home directory of user "+quote(t.userHome), cmd.part)
				return
			}
			p = c.resolve(t.s)
		}
		if strings.Contains(p, unknown) {
			if rec {
				c.add(RuleDeleteRecursive, "recursive delete of a path relative to a directory computed at run time", cmd.part)
				return
			}
			undo = false
			continue
		}
		undo = undo && c.undoable(p, glob)
		if rec {
			worst = RuleDeleteRecursive
			if why := c.workspaceItself(p, glob, filtered); why != "" {
				c.add(RuleDeleteWorkspace, "recursive delete of "+why, cmd.part)
				return
			}
			if why := c.protected(p, glob, filtered); why != "" {
				c.add(RuleDeleteProtected, "recursive delete of "+why, cmd.part)
				return
			}
		}
	}
	if undo {
		what := cmd.base + " deletes files inside the workspace"
		if worst == RuleDeleteRecursive {
			what = "recursive delete inside the workspace"
		}
		c.add(RuleDeleteUndoable, what+" (checkpoints can rewind it)", cmd.part)
	} else if worstWhat != "" {
		c.add(worst, worstWhat, cmd.part)
	} else if worst == RuleDeleteRecursive {
		c.add(worst, "recursive delete", cmd.part)
	} else {
		c.add(worst, cmd.base+" deletes files", cmd.part)
	}
}

// plainDelete reports whether a non-recursive delete of targets removes
// only ordinary files in the workspace, an added root or a temp directory
// (`rm foo.txt`, `rm -f build/out.o`): such a delete is no more dangerous
// than editing the file, so the guard adds nothing. Otherwise it returns
// false and deletes records why: a target computed at run time, a glob,
// a path outside, a control file (.git/hooks, .zero).
func (c *checker) plainDelete(cmd command, targets []arg) bool {
	for _, t := range targets {
		if t.tree != nil || !t.known() || t.glob {
			return false
		}
		p := c.resolve(t.s)
		if strings.Contains(p, unknown) || !c.writable(p) || c.isRoot(p) || deviceKind(p) != "" {
			return false
		}
		if what := c.controlPath(p); what != "" {
			c.add(RuleWriteControl, cmd.base+" deletes "+quote(t.s)+", "+what, cmd.part)
			return true
		}
	}
	return true
}

// isRoot reports whether p is the workspace root, an added root or a
// temp directory itself (not a file inside one).
func (c *checker) isRoot(p string) bool {
	for _, r := range append(append([]string{c.opts.Workspace}, c.opts.Roots...), c.opts.TempDirs...) {
		if r != "" && p == filepath.Clean(r) {
			return true
		}
	}
	return false
}

// workspaceItself says what a recursive delete of p removes when that is
// the workspace root itself or everything in it (`rm -r -f .`, `rm -rf
// ./`, `rm -rf "$PWD"`, `rm -rf *` at the root), "" otherwise. Such a
// delete asks under its own rule (delete.workspace) rather than being
// refused: the project is the user's to reset, but never silently, not
// even in auto-accept mode. When the workspace is also /, the home
// directory or a system path, protected refuses it instead.
func (c *checker) workspaceItself(p string, glob, filtered bool) string {
	if filtered {
		return ""
	}
	what := ""
	if glob {
		dir, base := filepath.Split(p)
		if !everything(base) {
			return ""
		}
		p, what = filepath.Clean(dir), "everything in "
	}
	if p != c.opts.Workspace || p == "/" || p == c.opts.Home || c.isSystem(p) {
		return ""
	}
	return what + "the workspace root " + quote(p)
}

// findNoFilter are find primaries that do not narrow which paths are
// printed or acted on.
var findNoFilter = set("-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-daystart", "-ignore_readdir_race",
	"-noignore_readdir_race", "-print", "-print0", "-ls", "-delete", "-true", "-nowarn", "-warn", "-P", "-H", "-L")

// findArgPrimaries take one value.
var findArgPrimaries = set("-maxdepth", "-mindepth", "-name", "-iname", "-path", "-ipath", "-wholename",
	"-iwholename", "-regex", "-iregex", "-regextype", "-type", "-xtype", "-user", "-group", "-uid", "-gid",
	"-perm", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer",
	"-links", "-inum", "-samefile", "-lname", "-ilname", "-fstype", "-context", "-printf", "-used", "-files0-from")

// findWriteFile primaries write their first value as a file.
var findWriteFile = set("-fprint", "-fprint0", "-fprintf", "-fls")

// findSpec is what a find command walks and does.
type findSpec struct {
	roots    []string
	filtered bool
	deletes  bool
	execs    [][]arg
	writes   []arg
}

// parseFind reads find's roots and expression.
func parseFind(args []arg) findSpec {
	var f findSpec
	i := 0
	for i < len(args) && args[i].known() && (args[i].s == "-H" || args[i].s == "-L" || args[i].s == "-P" ||
		strings.HasPrefix(args[i].s, "-O") || args[i].s == "-D") {
		if args[i].s == "-D" {
			i++
		}
		i++
	}
	for i < len(args) {
		s := args[i].s
		if args[i].known() && (strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		f.roots = append(f.roots, s)
		i++
	}
	if len(f.roots) == 0 {
		f.roots = []string{"."}
	}
	for ; i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "-delete":
			f.deletes = true
		case s == "-exec" || s == "-execdir" || s == "-ok" || s == "-okdir":
			j := i + 1
			for j < len(args) && args[j].s != ";" && args[j].s != "+" {
				j++
			}
			f.execs = append(f.execs, args[i+1:j])
			i = j
		case findWriteFile[s]:
			if i+1 < len(args) {
				f.writes = append(f.writes, args[i+1])
			}
			i++
			if s == "-fprintf" {
				i++
			}
		case findArgPrimaries[s]:
			if s != "-maxdepth" && s != "-mindepth" && s != "-regextype" && s != "-printf" {
				f.filtered = true
			}
			i++
		case strings.HasPrefix(s, "-") && !findNoFilter[s]:
			f.filtered = true
		}
	}
	return f
}

// items returns one tree arg per root.
func (f findSpec) items() []arg {
	out := make([]arg, 0, len(f.roots))
	for _, r := range f.roots {
		if strings.Contains(r, unknown) {
			out = append(out, arg{s: unknown, code: unknown})
			continue
		}
		out = append(out, arg{s: r, code: r, tree: &tree{root: r, filtered: f.filtered}})
	}
	return out
}

// find: -delete and -exec run on every path found under each root.
func (c *checker) find(cmd command) {
	f := parseFind(cmd.args)
	for _, w := range f.writes {
		c.writeTarget(cmd, w)
	}
	if f.deletes {
		c.deletes(cmd, f.items(), true)
	}
	for _, ex := range f.execs {
		if len(ex) == 0 {
			continue
		}
		for _, item := range f.items() {
			sub := make([]arg, 0, len(ex))
			for _, a := range ex {
				switch {
				case a.known() && a.s == "{}":
					sub = append(sub, item)
				case strings.Contains(a.s, "{}"):
					sub = append(sub, substitute(a, "{}", item))
				default:
					sub = append(sub, a)
				}
			}
			c.argv(cmd.lv, sub, input{}, cmd.part, cmd.hops+1)
		}
	}
}

// xargs runs its command with items read from stdin. When the items come
// from `find ROOT` (or echo), the guard knows what they are: `find / |
// xargs rm -f` deletes everything under / (case B19).
func (c *checker) xargs(cmd command) {
	args := cmd.args
	replace := ""
	i := 0
	fromFile := false
	for i < len(args) && args[i].known() && strings.HasPrefix(args[i].s, "-") {
		s := args[i].s
		if s == "--" {
			i++
			break
		}
		switch {
		case s == "-I":
			if i+1 < len(args) {
				i++
				replace = args[i].s
			}
		case strings.HasPrefix(s, "-I"):
			replace = s[2:]
		case s == "-i" || s == "--replace":
			replace = "{}"
		case strings.HasPrefix(s, "--replace="):
			replace = strings.TrimPrefix(s, "--replace=")
		case strings.HasPrefix(s, "-i"):
			replace = s[2:]
		case s == "-a" || s == "--arg-file":
			fromFile = true
			i++
		case strings.HasPrefix(s, "--arg-file=") || strings.HasPrefix(s, "-a"):
			fromFile = true
		case s == "-n" || s == "-L" || s == "-P" || s == "-s" || s == "-d" || s == "-E" ||
			s == "--max-args" || s == "--max-procs" || s == "--max-chars" || s == "--delimiter" || s == "--process-slot-var":
			i++
		}
		i++
	}
	var inner []arg
	if i < len(args) {
		inner = args[i:]
	}
	if len(inner) == 0 {
		inner = []arg{literal("echo")}
	}
	items := []arg{{s: unknown, code: unknown}}
	if !fromFile {
		items = c.pipeItems(cmd)
	}
	run := func(sub []arg) { c.argv(cmd.lv, sub, input{}, cmd.part, cmd.hops+1) }
	if replace == "" {
		run(append(append([]arg{}, inner...), items...))
		return
	}
	for _, item := range items {
		sub := make([]arg, 0, len(inner))
		for _, a := range inner {
			switch {
			case a.known() && a.s == replace:
				sub = append(sub, item)
			case strings.Contains(a.s, replace):
				sub = append(sub, substitute(a, replace, item))
			default:
				sub = append(sub, a)
			}
		}
		run(sub)
	}
}

// substitute puts item into a word that holds token inside other text
// (`sh -c 'rm -rf {}'`). The value becomes unknown; as code, an unfiltered
// find tree is written as its root (deleting every path under / is
// deleting /), anything else as a run-time value.
func substitute(a arg, token string, item arg) arg {
	out := arg{s: strings.ReplaceAll(a.s, token, unknown), code: strings.ReplaceAll(a.code, token, `"$ZERO_ITEM"`)}
	if item.tree != nil && !item.tree.filtered {
		out.code = strings.ReplaceAll(a.code, token, shellQuote(item.tree.root))
	} else if item.known() {
		out.code = strings.ReplaceAll(a.code, token, shellQuote(item.s))
	}
	return out
}

// pipeItems says what the stage before cmd prints, as xargs items: the
// trees of a find, the words of an echo, or one unknown item.
func (c *checker) pipeItems(cmd command) []arg {
	unknownItem := []arg{{s: unknown, code: unknown}}
	if len(cmd.in.upstream) == 0 {
		return unknownItem
	}
	prev := cmd.in.upstream[len(cmd.in.upstream)-1]
	call, ok := prev.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return unknownItem
	}
	var argv []arg
	for _, w := range call.Args {
		argv = append(argv, c.fields(cmd.lv, w)...)
	}
	argv = stripWrappers(argv)
	if len(argv) == 0 || !argv[0].known() {
		return unknownItem
	}
	switch commandBase(argv[0].s) {
	case "find":
		return parseFind(argv[1:]).items()
	case "echo", "printf":
		_, ops := splitFlags(argv[1:])
		var out []arg
		for _, a := range ops {
			if !a.known() {
				return unknownItem
			}
			for _, w := range strings.Fields(a.s) {
				out = append(out, literal(w))
			}
		}
		if len(out) > 0 && len(out) <= maxBraceFields {
			return out
		}
	}
	return unknownItem
}

// stripWrappers removes wrapper commands and their flags from argv
// without classifying anything (used to see what a pipeline stage runs).
func stripWrappers(argv []arg) []arg {
	for hop := 0; hop < maxHops && len(argv) > 0 && argv[0].known(); hop++ {
		w, ok := wrappers[commandBase(argv[0].s)]
		if !ok {
			return argv
		}
		rest := argv[1:]
		i := 0
		for i < len(rest) && rest[i].known() && strings.HasPrefix(rest[i].s, "-") {
			if rest[i].s == "--" {
				i++
				break
			}
			if len(rest[i].s) == 2 && strings.IndexByte(w.argFlags, rest[i].s[1]) >= 0 || contains(w.longArgs, rest[i].s) {
				i++
			}
			i++
		}
		for w.assigns && i < len(rest) && rest[i].known() && isAssign(rest[i].s) {
			i++
		}
		if w.operands > 0 {
			i += w.operands
		}
		if i >= len(rest) {
			return nil
		}
		argv = rest[i:]
	}
	return argv
}

// forkBomb refuses a function that calls itself more than once or in the
// background (`:(){ :|:& };:` and its renamed variants).
func (c *checker) forkBomb(lv *level, fn *syntax.FuncDecl) {
	names := map[string]bool{}
	if fn.Name != nil {
		names[fn.Name.Value] = true
	}
	for _, n := range fn.Names {
		names[n.Value] = true
	}
	if fn.Body == nil || len(names) == 0 {
		return
	}
	calls, background := 0, false
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		self := false
		syntax.Walk(st, func(m syntax.Node) bool {
			if call, ok := m.(*syntax.CallExpr); ok && len(call.Args) > 0 && names[call.Args[0].Lit()] {
				self = true
			}
			return !self
		})
		if self && st.Background {
			background = true
		}
		if call, ok := st.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 && names[call.Args[0].Lit()] {
			calls++
		}
		return true
	})
	if calls >= 2 || background {
		name := ""
		for n := range names {
			name = n
		}
		c.add(RuleForkBomb, fmt.Sprintf("function %q spawns copies of itself without end (fork bomb)", name), clip(lv.text(fn)))
	}
}

// userHome reports whether s names another user's home directory as a
// whole: ~name, ~name/, or a glob of everything in it (~name/*). Any
// name counts, whether or not the user exists here.
func userHome(s string) (string, bool) {
	if !strings.HasPrefix(s, "~") || strings.HasPrefix(s, "~/") || s == "~" || strings.HasPrefix(s, "~+") || strings.HasPrefix(s, "~-") {
		return "", false
	}
	name, rest, _ := strings.Cut(s[1:], "/")
	if name == "" || !everything(strings.Trim(rest, "/")) && filepath.Clean("/"+rest) != "/" {
		return "", false
	}
	return name, true
}

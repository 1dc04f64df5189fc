package shellguard

import (
	"strings"
)

// gitRule is one destructive git operation (case B21): the subcommand and
// a test on its arguments.
type gitRule struct {
	sub   string
	rule  string
	what  string
	match func(g gitArgs) bool
}

// gitArgs are a subcommand's arguments: all of them, the flags and the
// operands (split at "--").
type gitArgs struct {
	all   []arg
	flags []string
	ops   []arg
	dash  bool // a "--" separator is present with paths after it
}

func always(gitArgs) bool { return true }

func firstOp(names ...string) func(gitArgs) bool {
	return func(g gitArgs) bool { return len(g.ops) > 0 && contains(names, g.ops[0].s) }
}

// gitRules is the destructive-git table. Anything not matched is allowed.
var gitRules = []gitRule{
	{"reset", RuleGitResetHard, "git reset --hard discards uncommitted changes",
		func(g gitArgs) bool { return hasFlag(g.flags, 0, "--hard") }},
	{"push", RuleGitPushForce, "git push rewrites or deletes remote history", func(g gitArgs) bool {
		if hasFlag(g.flags, 'f', "--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune") ||
			hasFlag(g.flags, 'd') {
			return true
		}
		for _, o := range g.ops {
			if strings.HasPrefix(o.s, "+") || strings.HasPrefix(o.s, ":") || strings.Contains(o.s, " +") {
				return true
			}
		}
		return false
	}},
	{"clean", RuleGitClean, "git clean deletes untracked files", func(g gitArgs) bool {
		return hasFlag(g.flags, 'f', "--force") && !hasFlag(g.flags, 'n', "--dry-run")
	}},
	{"checkout", RuleGitCheckout, "git checkout overwrites uncommitted changes", func(g gitArgs) bool {
		if g.dash || hasFlag(g.flags, 'f', "--force", "--ours", "--theirs", "--discard-changes", "--pathspec-from-file") {
			return true
		}
		for _, o := range g.ops {
			if o.s == "." || o.s == "*" || o.s == ":/" {
				return true
			}
		}
		return false
	}},
	{"restore", RuleGitRestore, "git restore discards uncommitted changes", func(g gitArgs) bool {
		staged := hasFlag(g.flags, 'S', "--staged")
		worktree := hasFlag(g.flags, 'W', "--worktree")
		return worktree || !staged
	}},
	{"switch", RuleGitCheckout, "git switch --discard-changes overwrites uncommitted changes", func(g gitArgs) bool {
		return hasFlag(g.flags, 'f', "--force", "--discard-changes")
	}},
	{"branch", RuleGitBranchDelete, "git branch force-deletes or overwrites a branch", func(g gitArgs) bool {
		return hasFlag(g.flags, 'D') || hasFlag(g.flags, 'M') || hasFlag(g.flags, 'C') ||
			hasFlag(g.flags, 'd', "--delete") && hasFlag(g.flags, 'f', "--force")
	}},
	{"stash", RuleGitStashDrop, "git stash drop/clear loses stashed work", firstOp("drop", "clear")},
	{"filter-branch", RuleGitHistory, "git filter-branch rewrites history", always},
	{"filter-repo", RuleGitHistory, "git filter-repo rewrites history", always},
	{"reflog", RuleGitHistory, "git reflog expire/delete drops recovery points", firstOp("expire", "delete")},
	{"update-ref", RuleGitHistory, "git update-ref -d deletes a ref", func(g gitArgs) bool { return hasFlag(g.flags, 'd') }},
	{"worktree", RuleGitClean, "git worktree remove --force deletes a worktree with changes", func(g gitArgs) bool {
		return len(g.ops) > 0 && g.ops[0].s == "remove" && hasFlag(g.flags, 'f', "--force")
	}},
}

// gitRunsProgram are config keys (lower case) whose value git runs.
var gitRunsProgram = set("core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.hookspath",
	"core.askpass", "credential.helper", "diff.external", "sequence.editor", "gpg.program", "gpg.ssh.program",
	"uploadpack.packobjectshook", "pager.log", "pager.diff", "pager.show", "merge.tool", "diff.tool", "include.path")

var gitRunsProgramSuffix = []string{".textconv", ".command", ".clean", ".smudge", ".process", ".cmd", ".helper", ".driver"}

// git parses global options (-C, -c, --git-dir, --work-tree), expands -c
// aliases, then matches the subcommand against gitRules.
func (c *checker) git(cmd command) {
	args := cmd.args
	aliases := map[string]string{}
	i := 0
loop:
	for i < len(args) {
		a := args[i]
		s := a.s
		next := func() (arg, bool) {
			if i+1 < len(args) {
				return args[i+1], true
			}
			return arg{}, false
		}
		switch {
		case !a.known():
			break loop
		case s == "-C" || s == "--git-dir" || s == "--work-tree":
			if v, ok := next(); ok {
				c.gitPath(cmd, s, v)
			}
			i += 2
		case strings.HasPrefix(s, "--git-dir=") || strings.HasPrefix(s, "--work-tree="):
			name, v, _ := strings.Cut(s, "=")
			c.gitPath(cmd, name, arg{s: v, code: v})
			i++
		case s == "-c":
			if v, ok := next(); ok {
				c.gitConfig(cmd, v, aliases)
			}
			i += 2
		case s == "--namespace" || s == "--super-prefix" || s == "--config-env" || s == "--list-cmds":
			i += 2
		case strings.HasPrefix(s, "-"):
			i++
		default:
			break loop
		}
	}
	if i >= len(args) {
		return
	}
	sub := args[i]
	rest := args[i+1:]
	if !sub.known() {
		c.add(RuleCodeDynamic, "the git subcommand is computed at run time", cmd.part)
		return
	}
	if val, ok := aliases[sub.s]; ok {
		if strings.HasPrefix(val, "!") {
			c.code(cmd, arg{s: val[1:], code: val[1:]})
			return
		}
		argv := []arg{literal("git")}
		for _, f := range strings.Fields(val) {
			argv = append(argv, literal(strings.Trim(f, `'"`)))
		}
		c.argv(cmd.lv, append(argv, rest...), cmd.in, cmd.part, cmd.hops+1)
		return
	}
	g := gitArgs{all: rest}
	for j, a := range rest {
		if a.known() && a.s == "--" {
			g.dash = j+1 < len(rest)
			break
		}
	}
	g.flags, g.ops = splitFlags(rest)
	if sub.s == "config" {
		c.gitConfigSet(cmd, g)
		return
	}
	for _, r := range gitRules {
		if r.sub == sub.s && r.match(g) {
			c.add(r.rule, r.what, cmd.part)
			return
		}
	}
}

// gitPath asks when git is pointed at a repository outside the workspace.
func (c *checker) gitPath(cmd command, flag string, v arg) {
	if !v.known() {
		c.add(RuleGitOutside, "git "+flag+" names a path computed at run time", cmd.part)
		return
	}
	p := c.resolve(v.s)
	if strings.Contains(p, unknown) {
		c.add(RuleGitOutside, "git "+flag+" names a path relative to a directory computed at run time", cmd.part)
		return
	}
	if !within(p, c.opts.Workspace) && !c.inRoots(p) {
		c.add(RuleGitOutside, "git "+flag+" "+quote(p)+" works on a repository outside the workspace", cmd.part)
	}
}

func (c *checker) inRoots(p string) bool {
	for _, r := range c.opts.Roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// gitConfig records -c alias.NAME=VALUE and asks for keys that run
// programs.
func (c *checker) gitConfig(cmd command, v arg, aliases map[string]string) {
	if !v.known() {
		c.add(RuleGitConfigCommand, "git -c with a setting computed at run time", cmd.part)
		return
	}
	key, val, _ := strings.Cut(v.s, "=")
	key = strings.ToLower(key)
	if name, ok := strings.CutPrefix(key, "alias."); ok {
		aliases[name] = val
		return
	}
	risky := gitRunsProgram[key]
	for _, suf := range gitRunsProgramSuffix {
		if strings.HasSuffix(key, suf) {
			risky = true
		}
	}
	if risky {
		c.add(RuleGitConfigCommand, "git -c "+key+" makes git run a program", cmd.part)
	}
}

// gitConfigSet asks when `git config` sets a key whose value git runs
// (core.fsmonitor, core.hooksPath, a filter driver, a "!" alias): the
// next git command in the repository would run it. Reading a key (one
// operand) is allowed.
func (c *checker) gitConfigSet(cmd command, g gitArgs) {
	ops := g.ops
	if len(ops) > 0 && contains([]string{"get", "list", "unset", "rename-section", "remove-section", "edit"}, ops[0].s) {
		return
	}
	if len(ops) > 0 && (ops[0].s == "set" || ops[0].s == "--add") {
		ops = ops[1:]
	}
	if len(ops) < 2 || hasFlag(g.flags, 'l', "--get", "--get-all", "--get-regexp", "--list", "--unset", "--unset-all") {
		return
	}
	for i, o := range ops {
		if !o.known() {
			continue
		}
		key := strings.ToLower(o.s)
		risky := gitRunsProgram[key]
		for _, suf := range gitRunsProgramSuffix {
			risky = risky || strings.HasSuffix(key, suf)
		}
		if strings.HasPrefix(key, "alias.") && i+1 < len(ops) && strings.HasPrefix(ops[i+1].s, "!") {
			risky = true
		}
		if risky {
			c.add(RuleGitConfigCommand, "git config "+key+" makes later git commands run a program", cmd.part)
			return
		}
	}
}

// Snapshot returns a command that makes an approved destructive git
// operation reversible (case B21: "offer to snapshot (git stash / backup
// ref) so it is reversible"), for the rule that asked: uncommitted work
// goes into a stash the user can `git stash pop`. ok is false for rules
// with nothing local to save.
func Snapshot(rule string) (command string, ok bool) {
	switch rule {
	case RuleGitResetHard, RuleGitCheckout, RuleGitRestore:
		return `git stash push --include-untracked --message "zero: snapshot before ` + rule + `"`, true
	case RuleGitClean:
		// clean -x also deletes ignored files: --all keeps those too.
		return `git stash push --all --message "zero: snapshot before ` + rule + `"`, true
	}
	return "", false
}

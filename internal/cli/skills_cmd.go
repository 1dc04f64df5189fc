package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/skills"
)

// skillsCmd is `zero skills list|show NAME|add PATH`; with no sub-verb it
// lists them.
func skillsCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "skills",
		Short: "Skills (SKILL.md folders): list, show one, add one to your skills folder",
		Long: `Skills are folders holding a SKILL.md (name, description, instructions).
Zero reads ~/.config/zero/skills, ~/.agents/skills and ~/.claude/skills, then
.zero/skills, .agents/skills and .claude/skills from this folder up to the
repository root (project skills only once the folder is trusted: zero trust).
The first skill found for a name wins. The model sees names and descriptions
and loads a skill's body with the skill tool; /<skill> in the app runs one.`,
		GroupID: groupSetup,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runSkillsList(s) }),
	}
	c.AddCommand(
		&cobra.Command{Use: "list", Short: "List the skills and where each comes from", Args: cobra.NoArgs,
			RunE: ran(func(*cobra.Command, []string) error { return runSkillsList(s) }), ValidArgsFunction: cobra.NoFileCompletions},
		&cobra.Command{Use: "show NAME", Short: "Show a skill's instructions and files", Args: exactArgs(1, "zero skills show NAME"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return runSkillsShow(s, a[0]) }), ValidArgsFunction: completeSkills},
		&cobra.Command{Use: "add PATH", Short: "Copy the skill folder PATH into ~/.config/zero/skills", Args: exactArgs(1, "zero skills add PATH"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return runSkillsAdd(s, a[0]) }),
			ValidArgsFunction: func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveFilterDirs
			}},
	)
	return c
}

// commandsCmd is `zero commands`: the custom slash commands.
func commandsCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "commands",
		Short: "List the custom slash commands (.claude/commands, .gemini/commands, …)",
		Long: `Custom commands are Markdown files (Claude Code's format) in
~/.config/zero/commands, ~/.claude/commands, and .zero/commands or
.claude/commands from this folder up to the repository root, and Gemini CLI's
TOML files in ~/.gemini/commands and .gemini/commands (project ones only once
the folder is trusted). frontend/test.md is /frontend:test. Run one in the app
with /NAME args, or with zero exec "/NAME args".`,
		GroupID:           groupSetup,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: ran(func(*cobra.Command, []string) error {
			fmt.Fprintln(s.out, commands.Discover(extensionOptions()).Report())
			return nil
		}),
	}
}

// exactArgs wants n arguments, else a usage error saying usage.
func exactArgs(n int, usage string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("usage: %s", usage)
		}
		return nil
	}
}

// extensionOptions are where skills and commands are read from for the
// current folder, with its trust.
func extensionOptions() skills.Options {
	wd, _ := os.Getwd()
	wd = run.CanonicalDir(wd)
	return run.ExtensionOptions(wd, run.ReadFolderTrust(wd).OK(), run.LoadPlugins())
}

func runSkillsList(s stdio) error {
	fmt.Fprintln(s.out, skills.Discover(extensionOptions()).Report())
	return nil
}

// completeSkills completes `zero skills show` with the skills found
// here, each with its description.
func completeSkills(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, sk := range skills.Discover(extensionOptions()).Skills {
		out = append(out, cobra.CompletionWithDesc(sk.Name, sk.Description))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func runSkillsShow(s stdio, name string) error {
	set := skills.Discover(extensionOptions())
	sk, ok := set.Get(name)
	if !ok {
		return usagef("no skill %q (zero skills list shows them)", name)
	}
	text, err := skills.Text(sk)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "%s (%s): %s\n%s\n\n%s\n", sk.Name, sk.Scope, sk.Description, sk.Path(), text)
	return nil
}

func runSkillsAdd(s stdio, path string) error {
	dir := filepath.Join(config.Dir(), "skills")
	sk, err := skills.Install(path, dir)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(s.out, "added skill %s to %s (a copy: later changes to %s do not reach it)\n", sk.Name, sk.Dir, path)
	return nil
}

// doctorExtensions reports the skills and custom commands found here: a
// file that cannot be read or parsed fails the check (it would otherwise
// be silently missing), and what trust or precedence left out is noted.
func doctorExtensions(c *checks) {
	eo := extensionOptions()
	sk, cmds := skills.Discover(eo), commands.Discover(eo)
	c.line(sk.Broken == 0, "skills: %d loaded, %d unreadable or malformed (zero skills list)", sk.Len(), sk.Broken)
	c.line(cmds.Broken == 0, "custom commands: %d loaded, %d unreadable or malformed (zero commands)", len(cmds.Commands), cmds.Broken)
	for _, n := range append(sk.Notes, cmds.Notes...) {
		c.note("  ! %s", n)
	}
}

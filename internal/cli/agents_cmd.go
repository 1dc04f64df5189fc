package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/subagents"
)

// agentsCmd is `zero agents list|show NAME`; with no sub-verb it lists
// them.
func agentsCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "agents",
		Short: "Sub-agent definitions (.claude/agents/*.md): list, show one",
		Long: `Sub-agents are Markdown files in Claude Code's format (front matter name,
description, tools, disallowedTools, model, permissionMode, maxTurns, skills;
the body is the agent's instructions). Zero reads ~/.config/zero/agents and
~/.claude/agents, then .zero/agents and .claude/agents from this folder up to
the repository root (project ones only once the folder is trusted: zero
trust), then the enabled plugins' agents, named PLUGIN:NAME. The built-ins explore and general always exist; the first definition
found for a name wins. The model runs one with the task tool.`,
		GroupID: groupSetup,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runAgentsList(s) }),
	}
	c.AddCommand(
		&cobra.Command{Use: "list", Short: "List the sub-agents and where each comes from", Args: cobra.NoArgs,
			RunE: ran(func(*cobra.Command, []string) error { return runAgentsList(s) }), ValidArgsFunction: cobra.NoFileCompletions},
		&cobra.Command{Use: "show NAME", Short: "Show a sub-agent's definition", Args: exactArgs(1, "zero agents show NAME"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return runAgentsShow(s, a[0]) }), ValidArgsFunction: cobra.NoFileCompletions},
	)
	return c
}

func runAgentsList(s stdio) error {
	fmt.Fprintln(s.out, subagents.Discover(extensionOptions()).Report())
	return nil
}

func runAgentsShow(s stdio, name string) error {
	d, ok := subagents.Discover(extensionOptions()).Get(name)
	if !ok {
		return usagef("no agent %q (zero agents list shows them)", name)
	}
	fmt.Fprintln(s.out, d.Show())
	return nil
}

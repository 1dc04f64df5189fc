package cli

import (
	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/acp"
	"github.com/zero-agent/zero/internal/run"
)

const acpLong = `Speaks the Agent Client Protocol on stdin and stdout, for editors (Zed,
JetBrains, Neovim): each editor session is a Zero session in its folder,
with the same config, providers, MCP servers, skills, rules and hooks as
the CLI. stdout carries protocol messages only; logs go to stderr.
See docs/acp.md.`

// acpCmd is `zero acp`: the editor bridge (internal/acp).
func acpCmd(s stdio) *cobra.Command {
	var over overrides
	var mode string
	c := &cobra.Command{
		Use:     "acp [flags]",
		Short:   "Serve editors over the Agent Client Protocol (stdio)",
		Long:    acpLong,
		Example: `  zed: "agent_servers": {"Zero": {"command": "zero", "args": ["acp"]}}`,
		GroupID: groupRun,
		Args:    cobra.NoArgs,
		RunE: ran(func(*cobra.Command, []string) error {
			return acp.Serve(s.in, s.out, acp.Options{
				Run: run.Options{
					AddDirs: over.addDirs, Overrides: over.config(),
					Mode: mode, AutoApprove: over.autoApprove,
				},
				Version: Version,
				Stderr:  s.err,
			})
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	registerMode(c, &mode)
	over.register(c)
	return c
}

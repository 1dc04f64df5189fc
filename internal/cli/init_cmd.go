package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/headless"
)

// initCmd is `zero init [FOCUS]`: `zero exec "/init FOCUS"`, the
// built-in command that studies the project and writes its AGENTS.md
// (internal/run/initcmd.go); writing that file needs no approval.
func initCmd(s stdio) *cobra.Command {
	o := &execOptions{output: headless.Text}
	c := &cobra.Command{
		Use:   "init [FOCUS]",
		Short: "Study the project and write (or improve) its AGENTS.md",
		Long: `Runs one turn in which the model reads the project (README, build files, CI,
existing CLAUDE.md and the like) and writes AGENTS.md at the repository root,
or improves the one there. Writing AGENTS.md is allowed without asking; any
other change asks or is refused as in zero exec. In the app, /init does the
same. FOCUS, when given, is added to the instructions.`,
		Example: `  zero init
  zero init "the test commands and the release steps"`,
		GroupID: groupSetup,
		Args:    cobra.ArbitraryArgs,
		RunE: ran(func(_ *cobra.Command, pos []string) error {
			o.prompt = strings.TrimSpace("/init " + strings.Join(pos, " "))
			if err := finishExec(s, o, nil); err != nil {
				return err
			}
			return execute(s, o)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	registerMode(c, &o.permission)
	o.tools.register(c)
	o.over.register(c)
	return c
}

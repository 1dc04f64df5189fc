package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/headless"
	"github.com/zero-agent/zero/internal/run"
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
same. FOCUS, when given, is added to the instructions.

After the turn, init says on stderr whether it wrote AGENTS.md, updated it or
left it as it was; a turn that ended with no AGENTS.md at all exits 1.`,
		Example: `  zero init
  zero init "the test commands and the release steps"`,
		GroupID: groupSetup,
		Args:    cobra.ArbitraryArgs,
		RunE: ran(func(_ *cobra.Command, pos []string) error {
			o.prompt = strings.TrimSpace("/init " + strings.Join(pos, " "))
			if err := finishExec(s, o, nil); err != nil {
				return err
			}
			root, err := run.Workdir(o.over.workdir)
			if err != nil {
				return err
			}
			path := filepath.Join(root, "AGENTS.md")
			before, readErr := os.ReadFile(path)
			if err := execute(s, o); err != nil {
				return err
			}
			return reportAgentsMD(s, path, before, readErr == nil)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	registerMode(c, &o.permission)
	o.tools.register(c)
	o.over.register(c)
	return c
}

// reportAgentsMD says what the init turn did to AGENTS.md at path
// (before: its content when it existed): wrote, updated or left it; a
// turn that ended with no AGENTS.md at all failed at what init is for.
func reportAgentsMD(s stdio, path string, before []byte, existed bool) error {
	after, err := os.ReadFile(path)
	switch {
	case err != nil:
		return &exitError{ExitFailed, fmt.Errorf("init: %s was not written: the turn ended without writing it (the model's answer is above); run zero init again, with a FOCUS or another --model", path)}
	case !existed:
		fmt.Fprintf(s.err, "zero: wrote %s (%s)\n", path, count(bytes.Count(after, []byte("\n")), "line"))
	case bytes.Equal(before, after):
		fmt.Fprintf(s.err, "zero: %s is unchanged: the model found nothing to improve, or did not write it (its answer is above)\n", path)
	default:
		fmt.Fprintf(s.err, "zero: updated %s (%s)\n", path, count(bytes.Count(after, []byte("\n")), "line"))
	}
	return nil
}

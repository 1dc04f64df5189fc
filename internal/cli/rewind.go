package cli

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sessions"
)

const rewindLong = `Puts a session back to the state before prompt N: the files Zero's tools
and shell commands changed from then on (as recorded in the session's
checkpoints), and the conversation, cut so the next --resume continues
from there. Without --to, lists the session's prompts and what each changed.

A file changed since Zero last wrote it (by you, an editor, another
program) is kept as it is and listed as a conflict (the rewind then exits
1 after restoring the rest); --force restores it anyway. A rewind is itself numbered like a prompt, so rewinding to it
undoes it. Files over the size limit (8 MiB) are not recorded, and .git
is never touched.`

// rewindCmd is `zero sessions rewind ID [--to N]`.
func rewindCmd(s stdio) *cobra.Command {
	var o run.RewindOptions
	c := &cobra.Command{
		Use:   "rewind ID [--to N]",
		Short: "Restore a session's files and conversation to before prompt N",
		Long:  rewindLong,
		Args:  cobra.ExactArgs(1),
		RunE: ran(func(c *cobra.Command, args []string) error {
			if c.Flags().Changed("to") && o.To < 1 {
				return usagef("--to %d: prompts are numbered from 1 (zero sessions rewind %s lists them)", o.To, args[0])
			}
			return runRewind(s, args[0], o)
		}),
	}
	f := c.Flags()
	f.IntVar(&o.To, "to", 0, "the prompt to go back to (the state before it)")
	f.BoolVar(&o.FilesOnly, "files-only", false, "restore the files only, keep the conversation")
	f.BoolVar(&o.ConversationOnly, "conversation-only", false, "cut the conversation only, keep the files")
	f.BoolVar(&o.DryRun, "dry-run", false, "say what would be restored, change nothing")
	f.BoolVar(&o.Force, "force", false, "restore files changed since Zero wrote them too")
	return c
}

func runRewind(s stdio, id string, o run.RewindOptions) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	if o.To == 0 {
		return listPrompts(s, st, id)
	}
	rep, err := run.Rewind(st, id, o)
	var ce *run.ConfigError
	switch {
	case errors.Is(err, sessions.ErrNotFound) || errors.Is(err, sessions.ErrAmbiguous) || errors.As(err, &ce):
		return usagef("%v", err)
	case err != nil && len(rep.Actions) == 0:
		return err
	}
	printRewind(s, o, rep)
	var conflicts *run.ConflictError
	if errors.As(err, &conflicts) {
		return &exitError{code: ExitFailed, err: err} // the rest was restored
	}
	return err
}

// printRewind says what a rewind did, one line a file.
func printRewind(s stdio, o run.RewindOptions, rep run.RewindReport) {
	for _, l := range rep.Lines(o, "--force restores it", "undo: --to %d") {
		fmt.Fprintln(s.out, l)
	}
}

// listPrompts prints the session's numbered prompts.
func listPrompts(s stdio, st *sessions.Store, id string) error {
	full, prompts, err := run.SessionPrompts(st, id)
	if errors.Is(err, sessions.ErrNotFound) || errors.Is(err, sessions.ErrAmbiguous) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tTIME\tFILES\tPROMPT")
	for _, p := range prompts {
		text := oneLine(p.Text, 60)
		if p.Rewind != nil {
			text = fmt.Sprintf("(rewind to %d)", p.Rewind.To)
		}
		seen := map[string]bool{}
		for _, c := range p.Changes {
			seen[c.Path] = true
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\n", p.N, p.Time.Local().Format("15:04:05"), len(seen), text)
	}
	tw.Flush()
	if len(prompts) == 0 {
		fmt.Fprintf(s.err, "session %s has no prompts\n", full)
	}
	return nil
}

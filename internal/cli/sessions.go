package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sessions"
)

func openStore() (*sessions.Store, error) { return run.OpenStore() }

// canonicalDir returns dir with symlinks resolved (run.CanonicalDir).
func canonicalDir(dir string) string { return run.CanonicalDir(dir) }

// sessionsLong is `zero sessions --help`. PROMPTS is
// sessions.Metadata.Turns: the user messages with text the session
// recorded.
const sessionsLong = `Lists this workspace's sessions (every workspace's with --all), most
recently updated first:
  ID            what --resume=ID and --fork ID take
  UPDATED       local time of the session's last event
  PROMPTS       prompts sent in the session: yours, plus any follow-up Zero
                sent the model on its own (e.g. "continue" after a reply cut
                off by the output limit)
  WORKSPACE     (--all only) the folder the session worked in
  FIRST PROMPT  the session's first prompt, cut to one line

One prompt can take many turns: the "turns" in zero exec's summary, in
-o json and in stream-json count model requests, not prompts. A session in
which nothing was sent is not kept.`

// sessionsCmd is `zero sessions [--all]`.
func sessionsCmd(s stdio) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:     "sessions",
		Short:   "List sessions: id, last update, prompts sent, first prompt",
		Long:    sessionsLong,
		GroupID: groupSessions,
		Args:    cobra.NoArgs,
		RunE:    ran(func(*cobra.Command, []string) error { return runSessions(s, all) }),
	}
	c.Flags().BoolVar(&all, "all", false, "list sessions of every workspace, with a WORKSPACE column")
	// `zero sessions list` as `zero agents list`, `zero loop list` and the
	// other groups have it; the same listing and --all.
	list := &cobra.Command{
		Use:   "list",
		Short: "List sessions (as zero sessions does)",
		Long:  sessionsLong,
		Args:  cobra.NoArgs,
		RunE:  ran(func(*cobra.Command, []string) error { return runSessions(s, all) }),
	}
	list.Flags().BoolVar(&all, "all", false, "list sessions of every workspace, with a WORKSPACE column")
	c.AddCommand(list, rewindCmd(s), sessionsTreeCmd(s))
	return c
}

// runSessions lists the sessions of this workspace, or of all.
func runSessions(s stdio, all bool) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	list, err := st.List()
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	wd = canonicalDir(wd)
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	if all {
		fmt.Fprintln(tw, "ID\tUPDATED\tPROMPTS\tWORKSPACE\tFIRST PROMPT")
	} else {
		fmt.Fprintln(tw, "ID\tUPDATED\tPROMPTS\tFIRST PROMPT")
	}
	n := 0
	for _, m := range list {
		if !all && m.Workspace != "" && m.Workspace != wd {
			continue
		}
		n++
		updated := m.Updated.Local().Format(time.DateTime)
		if all {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.ID, updated, m.Turns, workspaceText(m.Workspace), oneLine(m.FirstPrompt, 60))
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", m.ID, updated, m.Turns, oneLine(m.FirstPrompt, 60))
		}
	}
	tw.Flush()
	if n == 0 {
		if all {
			fmt.Fprintf(s.err, "no sessions in %s\n", st.Dir())
		} else {
			fmt.Fprintf(s.err, "no sessions for %s in %s (zero sessions --all lists every workspace)\n", wd, st.Dir())
		}
	}
	return nil
}

// workspaceText is a session's workspace for the WORKSPACE column: the
// home directory as ~, "-" for a session that recorded none.
func workspaceText(ws string) string {
	if ws == "" {
		return "-"
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if ws == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(ws, home+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rest
		}
	}
	return oneLine(ws, 200)
}

// logsCmd is `zero logs`.
func logsCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:     "logs",
		Short:   "Print where this project's session logs are",
		GroupID: groupSessions,
		Args:    cobra.NoArgs,
		RunE:    ran(func(*cobra.Command, []string) error { return runLogs(s) }),
	}
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func runLogs(s stdio) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	wd = canonicalDir(wd)
	fmt.Fprintf(s.out, "sessions directory: %s\n", st.Dir())
	if dir := run.MCPLogDir(st.Dir()); dirExists(dir) {
		fmt.Fprintf(s.out, "MCP server logs (stderr, skipped stdout lines): %s\n", dir)
	}
	sess, err := st.Latest(wd)
	if err != nil {
		fmt.Fprintf(s.out, "no session yet for %s\n", wd)
		return nil
	}
	defer sess.Close()
	fmt.Fprintf(s.out, "latest session for %s: %s\n  %s\n  %s\n", wd, sess.ID(),
		filepath.Join(sess.Dir(), sessions.MetadataFile), sess.EventsPath())
	return nil
}

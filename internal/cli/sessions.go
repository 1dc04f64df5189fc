package cli

import (
	"errors"
	"flag"
	"fmt"
	"github.com/zero-agent/zero/internal/run"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/zero-agent/zero/internal/sessions"
)

func openStore() (*sessions.Store, error) { return run.OpenStore() }

// canonicalDir returns dir with symlinks resolved (run.CanonicalDir).
func canonicalDir(dir string) string { return run.CanonicalDir(dir) }

// sessionsUsage is `zero sessions -h`. PROMPTS is sessions.Metadata.Turns:
// the user messages with text the session recorded.
const sessionsUsage = `Usage: zero sessions [--all]

Lists this workspace's sessions, most recently updated first:
  ID            what --resume=ID and --fork ID take
  UPDATED       local time of the session's last event
  PROMPTS       prompts sent in the session: yours, plus any follow-up Zero
                sent the model on its own (e.g. "continue" after a reply cut
                off by the output limit)
  FIRST PROMPT  the session's first prompt, cut to one line

One prompt can take many turns: the "turns" in zero exec's summary, in
-o json and in stream-json count model requests, not prompts.

Flags:`

// runSessions is `zero sessions [--all]`.
func runSessions(s stdio, args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	fs.SetOutput(s.err)
	all := fs.Bool("all", false, "list sessions of every workspace, not just this one")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), sessionsUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
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
	fmt.Fprintln(tw, "ID\tUPDATED\tPROMPTS\tFIRST PROMPT")
	n := 0
	for _, m := range list {
		if !*all && m.Workspace != "" && m.Workspace != wd {
			continue
		}
		n++
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", m.ID, m.Updated.Local().Format(time.DateTime), m.Turns, oneLine(m.FirstPrompt, 60))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintf(s.err, "no sessions for %s in %s (zero sessions --all lists every workspace)\n", wd, st.Dir())
	}
	return nil
}

func runLogs(s stdio, args []string) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	wd = canonicalDir(wd)
	fmt.Fprintf(s.out, "sessions directory: %s\n", st.Dir())
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

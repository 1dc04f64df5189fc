package cli

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/sessions"
)

// sessionsTreeCmd is `zero sessions tree [ID]`: sessions with their
// sub-agents' sessions under them (metadata parentId), so a child can be
// found and resumed on its own (zero exec --resume=ID).
func sessionsTreeCmd(s stdio) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "tree [ID]",
		Short: "Show sessions with the sub-agent sessions they started (one session's lineage with ID)",
		Long: `Shows each session of this workspace (every workspace's with --all) that
started sub-agents, with their sessions under it: id, agent, job. With ID (or
a unique prefix), the lineage holding that session. A sub-agent's session is an
ordinary session: zero exec --resume=ID "..." continues it on its own.`,
		Args: cobra.MaximumNArgs(1),
		RunE: ran(func(_ *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return runSessionsTree(s, id, all)
		}),
	}
	c.Flags().BoolVar(&all, "all", false, "every workspace's sessions")
	return c
}

func runSessionsTree(s stdio, id string, all bool) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	list, err := st.List()
	if err != nil {
		return err
	}
	byID := map[string]sessions.Metadata{}
	kids := map[string][]sessions.Metadata{}
	for _, m := range list {
		byID[m.ID] = m
		if m.ParentID != "" {
			kids[m.ParentID] = append(kids[m.ParentID], m)
		}
	}
	for _, k := range kids {
		sort.Slice(k, func(i, j int) bool { return k[i].Created.Before(k[j].Created) })
	}
	var roots []sessions.Metadata
	if id != "" {
		m, err := findSession(list, id)
		if err != nil {
			return err
		}
		for m.ParentID != "" && byID[m.ParentID].ID != "" {
			m = byID[m.ParentID]
		}
		roots = append(roots, m)
	} else {
		wd, _ := os.Getwd()
		wd = canonicalDir(wd)
		for _, m := range list {
			if _, known := byID[m.ParentID]; (m.ParentID == "" || !known) && len(kids[m.ID]) > 0 && (all || m.Workspace == wd) {
				roots = append(roots, m)
			}
		}
	}
	if len(roots) == 0 {
		fmt.Fprintln(s.err, "no session here started sub-agents (zero sessions lists the sessions)")
		return nil
	}
	for _, r := range roots {
		fmt.Fprintf(s.out, "%s  %s  %s\n", r.ID, r.Updated.Local().Format(time.DateTime), oneLine(r.FirstPrompt, 60))
		printKids(s, kids, r.ID, "")
	}
	return nil
}

// printKids prints id's sub-agent sessions under it, indented by prefix.
func printKids(s stdio, kids map[string][]sessions.Metadata, id, prefix string) {
	for i, k := range kids[id] {
		branch, next := "├─ ", "│  "
		if i == len(kids[id])-1 {
			branch, next = "└─ ", "   "
		}
		agent := k.Agent
		if agent == "" {
			agent = "sub-agent"
		}
		fmt.Fprintf(s.out, "%s%s%s  %s: %s\n", prefix, branch, k.ID, agent, oneLine(firstNonEmpty(k.Title, k.FirstPrompt), 60))
		printKids(s, kids, k.ID, prefix+next)
	}
}

// findSession is the session id names, exactly or by unique prefix.
func findSession(list []sessions.Metadata, id string) (sessions.Metadata, error) {
	var found []sessions.Metadata
	for _, m := range list {
		if m.ID == id {
			return m, nil
		}
		if strings.HasPrefix(m.ID, id) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return sessions.Metadata{}, usagef("no session %q (zero sessions --all lists them)", id)
	}
	return sessions.Metadata{}, usagef("session prefix %q is ambiguous (%d sessions)", id, len(found))
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

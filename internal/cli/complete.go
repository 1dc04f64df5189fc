package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
)

// Dynamic shell completion (cobra's __complete protocol): the values a
// flag or argument takes that only the user's files know.

// completeSessions completes a session id: this workspace's sessions,
// most recent first, each described by its first prompt.
func completeSessions(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	st, err := openStore()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	list, err := st.List()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	wd, _ := os.Getwd()
	wd = canonicalDir(wd)
	var out []cobra.Completion
	for _, m := range list {
		if m.Workspace != "" && m.Workspace != wd || !strings.HasPrefix(m.ID, toComplete) {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(m.ID, oneLine(m.FirstPrompt, 60)))
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// completeProviders completes a provider profile name.
func completeProviders(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil || len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, p := range cfg.Providers {
		if strings.HasPrefix(p.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(p.Name, string(p.Kind)+" "+p.Model))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

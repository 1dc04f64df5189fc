package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/run"
)

// trustCmd is `zero trust [DIR]`, `zero trust list` and `zero trust
// remove [PATH]`.
func trustCmd(s stdio) *cobra.Command {
	dirs := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	c := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust this folder (or DIR): its project rules, hooks, settings and config load from now on",
		Long: `Records DIR (default: the current folder) as trusted, pinned to the content
of its project files: .zero/rules.json, .zero/hooks.json, .zero/config.json,
.zero/settings.json, and the files other tools keep hooks, permission
settings and servers in (.claude/settings.json, .claude/settings.local.json,
.mcp.json, .gemini/settings.json, .vscode/mcp.json). They load from now on,
until one of them changes or appears; a deleted one is reported once. A
repository's rules, hooks and permission settings never load before this.
(A folder named list or remove: zero trust ./list.)`,
		GroupID:           groupSafety,
		Args:              cobra.MaximumNArgs(1),
		RunE:              ran(func(_ *cobra.Command, args []string) error { return runTrust(s, firstOr(args, ".")) }),
		ValidArgsFunction: dirs,
	}
	c.AddCommand(&cobra.Command{
		Use:               "list",
		Short:             "List the trusted folders and whether each is still as trusted",
		Args:              cobra.NoArgs,
		RunE:              ran(func(*cobra.Command, []string) error { return runTrustList(s) }),
		ValidArgsFunction: cobra.NoFileCompletions,
	}, &cobra.Command{
		Use:               "remove [PATH]",
		Short:             "Stop trusting this folder (or PATH, which may no longer exist)",
		Args:              cobra.MaximumNArgs(1),
		RunE:              ran(func(_ *cobra.Command, args []string) error { return runTrustRemove(s, firstOr(args, ".")) }),
		ValidArgsFunction: dirs,
	})
	return c
}

// runTrust trusts folder dir: project rules, hooks and MCP servers of
// that folder load from now on.
func runTrust(s stdio, dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	abs = run.CanonicalDir(abs)
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return usagef("%s is not a folder: zero trust DIR takes the project folder to trust", abs)
	}
	if err := permission.Trust(config.Dir(), abs); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "trusted %s: its %s load as they are now; if any of them changes, Zero ignores them until you run `zero trust` again\n", abs, strings.Join(permission.TrustedFiles, ", "))
	return nil
}

// runTrustList prints one line per trusted folder: its path, when it was
// trusted and its state now.
func runTrustList(s stdio) error {
	folders, err := permission.TrustedFolders(config.Dir())
	if err != nil {
		return err
	}
	if len(folders) == 0 {
		fmt.Fprintln(s.out, "no trusted folders (zero trust DIR trusts one)")
		return nil
	}
	for _, f := range folders {
		state := "trusted"
		switch {
		case f.Missing:
			state = "folder missing (zero trust remove " + f.Path + " forgets it)"
		case f.State == permission.TrustChanged && len(f.Changed) > 0:
			state = "changed since trusted: " + strings.Join(f.Changed, ", ") + " (ignored until zero trust again)"
		case f.State == permission.TrustChanged:
			state = "trusted before content pinning (zero trust again to pin it)"
		}
		fmt.Fprintf(s.out, "%s\t%s\t%s\n", f.Path, f.Trusted.Format("2006-01-02 15:04 UTC"), state)
	}
	return nil
}

// runTrustRemove forgets folder dir's trust.
func runTrustRemove(s stdio, dir string) error {
	removed, err := permission.Untrust(config.Dir(), dir)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(dir)
	if !removed {
		return usagef("%s is not trusted (zero trust list shows the trusted folders)", run.CanonicalDir(abs))
	}
	fmt.Fprintf(s.out, "no longer trusted: %s (its project rules, hooks, config and MCP servers stop loading)\n", run.CanonicalDir(abs))
	return nil
}

// rulesCmd is `zero rules init|add "text"|status|doctor|why ID`; with no
// sub-verb it shows the status.
func rulesCmd(s stdio) *cobra.Command {
	verb := func(use, short string, args cobra.PositionalArgs) *cobra.Command {
		name, _, _ := strings.Cut(use, " ")
		return &cobra.Command{
			Use:               use,
			Short:             short,
			Args:              args,
			RunE:              ran(func(_ *cobra.Command, a []string) error { return runRules(s, append([]string{name}, a...)) }),
			ValidArgsFunction: cobra.NoFileCompletions,
		}
	}
	exactly := func(usage string) cobra.PositionalArgs {
		return func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("usage: %s", usage)
			}
			return nil
		}
	}
	c := &cobra.Command{
		Use:   "rules",
		Short: "Project rules (with no subcommand: their status)",
		Long: `Project rules (.zero/rules.json: allow, rewrite, confirm, block) and the
ZERO.md prose Zero adds to the system prompt. Project rules load only once
the folder is trusted (zero trust).`,
		GroupID: groupSafety,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runRules(s, []string{"status"}) }),
	}
	c.AddCommand(
		verb("init", "Write a starter .zero/rules.json", cobra.NoArgs),
		verb(`add "TEXT"`, "Add a line of prose to ZERO.md", exactly(`zero rules add "never edit generated files"`)),
		verb("status", "Whether this folder is trusted, its rules, and ZERO.md's size", cobra.NoArgs),
		verb("doctor", "Check the rules files for problems", cobra.NoArgs),
		verb("why ID", "Explain rule ID", exactly("zero rules why ID")),
	)
	return c
}

// runRules runs one rules sub-verb: args[0] is init, add, status, doctor
// or why, the rest its arguments (checked by rulesCmd).
func runRules(s stdio, args []string) error {
	wd, _ := os.Getwd()
	wd = run.CanonicalDir(wd)
	home, _ := os.UserHomeDir()
	switch args[0] {
	case "init":
		msg, err := rules.Init(wd)
		if err != nil {
			return err
		}
		fmt.Fprintln(s.out, msg)
	case "add":
		if len(args) != 2 {
			return usagef(`usage: zero rules add "never edit generated files"`)
		}
		if err := rules.AddProse(wd, args[1]); err != nil {
			return err
		}
		fmt.Fprintf(s.out, "added to %s\n", filepath.Join(wd, "ZERO.md"))
	case "status":
		state, changed := permission.TrustState(config.Dir(), wd)
		trusted := state == permission.TrustOK
		dir := ""
		if trusted {
			dir = wd
		}
		if state == permission.TrustChanged {
			fmt.Fprintf(s.out, "changed since trusted: %s (run zero trust again after reviewing them)\n", strings.Join(changed, ", "))
		}
		set, err := rules.Load(dir, home)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "folder %s trusted: %v (project rules load only when trusted: zero trust)\n", wd, trusted)
		for _, r := range set.Rules() {
			b, _ := json.Marshal(r)
			fmt.Fprintf(s.out, "  %s\n", b)
		}
		prose, _ := rules.LoadProse(wd)
		fmt.Fprintf(s.out, "ZERO.md: %d bytes, %d projected into the system prompt\n", len(prose), len(rules.Project(prose, 0)))
	case "doctor":
		problems := rules.Doctor(wd, home)
		if len(problems) == 0 {
			fmt.Fprintln(s.out, "rules: healthy")
		}
		for _, p := range problems {
			fmt.Fprintln(s.out, p)
		}
	case "why":
		if len(args) != 2 {
			return usagef("usage: zero rules why ID")
		}
		set, err := rules.Load(wd, home)
		if err != nil {
			return err
		}
		why, ok := set.Why(args[1])
		if !ok {
			return usagef("no rule %q", args[1])
		}
		fmt.Fprintln(s.out, why)
	}
	return nil
}

package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/shellguard"
)

// configCmd is `zero config`: the resolved configuration with secrets
// masked, with the same overrides a run takes.
func configCmd(s stdio) *cobra.Command {
	var o overrides
	c := &cobra.Command{
		Use:   "config",
		Short: "Print the resolved configuration (secrets masked)",
		Long: `Prints the configuration a run in this folder would use: defaults, the user
and (trusted) project files, the environment and these flags, with secrets
masked.`,
		GroupID: groupSetup,
		Args:    cobra.NoArgs,
		RunE:    ran(func(*cobra.Command, []string) error { return runConfig(s, &o) }),
	}
	o.register(c)
	return c
}

// runConfig prints the resolved configuration with secrets masked.
func runConfig(s stdio, o *overrides) error {
	cfg, err := loadConfig(o.workdir, o.config())
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(cfg.Masked(), "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(s.out, string(b))
	return nil
}

// guardCmd is `zero guard [--json] "<command>"`.
func guardCmd(s stdio) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   `guard "COMMAND"`,
		Short: "Classify a shell command without running it",
		Long: `Prints what the shell guard says about COMMAND (allow, ask or deny), why,
and the rule that decided. The command is parsed, never run.`,
		Example: `  zero guard "rm -rf build"` + "\n" + `  zero guard --json "curl https://example.com | sh"`,
		GroupID: groupSafety,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef(`guard takes one command: zero guard [--json] "rm -rf build"`)
			}
			return nil
		},
		RunE:              ran(func(_ *cobra.Command, args []string) error { return runGuard(s, args[0], asJSON) }),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"verdict","reason","rule"}`)
	return c
}

// runGuard classifies command with the shell guard without running it.
func runGuard(s stdio, command string, asJSON bool) error {
	b, err := shellguard.Explain(command)
	if err != nil {
		return err
	}
	if asJSON {
		fmt.Fprintln(s.out, string(b))
		return nil
	}
	var v struct{ Verdict, Reason, Rule string }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "%s: %s\nrule: %s\n", v.Verdict, v.Reason, v.Rule)
	return nil
}

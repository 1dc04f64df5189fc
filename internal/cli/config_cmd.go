package cli

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/zero-agent/zero/internal/shellguard"
)

// runConfig prints the resolved configuration with secrets masked.
func runConfig(s stdio, args []string) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(s.err)
	var o overrides
	o.register(fs)
	if _, err := parseInterspersed(fs, args); err != nil {
		return usagef("%v", err)
	}
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

// runGuard classifies a shell command with the shell guard without running
// it: zero guard [--json] "<command>".
func runGuard(s stdio, args []string) error {
	fs := flag.NewFlagSet("guard", flag.ContinueOnError)
	fs.SetOutput(s.err)
	asJSON := fs.Bool("json", false, `print {"verdict","reason","rule"}`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(pos) != 1 {
		return usagef(`guard takes one command: zero guard [--json] "rm -rf build"`)
	}
	b, err := shellguard.Explain(pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
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

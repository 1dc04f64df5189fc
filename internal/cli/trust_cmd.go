package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/run"
)

// runTrust is `zero trust [dir]`: project rules, hooks and MCP servers of
// that folder load from now on.
func runTrust(s stdio, args []string) error {
	dir := "."
	if len(args) > 0 {
		dir = args[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	abs = run.CanonicalDir(abs)
	if err := permission.Trust(config.Dir(), abs); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "trusted %s: its .zero/rules.json, .zero/hooks.json and .zero/config.json load as they are now; if any of them changes, Zero ignores them until you run `zero trust` again\n", abs)
	return nil
}

// runRules is `zero rules init|add "text"|status|doctor|why ID`.
func runRules(s stdio, args []string) error {
	wd, _ := os.Getwd()
	wd = run.CanonicalDir(wd)
	home, _ := os.UserHomeDir()
	if len(args) == 0 {
		args = []string{"status"}
	}
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
	default:
		return usagef("unknown rules command %q (init, add, status, doctor, why)", args[0])
	}
	return nil
}

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/sandbox"
)

// safety is the part of the runtime that decides and audits tool calls:
// the permission engine with the user's (and, in a trusted folder, the
// project's) rules, and the hooks.
type safety struct {
	engine *sandbox.Engine
	hooks  *hookRunner
	// trusted is whether the user trusted this folder (`zero trust`):
	// only then do project rules and hooks load.
	trusted bool
	// guidelines is ZERO.md projected for the system prompt.
	guidelines string
}

// newSafety builds the engine and hooks for a runtime. Project rules and
// hooks are untrusted code that arrived with the repository: they load only
// after `zero trust` (trust is the state loadConfigTrust read for the
// config, so both agree and the trust file is read once), and Zero says so
// when they are present but ignored.
func newSafety(rt *runtime, trust folderTrust, mode string, policy sandbox.Policy) (*safety, error) {
	home, _ := os.UserHomeDir()
	root := rt.ws.Root()
	sf := &safety{trusted: trust.ok()}
	projectDir := ""
	switch {
	case sf.trusted:
		projectDir = root
	case trust.state == sandbox.TrustChanged:
		fmt.Fprintf(rt.s.err, "zero: %s changed since you trusted this folder; project rules, hooks and provider choices are ignored until you review them and run `zero trust` again\n", strings.Join(trust.changed, ", "))
	case exists(filepath.Join(root, ".zero", "rules.json")) || exists(filepath.Join(root, ".zero", "hooks.json")) || len(rt.cfg.ProjectHooks) > 0:
		fmt.Fprintf(rt.s.err, "zero: this folder has project rules or hooks; they are ignored until you run `zero trust` here\n")
	}
	set, err := rules.Load(projectDir, home)
	if err != nil {
		return nil, usagef("rules: %v", err)
	}
	sf.engine, err = sandbox.New(sandbox.Config{Workspace: rt.ws, Home: home, Mode: sandbox.Mode(mode), Rules: set})
	if err != nil {
		return nil, err
	}
	var cfgs []hooks.Config
	if len(rt.cfg.Hooks) > 0 {
		c, err := hooks.Parse(rt.cfg.Hooks)
		if err != nil {
			return nil, usagef("hooks in the user config: %v", err)
		}
		cfgs = append(cfgs, c)
	}
	if sf.trusted {
		if len(rt.cfg.ProjectHooks) > 0 {
			c, err := hooks.Parse(rt.cfg.ProjectHooks)
			if err != nil {
				return nil, usagef("hooks in .zero/config.json: %v", err)
			}
			cfgs = append(cfgs, c)
		}
		c, err := hooks.LoadFile(filepath.Join(root, ".zero", "hooks.json"))
		if err != nil {
			return nil, usagef("%v", err)
		}
		cfgs = append(cfgs, c)
	}
	merged := hooks.Merge(cfgs...)
	if len(merged.BeforeTool)+len(merged.AfterTool)+len(merged.SessionStart)+len(merged.SessionEnd) > 0 {
		sf.hooks = &hookRunner{runner: &hooks.Runner{Config: merged, Dir: root, Env: bashEnv()}}
	}
	if prose, err := rules.LoadProse(root); err == nil && prose != "" {
		sf.guidelines = "Project rules (ZERO.md):\n" + rules.Project(prose, 0)
	}
	return sf, nil
}

// folderTrust is what the trust file says about a workspace (`zero
// trust`): trusted, trusted but changed since (changed names the project
// files that differ), or never trusted. Start-up reads it once
// (loadConfigTrust) and hands it to newSafety.
type folderTrust struct {
	state   sandbox.TrustStatus
	changed []string
}

// readFolderTrust reads the trust state of dir (made absolute, symlinks
// resolved) from the user's trust file.
func readFolderTrust(dir string) folderTrust {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = canonicalDir(abs)
	}
	state, changed := sandbox.TrustState(sandbox.DefaultConfigDir(), dir)
	return folderTrust{state: state, changed: changed}
}

// ok reports whether the folder is trusted as it is now.
func (t folderTrust) ok() bool { return t.state == sandbox.TrustOK }

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

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
	abs = canonicalDir(abs)
	if err := sandbox.Trust(sandbox.DefaultConfigDir(), abs); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "trusted %s: its .zero/rules.json, .zero/hooks.json and .zero/config.json load as they are now; if any of them changes, Zero ignores them until you run `zero trust` again\n", abs)
	return nil
}

// runRules is `zero rules init|add "text"|status|doctor|why ID`.
func runRules(s stdio, args []string) error {
	wd, _ := os.Getwd()
	wd = canonicalDir(wd)
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
		state, changed := sandbox.TrustState(sandbox.DefaultConfigDir(), wd)
		trusted := state == sandbox.TrustOK
		dir := ""
		if trusted {
			dir = wd
		}
		if state == sandbox.TrustChanged {
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

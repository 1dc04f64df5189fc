package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/plugins"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/settings"
	"github.com/zero-agent/zero/internal/workspace"
)

// safety is what decides and audits tool calls for a runtime: the
// permission engine with the user's (and, in a trusted folder, the
// project's) rules and settings, and the hooks.
type safety struct {
	engine *permission.Engine
	hooks  *hooks.Runner
	// trusted is whether the user trusted this folder (`zero trust`):
	// only then do project rules, settings and hooks load.
	trusted bool
}

// ToolFlags are the command line's permission rules (--allowed-tools,
// --disallowed-tools), each value a list of rules.
type ToolFlags struct {
	Allowed, Disallowed []string
}

// newSafety builds the engine and hooks. Project rules, settings and
// hooks are untrusted code that arrived with the repository: they load
// only after `zero trust` (trust is the state LoadConfig read for the
// config, so both agree and the trust file is read once), and Zero says
// so when they are present but ignored.
func newSafety(stderr io.Writer, ws *workspace.Workspace, cfg *config.Config, trust FolderTrust, mode permission.Mode, flags ToolFlags, plug *plugins.Set) (*safety, error) {
	home, _ := os.UserHomeDir()
	root := ws.Root()
	sf := &safety{trusted: trust.OK()}
	reportRemoved(stderr, root, trust)
	projectDir := ""
	switch {
	case sf.trusted:
		projectDir = root
	case trust.State == permission.TrustChanged:
		fmt.Fprintf(stderr, "zero: %s changed since you trusted this folder; project rules, hooks, permission settings and provider choices are ignored until you review them and run `zero trust` again\n", strings.Join(trust.Changed, ", "))
	}
	set, err := rules.Load(projectDir, home)
	if err != nil {
		return nil, configErrorf("rules: %v", err)
	}
	setup, err := LoadSetup(root, home, cfg, sf.trusted, flags, plug)
	if err != nil {
		return nil, err
	}
	for _, w := range setup.Warnings {
		fmt.Fprintln(stderr, "zero: warning:", w)
	}
	if !sf.trusted && trust.State != permission.TrustChanged && (len(setup.Ignored) > 0 || exists(filepath.Join(root, rules.ProjectFile))) {
		fmt.Fprintf(stderr, "zero: this folder has project rules, hooks or permission settings (%s); they are ignored until you run `zero trust` here\n", strings.Join(append(setup.Ignored, ignoredRules(root)...), ", "))
	}
	sf.engine, err = permission.New(permission.Config{Workspace: ws, Home: home, ConfigDir: config.Dir(), Mode: mode, Rules: set, ToolRules: setup.Rules, Checkpoints: checkpointsOn()})
	if err != nil {
		return nil, err
	}
	if setup.Hooks.Len() > 0 {
		sf.hooks = &hooks.Runner{Config: setup.Hooks, Dir: root, Env: bashEnv()}
	}
	return sf, nil
}

func ignoredRules(root string) []string {
	if exists(filepath.Join(root, rules.ProjectFile)) {
		return []string{rules.ProjectFile}
	}
	return nil
}

// Setup is the hooks and permission rules of every settings file and
// flag, as LoadSetup found them.
type Setup struct {
	Hooks hooks.Config
	Rules *permission.ToolRules
	// Loaded are the files (and config keys) hooks or rules came from, in
	// order; Ignored the project files an untrusted folder left out.
	Loaded, Ignored []string
	Warnings        []string
}

// LoadSetup reads hooks and permission rules in order: the user's
// (~/.claude/settings.json, Zero's settings.json, the config's `hooks`),
// then, in a trusted folder only, the project's (.claude/settings.json,
// .claude/settings.local.json, .zero/settings.json, .zero/config.json's
// `hooks`, .zero/hooks.json), then the flags. The enabled plugins' hooks
// (plug) come after the user's and before the project's: the user
// installed and enabled them. Hooks of every file run,
// in that order; for rules, deny beats ask beats allow wherever written
// (permission/toolrules.go). A file that does not parse is a ConfigError
// naming it; a rule or hook Zero cannot use is a warning.
func LoadSetup(root, home string, cfg *config.Config, trusted bool, flags ToolFlags, plug *plugins.Set) (*Setup, error) {
	s := &Setup{Rules: &permission.ToolRules{}}
	var hcs []hooks.Config
	addHooks := func(raw []byte, source string, wrapped bool) error {
		parse := hooks.ParseValue
		if wrapped {
			parse = func(b []byte, src string) (hooks.Config, []string, error) { return hooks.Parse(b, src) }
		}
		c, warns, err := parse(raw, source)
		if err != nil {
			return configErrorf("hooks: %v", err)
		}
		s.Warnings = append(s.Warnings, warns...)
		hcs = append(hcs, c)
		return nil
	}
	for _, p := range settings.Places(root, home, config.Dir()) {
		if p.Project {
			continue
		}
		if err := s.readSettings(p, root, trusted, addHooks); err != nil {
			return nil, err
		}
	}
	if cfg != nil && len(cfg.Hooks) > 0 {
		src := filepath.Join(config.Dir(), "config.json") + " (hooks)"
		s.Loaded = append(s.Loaded, src)
		if err := addHooks(cfg.Hooks, src, false); err != nil {
			return nil, err
		}
	}
	pc, sources, warns := plug.Hooks()
	s.Warnings = append(s.Warnings, warns...)
	if pc.Len() > 0 {
		s.Loaded = append(s.Loaded, sources...)
		hcs = append(hcs, pc)
	}
	for _, p := range settings.Places(root, home, config.Dir()) {
		if !p.Project {
			continue
		}
		if err := s.readSettings(p, root, trusted, addHooks); err != nil {
			return nil, err
		}
	}
	if err := s.legacyProject(root, cfg, trusted, addHooks); err != nil {
		return nil, err
	}
	for _, l := range []struct {
		list, flag string
		vals       []string
	}{{"deny", "--disallowed-tools", flags.Disallowed}, {"allow", "--allowed-tools", flags.Allowed}} {
		for _, v := range l.vals {
			for _, e := range s.Rules.Add(l.list, permission.SplitRuleList(v), permission.OriginFlag, l.flag) {
				return nil, configErrorf("%v", strings.TrimSuffix(e.Error(), "; the rule is ignored"))
			}
		}
	}
	s.Hooks = hooks.Merge(hcs...)
	return s, nil
}

// readSettings adds one settings file's hooks and rules (a project file
// only in a trusted folder; otherwise it is listed as ignored).
func (s *Setup) readSettings(p settings.Place, root string, trusted bool, addHooks func([]byte, string, bool) error) error {
	f, ok, err := settings.Read(p)
	if p.Project && !trusted {
		// an untrusted file is not the user's to fix: a broken one is
		// ignored like a sound one
		if err != nil || ok && !f.Empty() {
			s.Ignored = append(s.Ignored, relTo(root, p.Path))
		}
		return nil
	}
	if err != nil {
		return configErrorf("settings: %v", err)
	}
	for _, u := range f.Unapplied {
		s.Warnings = append(s.Warnings, p.Path+": "+u)
	}
	if !ok || f.Empty() {
		return nil
	}
	s.Loaded = append(s.Loaded, p.Path)
	if len(f.Hooks) > 0 {
		if err := addHooks(f.Hooks, p.Path, false); err != nil {
			return err
		}
	}
	origin := permission.OriginUser
	if p.Project {
		origin = permission.OriginProject
	}
	for _, l := range []struct {
		name string
		raw  []string
	}{{"deny", f.Deny}, {"ask", f.Ask}, {"allow", f.Allow}} {
		for _, e := range s.Rules.Add(l.name, l.raw, origin, p.Path) {
			s.Warnings = append(s.Warnings, e.Error())
		}
	}
	return nil
}

// legacyProject adds the project hooks of Zero's earlier places: the
// `hooks` key of .zero/config.json and .zero/hooks.json (either shape).
func (s *Setup) legacyProject(root string, cfg *config.Config, trusted bool, add func([]byte, string, bool) error) error {
	if root == "" {
		return nil
	}
	file := filepath.Join(root, ".zero", "hooks.json")
	if !trusted {
		if len(cfg.ProjectHooks) > 0 {
			s.Ignored = append(s.Ignored, ".zero/config.json (hooks)")
		}
		if exists(file) {
			s.Ignored = append(s.Ignored, ".zero/hooks.json")
		}
		return nil
	}
	if len(cfg.ProjectHooks) > 0 {
		s.Loaded = append(s.Loaded, config.ProjectPath(root)+" (hooks)")
		if err := add(cfg.ProjectHooks, config.ProjectPath(root)+" (hooks)", false); err != nil {
			return err
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return configErrorf("hooks: %v", err)
	}
	s.Loaded = append(s.Loaded, file)
	return add(b, file, true)
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// SetupReport is what `zero hooks list|test` show for a folder: the
// setup a session there would load, and the folder's trust.
type SetupReport struct {
	Root  string
	Trust FolderTrust
	*Setup
}

// ReadSetup reads the hooks and permission settings a session in dir
// would load ("" is the current directory), without a provider.
func ReadSetup(dir string) (*SetupReport, error) {
	root, err := Workdir(dir)
	if err != nil {
		return nil, err
	}
	cfg, trust, err := LoadConfig(root, config.Overrides{})
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	s, err := LoadSetup(root, home, cfg, trust.OK(), ToolFlags{}, LoadPlugins())
	if err != nil {
		return nil, err
	}
	return &SetupReport{Root: root, Trust: trust, Setup: s}, nil
}

// Runner is a hook runner for the report's hooks, as a session runs them.
func (r *SetupReport) Runner() *hooks.Runner {
	return &hooks.Runner{Config: r.Hooks, Dir: r.Root, Env: bashEnv()}
}

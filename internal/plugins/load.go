package plugins

import (
	"fmt"
	"os"

	"mvdan.cc/sh/v3/syntax"

	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/skills"
)

// Status is an installed plugin's state on disk.
type Status string

// Statuses.
const (
	StatusOK       Status = "ok"
	StatusModified Status = "modified" // its tree's hash is not the pinned one
	StatusMissing  Status = "missing"  // its folder is gone
	StatusBroken   Status = "broken"   // its manifest does not parse
)

// Installed is one plugin of the lock file, checked.
type Installed struct {
	Name  string
	Entry Entry
	// Plugin is nil when the folder is missing or broken.
	Plugin *Plugin
	Status Status
	// Hash is the tree's hash now (for a modified plugin).
	Hash string
	// Problem says what is wrong when Status is not ok.
	Problem string
}

// Active: enabled and unmodified, so it loads.
func (i Installed) Active() bool { return i.Entry.Enabled && i.Status == StatusOK }

// Set is every installed plugin, in name order, with warnings about the
// enabled ones that do not load.
type Set struct {
	Plugins  []Installed
	Warnings []string
}

// Load reads the lock file and checks each installed plugin: a folder
// whose tree no longer has the pinned hash (edited, or a file added,
// after install) is refused with a warning; so is a missing or broken
// one. A lock file that does not parse is one warning and no plugins.
func (s Store) Load() *Set {
	set := &Set{}
	l, err := s.ReadLock()
	if err != nil {
		set.Warnings = append(set.Warnings, err.Error())
		return set
	}
	for _, name := range sortedNames(l.Plugins) {
		in := s.check(name, l.Plugins[name])
		if in.Entry.Enabled && in.Status != StatusOK {
			set.Warnings = append(set.Warnings, fmt.Sprintf("plugin %s not loaded: %s", name, in.Problem))
		}
		set.Plugins = append(set.Plugins, in)
	}
	return set
}

// check verifies one installed plugin against its lock entry.
func (s Store) check(name string, e Entry) Installed {
	in := Installed{Name: name, Entry: e, Status: StatusOK}
	dir := s.PluginDir(name)
	if _, err := os.Stat(dir); err != nil {
		in.Status, in.Problem = StatusMissing, fmt.Sprintf("%s is gone (zero plugin remove %s, then add it again)", dir, name)
		return in
	}
	hash, err := TreeHash(dir)
	if err != nil {
		in.Status, in.Problem = StatusBroken, err.Error()
		return in
	}
	in.Hash = hash
	if hash != e.Hash {
		in.Status = StatusModified
		in.Problem = fmt.Sprintf("%s changed since it was installed (its files hash to %s, the lock file pins %s); reinstall it to trust the new files: zero plugin remove %s && zero plugin add %s", dir, short(hash), short(e.Hash), name, e.Reinstall(name))
		return in
	}
	p, err := Open(dir, name)
	if err != nil {
		in.Status, in.Problem = StatusBroken, err.Error()
		return in
	}
	p.DataDir = s.DataDir(name)
	in.Plugin = p
	return in
}

// Reinstall is what `zero plugin add` takes to install the plugin name
// of e again: NAME@MARKETPLACE, or its source (URL#REF for a ref),
// quoted for a shell where it needs to be.
func (e Entry) Reinstall(name string) string {
	arg := e.Source
	switch {
	case e.Marketplace != "":
		arg = name + "@" + e.Marketplace
	case e.Ref != "":
		arg = e.Source + "#" + e.Ref
	}
	// quoted for the shell the hint is pasted into (a path with a space)
	if q, err := syntax.Quote(arg, syntax.LangBash); err == nil {
		return q
	}
	return arg
}

func short(h string) string {
	if len(h) > len("sha256:")+12 {
		return h[:len("sha256:")+12]
	}
	return h
}

// Get is the installed plugin called name.
func (s *Set) Get(name string) (Installed, bool) {
	for _, in := range s.Plugins {
		if in.Name == name {
			return in, true
		}
	}
	return Installed{}, false
}

// Active are the plugins that load: enabled and unmodified.
func (s *Set) Active() []*Plugin {
	if s == nil {
		return nil
	}
	var out []*Plugin
	for _, in := range s.Plugins {
		if in.Active() {
			out = append(out, in.Plugin)
		}
	}
	return out
}

// Namespaces are the active plugins' skills, commands and agent
// definitions, for skills.Options.Plugins.
func (s *Set) Namespaces() []skills.Namespace {
	if s == nil {
		return nil
	}
	var out []skills.Namespace
	for _, p := range s.Active() {
		out = append(out, skills.Namespace{Prefix: p.Name, Skills: p.SkillDirs(), Commands: p.CommandPaths(), Agents: p.AgentPaths()})
	}
	return out
}

// Hooks are the active plugins' hooks, in name order, with the files
// they came from; a plugin whose hooks do not parse is a warning and
// brings none.
func (s *Set) Hooks() (c hooks.Config, sources, warns []string) {
	if s == nil {
		return nil, nil, nil
	}
	var cs []hooks.Config
	for _, p := range s.Active() {
		hc, w, err := p.Hooks()
		if hc.Len() > 0 {
			p.makeDataDir()
		}
		if err != nil {
			warns = append(warns, fmt.Sprintf("plugin %s: its hooks are not loaded: %v", p.Name, err))
			continue
		}
		warns = append(warns, w...)
		if hc.Len() > 0 {
			cs = append(cs, hc)
			sources = append(sources, "plugin "+p.Name)
		}
	}
	return hooks.Merge(cs...), sources, warns
}

// MCPServers are the active plugins' MCP servers; a plugin whose MCP
// file does not parse is a warning and brings none.
func (s *Set) MCPServers(lookup func(string) (string, bool)) ([]mcpconfig.Server, []string) {
	if s == nil {
		return nil, nil
	}
	var out []mcpconfig.Server
	var warns []string
	for _, p := range s.Active() {
		ss, skipped, w, err := p.MCPServers(lookup)
		if err != nil {
			warns = append(warns, fmt.Sprintf("plugin %s: its MCP servers are not loaded: %v", p.Name, err))
			continue
		}
		if len(ss) > 0 {
			p.makeDataDir()
		}
		warns = append(append(warns, skipped...), w...)
		out = append(out, ss...)
	}
	return out, warns
}

// makeDataDir makes the plugin's state folder, so a hook or server that
// writes there finds it.
func (p *Plugin) makeDataDir() {
	if p.DataDir != "" {
		_ = os.MkdirAll(p.DataDir, 0o700)
	}
}

package plugins

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/subagents"
)

// Plugin is a plugin's folder and manifest.
type Plugin struct {
	Manifest
	// Root is the plugin's folder (${CLAUDE_PLUGIN_ROOT}).
	Root string
	// DataDir is the folder for the plugin's own state
	// (${CLAUDE_PLUGIN_DATA}): outside Root, whose files are pinned by
	// hash, so a plugin that keeps a cache keeps loading. Made when a
	// hook or server of the plugin is loaded.
	DataDir string
	// NoManifest: the folder has no plugin.json; the name is the
	// folder's (Claude Code allows it).
	NoManifest bool
}

// Default component places, relative to a plugin's root.
const (
	SkillsDir   = "skills"
	CommandsDir = "commands"
	AgentsDir   = "agents"
	HooksFile   = "hooks/hooks.json"
	MCPFile     = ".mcp.json"
)

// Open reads the plugin at root; fallback names it when it has no
// manifest. A manifest that does not parse is an error naming the file.
func Open(root, fallback string) (*Plugin, error) {
	mp := filepath.Join(root, filepath.FromSlash(ManifestPath))
	data, err := os.ReadFile(mp)
	if errors.Is(err, fs.ErrNotExist) {
		p := &Plugin{Root: root, NoManifest: true, Manifest: Manifest{Name: strings.TrimSuffix(fallback, ".git")}}
		if !p.hasParts() {
			return nil, fmt.Errorf("%s is not a plugin: no %s and none of skills/, commands/, agents/, %s, %s", fallback, ManifestPath, HooksFile, MCPFile)
		}
		if !NamePattern.MatchString(p.Name) {
			return nil, fmt.Errorf("%s has no %s and its folder name %q is not a usable plugin name: add a manifest with \"name\"", fallback, ManifestPath, p.Name)
		}
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", mp, err)
	}
	return &Plugin{Manifest: m, Root: root}, nil
}

func (p *Plugin) hasParts() bool {
	for _, f := range []string{SkillsDir, CommandsDir, AgentsDir, HooksFile, MCPFile} {
		if exists(filepath.Join(p.Root, f)) {
			return true
		}
	}
	return false
}

// places are the default folder (or file) and the manifest's own paths
// that exist, as absolute paths, without repeats.
func (p *Plugin) places(def string, extra []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, rel := range append([]string{def}, extra...) {
		abs := filepath.Join(p.Root, filepath.FromSlash(rel))
		if !seen[abs] && exists(abs) {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out
}

// SkillDirs are the folders holding the plugin's skill folders.
func (p *Plugin) SkillDirs() []string { return p.places(SkillsDir, p.Skills) }

// CommandPaths are the plugin's command folders and files.
func (p *Plugin) CommandPaths() []string { return p.places(CommandsDir, p.Commands) }

// AgentPaths are the plugin's agent folders and files.
func (p *Plugin) AgentPaths() []string { return p.places(AgentsDir, p.Agents) }

// Hooks reads the plugin's hooks (hooks/hooks.json, the manifest's
// hooks file, the manifest's inline hooks), with ${CLAUDE_PLUGIN_ROOT}
// replaced by its folder in each command and set in the hook's
// environment. Source says "plugin NAME" and the file.
func (p *Plugin) Hooks() (hooks.Config, []string, error) {
	var cs []hooks.Config
	var warns []string
	add := func(data []byte, file string) error {
		c, w, err := hooks.Parse(data, "plugin "+p.Name+": "+file)
		if err != nil {
			return err
		}
		warns = append(warns, w...)
		cs = append(cs, c)
		return nil
	}
	var extra []string
	if p.Manifest.Hooks != "" {
		extra = []string{p.Manifest.Hooks}
	}
	for _, f := range p.places(HooksFile, extra) {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		if err := add(data, f); err != nil {
			return nil, nil, err
		}
	}
	if p.HooksInline != nil {
		if err := add(p.HooksInline, filepath.Join(p.Root, filepath.FromSlash(ManifestPath))+" (hooks)"); err != nil {
			return nil, nil, err
		}
	}
	c := hooks.Merge(cs...)
	for ev, hs := range c {
		for i := range hs {
			hs[i].Command = p.expand(hs[i].Command)
			hs[i].Env = append(hs[i].Env, "CLAUDE_PLUGIN_ROOT="+p.Root)
			if p.DataDir != "" {
				hs[i].Env = append(hs[i].Env, "CLAUDE_PLUGIN_DATA="+p.DataDir)
			}
		}
		c[ev] = hs
	}
	return c, warns, nil
}

// expand replaces the plugin's variables in a hook command.
func (p *Plugin) expand(s string) string {
	s = ExpandVar(s, "CLAUDE_PLUGIN_ROOT", p.Root)
	if p.DataDir != "" {
		s = ExpandVar(s, "CLAUDE_PLUGIN_DATA", p.DataDir)
	}
	return s
}

// ExpandVar replaces ${NAME} (and $NAME followed by a character that
// cannot be in a name) with value.
func ExpandVar(s, name, value string) string {
	s = strings.ReplaceAll(s, "${"+name+"}", value)
	bare := "$" + name
	var b strings.Builder
	for {
		i := strings.Index(s, bare)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		rest := s[i+len(bare):]
		b.WriteString(s[:i])
		if rest != "" && isNameChar(rest[0]) {
			b.WriteString(bare)
		} else {
			b.WriteString(value)
		}
		s = rest
	}
}

func isNameChar(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// MCPServers reads the plugin's MCP servers (.mcp.json, the manifest's
// file, the manifest's inline mcpServers), named
// plugin_<plugin>_<server>, with ${CLAUDE_PLUGIN_ROOT} and the
// environment's variables (lookup) expanded. Entries Zero cannot use are
// in skipped (mcpconfig.PluginServers).
func (p *Plugin) MCPServers(lookup func(string) (string, bool)) (servers []mcpconfig.Server, skipped, warns []string, err error) {
	var files []string
	var extra []string
	if p.Manifest.MCPServers != "" {
		extra = []string{p.Manifest.MCPServers}
	}
	files = p.places(MCPFile, extra)
	if p.MCPInline {
		files = append(files, filepath.Join(p.Root, filepath.FromSlash(ManifestPath)))
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, nil, err
		}
		ss, sk, w, err := mcpconfig.PluginServers(mcpconfig.Plugin{Name: p.Name, Root: p.Root, DataDir: p.DataDir, Path: f, Data: data}, lookup)
		if err != nil {
			return nil, nil, nil, err
		}
		skipped, warns = append(skipped, sk...), append(warns, w...)
		for _, s := range ss {
			if !seen[s.Name] {
				seen[s.Name] = true
				servers = append(servers, s)
			}
		}
	}
	return servers, skipped, warns, nil
}

// Parts is what a plugin brings, by name, for `zero plugin info` and
// `zero plugin add`: what the model may be steered by (skills, commands,
// agents) and what runs programs (hooks, MCP servers).
type Parts struct {
	Skills, Commands, Agents []string
	// Hooks are "Event [matcher]: command" lines.
	Hooks []string
	// MCP are "name: command args" or "name: url" lines.
	MCP []string
	// Problems are parts that could not be read.
	Problems []string
	// Unread is set when a hooks or MCP file, or an MCP entry, could
	// not be read: what the plugin would run is not known, so it counts
	// as running.
	Unread bool
}

// Runs reports parts that run programs of the plugin's when enabled.
func (pt Parts) Runs() bool { return pt.Unread || len(pt.Hooks)+len(pt.MCP) > 0 }

// Parts lists what p brings.
func (p *Plugin) Parts() Parts {
	var pt Parts
	for _, d := range p.SkillDirs() {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if exists(filepath.Join(d, e.Name(), "SKILL.md")) {
				pt.Skills = append(pt.Skills, p.Name+":"+e.Name())
			}
		}
	}
	pt.Commands = mdNames(p.CommandPaths(), p.Name)
	agents := subagents.Discover(skills.Options{Plugins: []skills.Namespace{{Prefix: p.Name, Agents: p.AgentPaths()}}})
	for _, d := range agents.Agents[len(subagents.Builtins):] {
		pt.Agents = append(pt.Agents, d.Name)
	}
	pt.Problems = append(pt.Problems, agents.Notes...)
	hc, _, err := p.Hooks()
	if err != nil {
		pt.Problems, pt.Unread = append(pt.Problems, err.Error()), true
	}
	for _, ev := range hooks.Events {
		for _, h := range hc[ev] {
			line := string(ev)
			if h.Matcher != "" {
				line += " [" + h.Matcher + "]"
			}
			pt.Hooks = append(pt.Hooks, line+": "+h.Command)
		}
	}
	servers, skipped, warns, err := p.MCPServers(os.LookupEnv)
	if err != nil {
		pt.Problems, pt.Unread = append(pt.Problems, err.Error()), true
	}
	// an unset variable or an ignored key: shown, the server still known
	pt.Problems = append(pt.Problems, warns...)
	if len(skipped) > 0 {
		// an entry Zero cannot read runs something not known
		pt.Problems, pt.Unread = append(pt.Problems, skipped...), true
	}
	for _, s := range servers {
		what := s.URL
		if s.Transport == mcpconfig.Stdio {
			what = strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
		}
		pt.MCP = append(pt.MCP, fmt.Sprintf("%s (%s): %s", s.Name, s.Transport, what))
	}
	return pt
}

// mdNames are the names of the .md (and .toml) files under paths,
// prefix:NAME, a sub-folder's with a colon.
func mdNames(paths []string, prefix string) []string {
	var out []string
	for _, root := range paths {
		base := root
		if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
			base = filepath.Dir(root)
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (filepath.Ext(p) != ".md" && filepath.Ext(p) != ".toml") {
				return nil
			}
			rel, _ := filepath.Rel(base, p)
			rel = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
			out = append(out, prefix+":"+strings.ReplaceAll(rel, "/", ":"))
			return nil
		})
	}
	sort.Strings(out)
	return out
}

package mcpconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Origins, as `zero mcp list` shows them, highest precedence first.
const (
	OriginClaudeLocal   = "claude local"   // ~/.claude.json projects[WORKSPACE].mcpServers
	OriginProject       = "project"        // WORKSPACE/.mcp.json
	OriginZero          = "zero"           // CONFIGDIR/mcp.json
	OriginClaudeUser    = "claude user"    // ~/.claude.json mcpServers
	OriginClaudeDesktop = "claude desktop" // claude_desktop_config.json
	OriginCodex         = "codex"          // ~/.codex/config.toml
	OriginGeminiProject = "gemini project" // WORKSPACE/.gemini/settings.json
	OriginGeminiUser    = "gemini user"    // ~/.gemini/settings.json
	OriginVSCode        = "vscode"         // WORKSPACE/.vscode/mcp.json
)

// NotTrusted is the reason a project's servers are not loaded.
const NotTrusted = "project not trusted: run `zero trust`"

// UserFileName is Zero's own MCP file, in the config dir.
const UserFileName = "mcp.json"

// Options says where to look. Nothing is read from the real home or
// environment unless the caller passes them.
type Options struct {
	// Home is the user's home directory (other tools' files live there).
	Home string
	// ConfigDir is Zero's config dir (config.Dir()), holding mcp.json.
	ConfigDir string
	// Workspace is the absolute project folder ("" reads no project
	// file and no Claude local scope).
	Workspace string
	// Trusted is whether the user trusted Workspace (`zero trust`):
	// project files that start programs load only then.
	Trusted bool
	// LookupEnv expands ${VAR}; nil expands every variable to "" (its
	// default, if any).
	LookupEnv func(string) (string, bool)
	// GOOS picks Claude Desktop's path; "" is runtime.GOOS.
	GOOS string
	// Plugins are the enabled plugins' servers (PluginServers), after
	// every file: their names are their own (plugin_<plugin>_<server>),
	// and Zero's file may still disable one.
	Plugins []Server
}

// Loaded is every server Load found.
type Loaded struct {
	// Servers is the server of each name from the highest source, in
	// precedence order, then file order.
	Servers []Server
	// Shadowed are entries whose name a higher source also defines: not
	// used, listed so the user sees why their entry has no effect.
	Shadowed []Server
	// Skipped are entries not loaded, with why.
	Skipped []Skipped
	// Warnings are problems worth telling the user (a file that does not
	// parse, a variable not set), each naming its file.
	Warnings []string
	// Unreadable are the files that could not be read or parsed (each
	// also a warning): none of their servers loaded.
	Unreadable []string
}

// Skipped is an entry that was found but not loaded (a project not
// trusted, an entry Zero cannot use). It is not repeated in Warnings.
type Skipped struct {
	Name, Origin string
	// OriginPath is the file, with ":line:col" of the entry when known.
	OriginPath string
	Reason     string
}

// source is one file Load reads.
type source struct {
	origin, path string
	// project files load only in a trusted workspace.
	project bool
	read    func(path string, data []byte) (fileResult, error)
}

// fileResult is what one source file holds.
type fileResult struct {
	servers []Server
	skipped []Skipped
	warns   []string
	// overrides are Zero's entries that name no server.
	overrides []override
}

// Sources lists the files Load reads for opts, highest precedence
// first: Claude Code's local scope beats the project's .mcp.json, which
// beats the user's files (Claude Code's own order,
// https://docs.claude.com/en/docs/claude-code/mcp#scope-hierarchy-and-precedence);
// among user files Zero's own comes first, then the other tools' in the
// order of how likely the user still edits them; the project's Gemini
// and VS Code files come last, as another tool's project files.
func (o Options) sources() []source {
	claudeJSON := filepath.Join(o.Home, ".claude.json")
	codexHome := filepath.Join(o.Home, ".codex")
	if v, ok := o.lookup("CODEX_HOME"); ok && v != "" {
		codexHome = v // https://github.com/openai/codex/blob/main/docs/config.md
	}
	var out []source
	if o.Workspace != "" {
		out = append(out,
			source{OriginClaudeLocal, claudeJSON, false, mcpServersAt(shapeClaude, "projects", o.Workspace, "mcpServers")},
			source{OriginProject, filepath.Join(o.Workspace, ".mcp.json"), true, mcpServersAt(shapeClaude, "mcpServers")},
		)
	}
	out = append(out,
		source{OriginZero, filepath.Join(o.ConfigDir, UserFileName), false, mcpServersAt(shapeZero, "mcpServers")},
		source{OriginClaudeUser, claudeJSON, false, mcpServersAt(shapeClaude, "mcpServers")},
		source{OriginClaudeDesktop, o.desktopPath(), false, mcpServersAt(shapeClaude, "mcpServers")},
		source{OriginCodex, filepath.Join(codexHome, "config.toml"), false, codexSource},
	)
	if o.Workspace != "" {
		out = append(out, source{OriginGeminiProject, filepath.Join(o.Workspace, ".gemini", "settings.json"), true, mcpServersAt(shapeGemini, "mcpServers")})
	}
	out = append(out, source{OriginGeminiUser, filepath.Join(o.Home, ".gemini", "settings.json"), false, mcpServersAt(shapeGemini, "mcpServers")})
	if o.Workspace != "" {
		out = append(out, source{OriginVSCode, filepath.Join(o.Workspace, ".vscode", "mcp.json"), true, mcpServersAt(shapeVSCode, "servers")})
	}
	return out
}

// desktopPath is Claude Desktop's config file
// (https://modelcontextprotocol.io/quickstart/user).
func (o Options) desktopPath() string {
	goos := o.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	switch goos {
	case "darwin":
		return filepath.Join(o.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	case "windows":
		return filepath.Join(o.Home, "AppData", "Roaming", "Claude", "claude_desktop_config.json")
	}
	return filepath.Join(o.Home, ".config", "Claude", "claude_desktop_config.json")
}

func (o Options) lookup(name string) (string, bool) {
	if o.LookupEnv == nil {
		return "", false
	}
	return o.LookupEnv(name)
}

// Load reads every source and merges them: the same name in two sources
// is the higher one's. It never fails: a file that cannot be read or
// parsed is a warning naming the file and line, and the other sources
// still load. Entries of Zero's file that name no server (no command,
// no url: what `zero mcp disable` writes for another tool's server) are
// applied to the server of that name whatever its source; so is the
// "enabled" of a Zero entry a higher source shadows. Variables are
// expanded in every source's entries, also Codex's and Claude Desktop's,
// which do not expand them themselves.
func Load(o Options) Loaded {
	var l Loaded
	var over overrides
	seen := map[string]bool{}
	for _, src := range o.sources() {
		r, err := readSource(src)
		l.Warnings = append(l.Warnings, r.warns...)
		if err != nil {
			// ~/.claude.json is two sources (local and user scope):
			// one file, said once
			if !slices.Contains(l.Unreadable, src.path) {
				l.Warnings = append(l.Warnings, err.Error())
				l.Unreadable = append(l.Unreadable, src.path)
			}
			continue
		}
		over = append(over, r.overrides...)
		for _, sk := range r.skipped {
			sk.Origin = src.origin
			l.Skipped = append(l.Skipped, sk)
		}
		for _, s := range r.servers {
			s.Origin, s.OriginPath = src.origin, src.path
			if src.project && !o.Trusted {
				l.Skipped = append(l.Skipped, Skipped{Name: s.Name, Origin: s.Origin, OriginPath: s.OriginPath, Reason: NotTrusted})
				continue
			}
			o.expand(&s, src.origin, &l)
			if seen[s.Name] {
				l.Shadowed = append(l.Shadowed, s)
				continue
			}
			seen[s.Name] = true
			l.Servers = append(l.Servers, s)
		}
	}
	for _, s := range o.Plugins {
		if seen[s.Name] {
			l.Shadowed = append(l.Shadowed, s)
			continue
		}
		seen[s.Name] = true
		l.Servers = append(l.Servers, s)
	}
	over.apply(&l)
	return l
}

// readSource reads one source; a missing file has no servers.
func readSource(src source) (fileResult, error) {
	data, err := os.ReadFile(src.path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrInvalid) {
		return fileResult{}, nil
	}
	if err != nil {
		return fileResult{}, fmt.Errorf("%s: %w", src.path, err)
	}
	return src.read(src.path, data)
}

// expand expands s's variables as its origin's tool does, warning once
// for the variables not set.
func (o Options) expand(s *Server, origin string, l *Loaded) {
	x := &expander{lookup: o.lookup, workspace: o.Workspace, home: o.Home}
	switch origin {
	case OriginGeminiUser, OriginGeminiProject:
		x.bare = true
	case OriginVSCode:
		x.vscode = true
	}
	x.server(s)
	if w := x.missingWarning(*s); w != "" {
		l.Warnings = append(l.Warnings, w)
	}
}

// mcpServersAt reads the server map found under the keys path of a JSON
// file (e.g. "mcpServers", or "projects", DIR, "mcpServers").
func mcpServersAt(sh shape, path ...string) func(string, []byte) (fileResult, error) {
	return func(file string, data []byte) (fileResult, error) {
		doc, err := parseJSONDoc(file, data, sh == shapeGemini || sh == shapeVSCode)
		if err != nil {
			return fileResult{}, err
		}
		m, err := doc.walk(path)
		if m == nil || err != nil {
			return fileResult{}, err
		}
		entries, err := doc.subMembers(m)
		if err != nil {
			return fileResult{}, err
		}
		return doc.servers(entries, sh), nil
	}
}

// walk follows path from the top of doc to a member, or nil when a key
// is missing.
func (d *jsonDoc) walk(path []string) (*member, error) {
	m := d.member(path[0])
	for _, key := range path[1:] {
		if m == nil {
			return nil, nil
		}
		ms, err := d.subMembers(m)
		if err != nil {
			return nil, err
		}
		m = nil
		for i := range ms {
			if ms[i].Key == key {
				m = &ms[i]
			}
		}
	}
	return m, nil
}

// servers turns the entries of a server map into Servers; entries that
// cannot be used are skipped with the reason and their line.
func (d *jsonDoc) servers(entries []member, sh shape) fileResult {
	var r fileResult
	for _, m := range entries {
		if sh == shapeZero && isOverride(m.Value) {
			ov, w, err := parseOverride(d, m)
			r.warns = append(r.warns, w...)
			if err == nil {
				r.overrides = append(r.overrides, ov)
				continue
			}
			r.skipped = append(r.skipped, Skipped{Name: m.Key, OriginPath: fmt.Sprintf("%s:%s", d.path, d.position(m.Offset)), Reason: err.Error()})
			continue
		}
		s, w, err := entryServer(d, m, sh)
		r.warns = append(r.warns, w...)
		if err != nil {
			r.skipped = append(r.skipped, Skipped{Name: m.Key, OriginPath: fmt.Sprintf("%s:%s", d.path, d.position(m.Offset)), Reason: err.Error()})
			continue
		}
		r.servers = append(r.servers, s)
	}
	return r
}

func codexSource(path string, data []byte) (fileResult, error) {
	servers, bad, err := readCodex(path, data)
	return fileResult{servers: servers, skipped: bad}, err
}

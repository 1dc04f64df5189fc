// Package plugins owns Claude Code plugins in Zero
// (https://docs.claude.com/en/docs/claude-code/plugins-reference,
// https://docs.claude.com/en/docs/claude-code/plugin-marketplaces): a
// folder with .claude-plugin/plugin.json and any of skills/, commands/,
// agents/, hooks/hooks.json and .mcp.json. It installs a plugin from a
// folder, a git repository or a marketplace into Zero's data directory
// (a copy; nothing of it runs at install time), pins each one in the lock
// file by the SHA-256 of its tree (and the commit, for git), keeps the
// enabled state, and on load hands the enabled, unmodified plugins' parts
// to the packages that load the user's own: skills and commands
// (namespaced PLUGIN:NAME), hooks and MCP servers, with
// ${CLAUDE_PLUGIN_ROOT} expanded to the plugin's folder.
//
// It must not run anything of a plugin, decide permissions, nor start a
// server: internal/run assembles what this package returns.
package plugins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/zero-agent/zero/internal/decodeerr"
	"github.com/zero-agent/zero/internal/jsonc"
)

// ManifestPath is where a plugin's manifest lives, relative to its root.
const ManifestPath = ".claude-plugin/plugin.json"

// Manifest is a plugin.json.
type Manifest struct {
	Name, Version, Description string
	Author                     Author
	Homepage, Repository       string
	License                    string
	// Commands, Agents and Skills are extra paths (relative to the
	// plugin's root, "./" first as Claude Code writes them) read besides
	// the default folders.
	Commands, Agents, Skills []string
	// Hooks is a hooks file path; HooksInline the hooks object written
	// in the manifest.
	Hooks       string
	HooksInline json.RawMessage
	// MCPServers is an MCP config file path; MCPInline says the manifest
	// holds the servers itself (its mcpServers key).
	MCPServers string
	MCPInline  bool
}

// Author is a manifest's author: an object, or a name alone.
type Author struct {
	Name, Email, URL string
}

func (a Author) String() string {
	s := a.Name
	if a.Email != "" {
		s = strings.TrimSpace(s + " <" + a.Email + ">")
	}
	return s
}

// NamePattern is a usable plugin name: Claude Code's kebab-case (letters,
// digits, hyphens), with dots and underscores tolerated, at most 64
// characters. It is a namespace (PLUGIN:skill), a folder name and part of
// MCP tool names, so nothing else is allowed.
var NamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// rawManifest is plugin.json on disk; the component keys take a string,
// a list of strings, or (hooks, mcpServers) an object.
type rawManifest struct {
	Name        *string         `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	Author      json.RawMessage `json:"author"`
	Homepage    string          `json:"homepage"`
	Repository  json.RawMessage `json:"repository"`
	License     string          `json:"license"`
	Commands    json.RawMessage `json:"commands"`
	Agents      json.RawMessage `json:"agents"`
	Skills      json.RawMessage `json:"skills"`
	Hooks       json.RawMessage `json:"hooks"`
	MCPServers  json.RawMessage `json:"mcpServers"`
}

// ParseManifest reads a plugin.json. Errors say which key is wrong and
// what it should be.
func ParseManifest(data []byte) (Manifest, error) {
	std, err := jsonc.Standardize(data)
	if err != nil {
		return Manifest{}, fmt.Errorf("not valid JSON: %v", err)
	}
	var r rawManifest
	if err := json.Unmarshal(std, &r); err != nil {
		return Manifest{}, fmt.Errorf("not a plugin manifest (an object with name, version, description, ...): %v", decodeerr.JSON(err, std))
	}
	if r.Name == nil || *r.Name == "" {
		return Manifest{}, fmt.Errorf(`no "name" (it is required: the plugin's namespace, e.g. "my-plugin")`)
	}
	if !NamePattern.MatchString(*r.Name) {
		return Manifest{}, fmt.Errorf("name %q is not 1-64 letters, digits, hyphens (no spaces, no slashes)", *r.Name)
	}
	m := Manifest{Name: *r.Name, Version: r.Version, Description: r.Description, Homepage: r.Homepage, License: r.License}
	if m.Author, err = parseAuthor(r.Author); err != nil {
		return Manifest{}, err
	}
	m.Repository = repository(r.Repository)
	for _, c := range []struct {
		key string
		raw json.RawMessage
		dst *[]string
	}{{"commands", r.Commands, &m.Commands}, {"agents", r.Agents, &m.Agents}, {"skills", r.Skills, &m.Skills}} {
		if *c.dst, err = paths(c.key, c.raw); err != nil {
			return Manifest{}, err
		}
	}
	if m.Hooks, m.HooksInline, err = pathOrObject("hooks", r.Hooks); err != nil {
		return Manifest{}, err
	}
	var inline json.RawMessage
	if m.MCPServers, inline, err = pathOrObject("mcpServers", r.MCPServers); err != nil {
		return Manifest{}, err
	}
	m.MCPInline = inline != nil
	return m, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

func parseAuthor(raw json.RawMessage) (Author, error) {
	if isNull(raw) {
		return Author{}, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return Author{Name: name}, nil
	}
	var a struct{ Name, Email, URL string }
	if err := json.Unmarshal(raw, &a); err != nil {
		return Author{}, fmt.Errorf(`"author" must be an object {"name", "email", "url"} or a name`)
	}
	return Author(a), nil
}

// repository is a repository given as a URL or as npm's {type, url}.
func repository(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct{ URL string }
	_ = json.Unmarshal(raw, &o)
	return o.URL
}

// paths reads a component key: a path or a list of paths.
func paths(key string, raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var list []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		list = []string{one}
	} else if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%q must be a path or a list of paths (\"./custom/%s\")", key, key)
	}
	for i, p := range list {
		clean, err := relPath(key, p)
		if err != nil {
			return nil, err
		}
		list[i] = clean
	}
	return list, nil
}

// pathOrObject reads hooks or mcpServers: a path, or the object inline.
func pathOrObject(key string, raw json.RawMessage) (string, json.RawMessage, error) {
	if isNull(raw) {
		return "", nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		p, err := relPath(key, one)
		return p, nil, err
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", nil, fmt.Errorf("%q must be a path (\"./%s.json\") or an object", key, key)
	}
	return "", raw, nil
}

// relPath checks a path the manifest names: relative to the plugin's root
// and inside it (a plugin reads nothing of the machine it is installed
// on through its manifest).
func relPath(key, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("%q holds an empty path", key)
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return "", fmt.Errorf("%q path %q must be relative to the plugin's folder (\"./%s\")", key, p, strings.TrimLeft(p, `/\`))
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q path %q leaves the plugin's folder", key, p)
	}
	return clean, nil
}

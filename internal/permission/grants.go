package permission

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/shellguard"
)

// Scope is how long a grant lasts.
type Scope string

// Scopes.
const (
	// ScopeOnce approves the next matching call only.
	ScopeOnce Scope = "once"
	// ScopeSession lasts until Zero exits.
	ScopeSession Scope = "session"
	// ScopePersistent is saved in grants.json and applies to later
	// sessions.
	ScopePersistent Scope = "persistent"
)

// Grant is one approval given by the user. Exactly one kind:
//
//   - tool-wide: Tool only ("always allow write_file"); for a shell tool
//     it approves commands the guard allows, never guard asks;
//   - exact command: Tool + Command ("npm test"), approves that command
//     line even when the guard asks (never when it denies);
//   - command prefix: Tool + Command + Prefix ("go test" approves
//     "go test ./..." but not "go test; rm -rf ~": every simple command of
//     the line must start with the words of some prefix grant, and the
//     guard must allow the line);
//   - path: Tool + Path (absolute), approves reads (or writes) of that
//     file or anything below that directory, including secrets.
//
// A command or prefix grant with Network also gives the command the
// network under sandbox.network "ask".
type Grant struct {
	Scope   Scope  `json:"-"`
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
	Prefix  bool   `json:"prefix,omitempty"`
	Path    string `json:"path,omitempty"`
	// Workspace limits a grant to one workspace root; empty applies
	// everywhere. Add fills it for every persistent grant: "always" holds
	// in the workspace it was given in (as Claude Code's project
	// permissions do); a grant for everywhere is written in grants.json
	// by hand.
	Workspace string `json:"workspace,omitempty"`
	// Deny makes it a denial (the user's "reject always"): it approves
	// nothing, and a call it matches (Refuses) is refused where the
	// gate would ask.
	Deny bool `json:"deny,omitempty"`
	// Network, on a shell command or prefix grant, also lets the command
	// run with the network under sandbox.network "ask" (CoversNetwork);
	// as a run grant it counts like any other.
	Network bool `json:"network,omitempty"`
}

// grantsFile is the on-disk shape of grants.json.
type grantsFile struct {
	Version int     `json:"version"`
	Grants  []Grant `json:"grants"`
}

// Grants holds the once, session and persistent grants. It is safe for
// concurrent use.
type Grants struct {
	mu         sync.Mutex
	file       string
	once       []Grant
	session    []Grant
	persistent []Grant
}

// LoadGrants reads persistent grants from file ({"version":1,"grants":[...]}).
// A missing file means none.
func LoadGrants(file string) (*Grants, error) {
	g := &Grants{file: file}
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return g, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read grants: %w", err)
	}
	var f grantsFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("grants file %s is not valid JSON (%v); fix or delete it", file, err)
	}
	for _, gr := range f.Grants {
		gr.Scope = ScopePersistent
		g.persistent = append(g.persistent, gr)
	}
	return g, nil
}

// Add records gr. wsRoot fills Workspace for persistent grants. A
// persistent grant is saved before Add returns.
func (g *Grants) Add(gr Grant, wsRoot string) error {
	if gr.Tool == "" {
		return errors.New("grant needs a tool name")
	}
	if gr.Prefix && strings.TrimSpace(gr.Command) == "" {
		return errors.New("a prefix grant needs a command")
	}
	if gr.Path != "" && !filepath.IsAbs(gr.Path) {
		return fmt.Errorf("grant path %q must be absolute", gr.Path)
	}
	if gr.Path != "" {
		gr.Path = filepath.Clean(gr.Path)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch gr.Scope {
	case ScopeOnce:
		g.once = append(g.once, gr)
	case ScopeSession, "":
		gr.Scope = ScopeSession
		g.session = append(g.session, gr)
	case ScopePersistent:
		if gr.Workspace == "" {
			gr.Workspace = wsRoot
		}
		g.persistent = append(g.persistent, gr)
		return g.save()
	default:
		return fmt.Errorf("unknown grant scope %q", gr.Scope)
	}
	return nil
}

// save writes the persistent grants atomically (temp file + rename),
// readable by the user only. Callers hold g.mu.
func (g *Grants) save() error {
	if g.file == "" {
		return errors.New("no grants file configured")
	}
	b, err := json.MarshalIndent(grantsFile{Version: 1, Grants: g.persistent}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(g.file), 0o700); err != nil {
		return fmt.Errorf("save grants: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(g.file), ".grants-*.json")
	if err != nil {
		return fmt.Errorf("save grants: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save grants: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save grants: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save grants: %w", err)
	}
	return os.Rename(tmp.Name(), g.file)
}

// Match reports whether a grant approves q: the same tool (or "*") and,
// by q's kind, the exact command, a path at or above q.Path, or a
// tool-wide grant. A matching once grant is used up.
func (g *Grants) Match(q Grant, wsRoot string, fold bool) bool {
	return g.match(q, wsRoot, fold, "")
}

// matchPathIn is Match for a path query where only a grant naming this
// tool (not "*") and a path inside limit counts: a grant of a whole
// workspace does not approve writes to its .git or .zero.
func (g *Grants) matchPathIn(q Grant, limit, wsRoot string, fold bool) bool {
	return g.match(q, wsRoot, fold, limit)
}

func (g *Grants) match(q Grant, wsRoot string, fold bool, limit string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	hit := func(gr Grant) bool {
		if gr.Deny {
			return false
		}
		if limit != "" && (gr.Tool != q.Tool || gr.Path == "" || !pathWithin(gr.Path, limit, fold)) {
			return false
		}
		if !toolMatches(gr.Tool, q.Tool) || gr.Workspace != "" && gr.Workspace != wsRoot {
			return false
		}
		switch {
		case q.Command != "":
			return !gr.Prefix && gr.Command == q.Command
		case q.Path != "":
			return gr.Path != "" && pathWithin(q.Path, gr.Path, fold)
		default:
			return gr.Command == "" && gr.Path == ""
		}
	}
	for i, gr := range g.once {
		if hit(gr) {
			g.once = append(g.once[:i:i], g.once[i+1:]...)
			return true
		}
	}
	for _, list := range [][]Grant{g.session, g.persistent} {
		for _, gr := range list {
			if hit(gr) {
				return true
			}
		}
	}
	return false
}

// Refuses reports whether a denial (a Deny grant) matches q: the same
// tool (or "*") and the exact command, a path at or below the denial's,
// or, for a tool-wide denial, any call of the tool.
func (g *Grants) Refuses(q Grant, wsRoot string, fold bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, list := range [][]Grant{g.session, g.persistent} {
		for _, gr := range list {
			if !gr.Deny || !toolMatches(gr.Tool, q.Tool) || gr.Workspace != "" && gr.Workspace != wsRoot {
				continue
			}
			switch {
			case gr.Command != "":
				if gr.Command == q.Command {
					return true
				}
			case gr.Path != "":
				if q.Path != "" && pathWithin(q.Path, gr.Path, fold) {
					return true
				}
			default:
				return true
			}
		}
	}
	return false
}

// Covers reports whether every part (the simple commands of a line, from
// shellguard.Parts) starts with the words of a prefix or exact command
// grant for tool, or a tool-wide grant exists. Words known only at run
// time never match a grant word.
func (g *Grants) Covers(tool string, parts [][]string, wsRoot string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	var prefixes [][]string
	for _, list := range [][]Grant{g.once, g.session, g.persistent} {
		for _, gr := range list {
			if gr.Deny || gr.Tool != tool && gr.Tool != "*" || gr.Workspace != "" && gr.Workspace != wsRoot || gr.Path != "" {
				continue
			}
			if gr.Command == "" {
				return len(parts) > 0
			}
			prefixes = append(prefixes, strings.Fields(gr.Command))
		}
	}
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		ok := false
		for _, pre := range prefixes {
			if hasWordPrefix(p, pre) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func hasWordPrefix(words, prefix []string) bool {
	if len(prefix) == 0 || len(words) < len(prefix) {
		return false
	}
	for i, w := range prefix {
		if words[i] != w || strings.Contains(words[i], shellguard.Unknown) {
			return false
		}
	}
	return true
}

// pathWithin reports whether p is root or below it, component-wise
// (case B23), ignoring case when fold is set.
func pathWithin(p, root string, fold bool) bool {
	if fold {
		p, root = strings.ToLower(p), strings.ToLower(root)
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// List returns every grant, once and session first, for /permissions.
func (g *Grants) List() []Grant {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := append([]Grant(nil), g.once...)
	out = append(out, g.session...)
	return append(out, g.persistent...)
}

// toolMatches reports whether a grant's tool covers tool: the same name,
// "*", or "mcp__server__*", which covers every tool of that MCP server
// (a server-wide grant).
func toolMatches(granted, tool string) bool {
	if granted == tool || granted == "*" {
		return true
	}
	p, ok := strings.CutSuffix(granted, "*")
	return ok && strings.HasPrefix(p, "mcp__") && strings.HasSuffix(p, "__") && strings.HasPrefix(tool, p)
}

// ServerPrefix is the "mcp__server__" part of an MCP tool's name, which a
// server-wide grant ends with "*"; "" for other tools.
func ServerPrefix(tool string) string {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return ""
	}
	server, _, ok := strings.Cut(rest, "__")
	if !ok || server == "" {
		return ""
	}
	return "mcp__" + server + "__"
}

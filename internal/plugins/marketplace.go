package plugins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/jsonc"
)

// MarketplacePath is a marketplace's catalogue, relative to its root
// (https://docs.claude.com/en/docs/claude-code/plugin-marketplaces).
const MarketplacePath = ".claude-plugin/marketplace.json"

// Marketplace is a marketplace.json.
type Marketplace struct {
	Name    string
	Owner   Author
	Plugins []MarketplaceEntry
	// Root is where the catalogue's copy lives; PluginRoot its
	// metadata.pluginRoot (the folder relative sources start from).
	Root, PluginRoot string
}

// MarketplaceEntry is one plugin a marketplace lists. Its source is a
// path inside the marketplace ("./plugins/x"), or a git repository:
// {"source": "github", "repo": "owner/repo"} or {"source": "url", "url":
// "https://….git"}, each with an optional ref or sha.
type MarketplaceEntry struct {
	Name, Description, Version string
	// Path is a relative source; Git a repository (URL#REF with a ref).
	Path, Git string
}

type rawMarketplace struct {
	Name     string          `json:"name"`
	Owner    json.RawMessage `json:"owner"`
	Metadata struct {
		PluginRoot string `json:"pluginRoot"`
	} `json:"metadata"`
	Plugins []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Version     string          `json:"version"`
		Source      json.RawMessage `json:"source"`
	} `json:"plugins"`
}

// ParseMarketplace reads a marketplace.json.
func ParseMarketplace(data []byte) (*Marketplace, error) {
	std, err := jsonc.Standardize(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	var r rawMarketplace
	if err := json.Unmarshal(std, &r); err != nil {
		return nil, fmt.Errorf("not a marketplace (an object with name, owner, plugins): %v", err)
	}
	if !NamePattern.MatchString(r.Name) {
		return nil, fmt.Errorf("marketplace name %q is missing or not 1-64 letters, digits, hyphens", r.Name)
	}
	m := &Marketplace{Name: r.Name}
	if m.Owner, err = parseAuthor(r.Owner); err != nil {
		return nil, fmt.Errorf("owner: %v", err)
	}
	if r.Metadata.PluginRoot != "" {
		if m.PluginRoot, err = relPath("metadata.pluginRoot", r.Metadata.PluginRoot); err != nil {
			return nil, err
		}
	}
	for i, p := range r.Plugins {
		if !NamePattern.MatchString(p.Name) {
			return nil, fmt.Errorf("plugins[%d]: name %q is missing or not 1-64 letters, digits, hyphens", i, p.Name)
		}
		e := MarketplaceEntry{Name: p.Name, Description: p.Description, Version: p.Version}
		if e.Path, e.Git, err = entrySource(p.Source); err != nil {
			return nil, fmt.Errorf("plugins[%d] (%s): %v", i, p.Name, err)
		}
		m.Plugins = append(m.Plugins, e)
	}
	return m, nil
}

// entrySource reads a marketplace entry's source.
func entrySource(raw json.RawMessage) (rel, git string, err error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if IsGitSource(s) && !strings.HasPrefix(s, ".") {
			return "", s, nil
		}
		rel, err = relPath("source", s)
		return rel, "", err
	}
	var o struct {
		Source, Repo, URL, Ref, SHA string
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return "", "", fmt.Errorf(`source must be a path ("./plugins/NAME") or {"source": "github"|"url", ...}`)
	}
	switch o.Source {
	case "github":
		if o.Repo == "" {
			return "", "", fmt.Errorf(`a github source needs "repo": "owner/name"`)
		}
		git = "https://github.com/" + o.Repo + ".git"
	case "url", "git":
		if o.URL == "" {
			return "", "", fmt.Errorf(`a url source needs "url"`)
		}
		git = o.URL
	default:
		return "", "", fmt.Errorf("source kind %q is not one Zero installs (github, url, or a relative path)", o.Source)
	}
	if ref := firstNonEmpty(o.SHA, o.Ref); ref != "" {
		git += "#" + ref
	}
	return "", git, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// AddMarketplace copies (or clones) the marketplace at source into the
// store and pins it; its plugins are then installed by NAME@MARKETPLACE.
func (s Store) AddMarketplace(ctx context.Context, source string) (*Marketplace, error) {
	l, err := s.ReadLock()
	if err != nil {
		return nil, err
	}
	f, err := fetch(ctx, source, filepath.Join(s.Dir, "marketplaces"))
	if err != nil {
		return nil, err
	}
	defer f.cleanup()
	m, err := readMarketplace(f.Dir)
	if err != nil {
		return nil, err
	}
	if _, dup := l.Marketplaces[m.Name]; dup {
		return nil, fmt.Errorf("a marketplace %q is added already (zero plugin marketplace remove %s first)", m.Name, m.Name)
	}
	dest := s.MarketplaceDir(m.Name)
	if exists(dest) {
		if err := os.RemoveAll(dest); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(f.Dir, dest); err != nil {
		return nil, err
	}
	hash, err := TreeHash(dest)
	if err != nil {
		return nil, err
	}
	l.Marketplaces[m.Name] = Entry{Source: f.Source, Kind: f.Kind, Ref: f.Ref, Commit: f.Commit, Hash: hash, Enabled: true, InstalledAt: now()}
	if err := s.WriteLock(l); err != nil {
		return nil, err
	}
	m.Root = dest
	return m, nil
}

func readMarketplace(root string) (*Marketplace, error) {
	p := filepath.Join(root, filepath.FromSlash(MarketplacePath))
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("not a marketplace: no %s (%v)", MarketplacePath, err)
	}
	m, err := ParseMarketplace(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", MarketplacePath, err)
	}
	m.Root = root
	return m, nil
}

// Marketplace reads the added marketplace name, checking its copy
// against the pinned hash.
func (s Store) Marketplace(name string) (*Marketplace, error) {
	l, err := s.ReadLock()
	if err != nil {
		return nil, err
	}
	e, ok := l.Marketplaces[name]
	if !ok {
		return nil, fmt.Errorf("no marketplace %q is added (added: %s; zero plugin marketplace add PATH|GIT-URL)", name, orNone(sortedNames(l.Marketplaces)))
	}
	dir := s.MarketplaceDir(name)
	if hash, err := TreeHash(dir); err != nil || hash != e.Hash {
		return nil, fmt.Errorf("marketplace %s changed since it was added (%s); add it again: zero plugin marketplace remove %s && zero plugin marketplace add %s", name, dir, name, e.Source)
	}
	return readMarketplace(dir)
}

// Marketplaces are the added marketplaces' names and entries.
func (s Store) Marketplaces() (map[string]Entry, error) {
	l, err := s.ReadLock()
	if err != nil {
		return nil, err
	}
	return l.Marketplaces, nil
}

// RemoveMarketplace forgets a marketplace (its installed plugins stay).
func (s Store) RemoveMarketplace(name string) error {
	err := s.update(func(l *Lock) error {
		if _, ok := l.Marketplaces[name]; !ok {
			return fmt.Errorf("no marketplace %q is added", name)
		}
		delete(l.Marketplaces, name)
		return nil
	})
	if err != nil {
		return err
	}
	return os.RemoveAll(s.MarketplaceDir(name))
}

// AddFromMarketplace installs plugin of marketplace (NAME@MARKETPLACE).
func (s Store) AddFromMarketplace(ctx context.Context, plugin, market string, o AddOptions) (*Added, error) {
	m, err := s.Marketplace(market)
	if err != nil {
		return nil, err
	}
	var entry *MarketplaceEntry
	var names []string
	for i := range m.Plugins {
		names = append(names, m.Plugins[i].Name)
		if m.Plugins[i].Name == plugin {
			entry = &m.Plugins[i]
		}
	}
	if entry == nil {
		return nil, fmt.Errorf("marketplace %s lists no plugin %q (it lists: %s)", market, plugin, orNone(names))
	}
	o.Marketplace = market
	source := entry.Git
	if source == "" {
		source = m.localSource(*entry)
		if !exists(source) {
			return nil, fmt.Errorf("marketplace %s lists %s at %s, but it has no such folder (%s)", market, plugin, entry.Path, source)
		}
	}
	added, err := s.Add(ctx, source, o)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %v", plugin, market, err)
	}
	return added, nil
}

// localSource is the folder of an entry with a relative source.
func (m *Marketplace) localSource(e MarketplaceEntry) string {
	return filepath.Join(m.Root, filepath.FromSlash(path.Join(m.PluginRoot, e.Path)))
}

// Missing lists the entries whose relative source is not a folder of
// the marketplace, each as "NAME (PATH)": `zero plugin add` of one
// would fail.
func (m *Marketplace) Missing() []string {
	var out []string
	for _, e := range m.Plugins {
		if e.Git == "" && !exists(m.localSource(e)) {
			out = append(out, e.Name+" ("+e.Path+")")
		}
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return joinNames(names)
}

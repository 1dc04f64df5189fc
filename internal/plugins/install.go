package plugins

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// AddOptions tune Add.
type AddOptions struct {
	// Enable enables a plugin whose hooks or MCP servers run programs
	// at once; without it such a plugin is installed disabled, for the
	// user to review (`zero plugin info`) and enable.
	Enable bool
	// Marketplace is the marketplace the source came from.
	Marketplace string
}

// Added is what Add installed.
type Added struct {
	Plugin *Plugin
	Entry  Entry
	Parts  Parts
}

// Add installs the plugin at source (a folder, a git URL or a git
// repository's path, URL#REF for a ref) as a copy in the store, pinned
// in the lock file by its tree's hash (and commit). Nothing of the
// plugin runs: its files are copied and read, no more. A plugin already
// installed under the name is an error (nothing is overwritten).
func (s Store) Add(ctx context.Context, source string, o AddOptions) (*Added, error) {
	l, err := s.ReadLock()
	if err != nil {
		return nil, err
	}
	f, err := fetch(ctx, source, filepath.Join(s.Dir, "plugins"))
	if err != nil {
		return nil, err
	}
	defer f.cleanup()
	return s.install(l, f, sourceName(f.Source), o)
}

// install checks the fetched tree, moves it into place and pins it.
func (s Store) install(l *Lock, f *fetched, fallback string, o AddOptions) (*Added, error) {
	p, err := Open(f.Dir, fallback)
	if err != nil {
		// name the user's file, not the temporary copy it was read from
		return nil, errors.New(strings.ReplaceAll(err.Error(), f.Dir, f.Source))
	}
	if _, dup := l.Plugins[p.Name]; dup {
		return nil, fmt.Errorf("a plugin %q is installed already (zero plugin remove %s first to replace it)", p.Name, p.Name)
	}
	dest := s.PluginDir(p.Name)
	if exists(dest) {
		return nil, fmt.Errorf("%s exists but the lock file has no plugin %q: remove the folder first", dest, p.Name)
	}
	// read the parts where the plugin will live, so what is shown is
	// what will run
	p.Root = dest
	if err := os.Rename(f.Dir, dest); err != nil {
		return nil, err
	}
	hash, err := TreeHash(dest)
	if err != nil {
		os.RemoveAll(dest)
		return nil, err
	}
	parts := p.Parts()
	e := Entry{Source: f.Source, Kind: f.Kind, Ref: f.Ref, Commit: f.Commit, Hash: hash,
		Marketplace: o.Marketplace, Version: p.Version, Enabled: o.Enable || !parts.Runs(), InstalledAt: now()}
	l.Plugins[p.Name] = e
	if err := s.WriteLock(l); err != nil {
		os.RemoveAll(dest)
		return nil, err
	}
	return &Added{Plugin: p, Entry: e, Parts: parts}, nil
}

// sourceName is the folder or repository name of a source, the plugin's
// name when it has no manifest.
func sourceName(source string) string {
	s := strings.TrimRight(source, "/")
	if i := strings.LastIndexAny(s, "/:"); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSuffix(s, ".git")
}

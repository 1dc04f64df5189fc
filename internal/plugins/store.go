package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/zero-agent/zero/internal/atomicfile"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/xdg"
)

// LockFile is the lock file's name, in Zero's config directory (beside
// grants.json and the trust file: it is a trust decision, and the model's
// tools never write there).
const LockFile = "plugins.lock.json"

// Store is where plugins live: Dir/plugins/NAME and
// Dir/marketplaces/NAME (copies), pinned in Lock.
type Store struct {
	Dir, Lock string
}

// DefaultStore is the user's: $XDG_DATA_HOME/zero (~/.local/share/zero,
// beside the sessions) and the config directory's plugins.lock.json.
func DefaultStore() Store {
	data, _ := xdg.DataDir() // no home: a relative folder, as config.Dir gives
	if data == "" {
		data = filepath.Join(".local", "share", "zero")
	}
	return Store{Dir: data, Lock: filepath.Join(config.Dir(), LockFile)}
}

// PluginDir is where plugin name is installed.
func (s Store) PluginDir(name string) string { return filepath.Join(s.Dir, "plugins", name) }

// DataDir is plugin name's folder for its own state
// (${CLAUDE_PLUGIN_DATA}); it outlives updates, not a removal.
func (s Store) DataDir(name string) string { return filepath.Join(s.Dir, "plugin-data", name) }

// MarketplaceDir is where marketplace name is kept.
func (s Store) MarketplaceDir(name string) string { return filepath.Join(s.Dir, "marketplaces", name) }

// Source kinds.
const (
	KindPath = "path" // a folder, copied
	KindGit  = "git"  // a git repository, cloned at Commit
)

// Entry is one installed plugin (or marketplace) in the lock file.
type Entry struct {
	// Source is what the user gave (a folder's absolute path, a git URL,
	// NAME@MARKETPLACE's resolved source).
	Source string `json:"source"`
	Kind   string `json:"kind"`
	// Ref is the git ref asked for (URL#REF), Commit the one installed.
	Ref    string `json:"ref,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Hash is "sha256:HEX" of the installed tree (TreeHash).
	Hash string `json:"hash"`
	// Marketplace is the marketplace the plugin came from.
	Marketplace string `json:"marketplace,omitempty"`
	Version     string `json:"version,omitempty"`
	Enabled     bool   `json:"enabled"`
	InstalledAt string `json:"installedAt"`
}

// Lock is the lock file.
type Lock struct {
	Plugins      map[string]Entry `json:"plugins"`
	Marketplaces map[string]Entry `json:"marketplaces,omitempty"`
}

// ReadLock reads the lock file; a missing one is empty. A lock file
// that does not parse is an error naming it (nothing loads rather than
// a guess at what was pinned).
func (s Store) ReadLock() (*Lock, error) {
	l := &Lock{Plugins: map[string]Entry{}, Marketplaces: map[string]Entry{}}
	b, err := os.ReadFile(s.Lock)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, l); err != nil {
		return nil, fmt.Errorf("%s: not a plugins lock file: %v (fix or remove it; the plugins stay in %s)", s.Lock, err, filepath.Join(s.Dir, "plugins"))
	}
	if l.Plugins == nil {
		l.Plugins = map[string]Entry{}
	}
	if l.Marketplaces == nil {
		l.Marketplaces = map[string]Entry{}
	}
	return l, nil
}

// WriteLock replaces the lock file whole.
func (s Store) WriteLock(l *Lock) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Lock), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(s.Lock, append(b, '\n'), 0o600)
}

// update reads the lock, lets fn change it and writes it back.
func (s Store) update(fn func(*Lock) error) error {
	l, err := s.ReadLock()
	if err != nil {
		return err
	}
	if err := fn(l); err != nil {
		return err
	}
	return s.WriteLock(l)
}

// SetEnabled enables or disables an installed plugin.
func (s Store) SetEnabled(name string, on bool) error {
	return s.update(func(l *Lock) error {
		e, ok := l.Plugins[name]
		if !ok {
			return notInstalled(name, l)
		}
		e.Enabled = on
		l.Plugins[name] = e
		return nil
	})
}

// Remove deletes an installed plugin: its lock entry, its folder and its
// state folder.
func (s Store) Remove(name string) error {
	err := s.update(func(l *Lock) error {
		if _, ok := l.Plugins[name]; !ok {
			return notInstalled(name, l)
		}
		delete(l.Plugins, name)
		return nil
	})
	if err != nil {
		return err
	}
	_ = os.RemoveAll(s.DataDir(name))
	return os.RemoveAll(s.PluginDir(name))
}

// NotInstalledError names a plugin the lock file does not have.
type NotInstalledError struct {
	Name      string
	Installed []string
}

func (e *NotInstalledError) Error() string {
	if len(e.Installed) == 0 {
		return fmt.Sprintf("no plugin %q is installed (none are: zero plugin add PATH|GIT-URL)", e.Name)
	}
	return fmt.Sprintf("no plugin %q is installed (installed: %s)", e.Name, joinNames(e.Installed))
}

func notInstalled(name string, l *Lock) error {
	return &NotInstalledError{Name: name, Installed: sortedNames(l.Plugins)}
}

func sortedNames(m map[string]Entry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/permission"
)

// FolderTrust is what the trust file says about a workspace (`zero
// trust`): trusted, trusted but changed since (Changed names the project
// files that differ), or never trusted. Start-up reads it once and hands
// it to both the config and the permission engine, so they agree.
type FolderTrust struct {
	State   permission.TrustStatus
	Changed []string
	// Removed names pinned project files deleted since the folder was
	// trusted; reportRemoved says so once.
	Removed []string
}

// ReadFolderTrust reads the trust state of dir (made absolute, symlinks
// resolved) from the user's trust file.
func ReadFolderTrust(dir string) FolderTrust {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = CanonicalDir(abs)
	}
	r := permission.TrustCheck(config.Dir(), dir)
	return FolderTrust{State: r.State, Changed: r.Changed, Removed: r.Removed}
}

// reportRemoved says which pinned project files of the trusted folder
// root were deleted since it was trusted (a removed .zero/), then records
// them as absent in the trust file, so the next run says nothing. A
// removal adds nothing that could run, so it never withdraws trust.
func reportRemoved(stderr io.Writer, root string, t FolderTrust) {
	if len(t.Removed) == 0 {
		return
	}
	fmt.Fprintf(stderr, "zero: removed since you trusted this folder: %s; they no longer load (recorded, so this is said once)\n", strings.Join(t.Removed, ", "))
	if err := permission.RecordRemoved(config.Dir(), root, t.Removed); err != nil {
		fmt.Fprintf(stderr, "zero: warning: the trust file was not updated (%v); this is said again next run\n", err)
	}
}

// OK reports whether the folder is trusted as it is now.
func (t FolderTrust) OK() bool { return t.State == permission.TrustOK }

// LoadConfig resolves configuration for the workspace dir ("" is the
// current directory); a project file counts only once the folder is
// trusted. A bad file is a ConfigError.
func LoadConfig(dir string, over config.Overrides) (*config.Config, FolderTrust, error) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	trust := ReadFolderTrust(dir)
	cfg, err := config.Load(config.Options{Workspace: dir, TrustedProject: trust.OK(), Overrides: over})
	if err != nil {
		return nil, trust, &ConfigError{err.Error()}
	}
	return cfg, trust, nil
}

// CanonicalDir returns dir with symlinks resolved, so one workspace has
// one name in session metadata.
func CanonicalDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Clean(dir)
}

// Workdir returns the workspace directory dir names ("" is the current
// directory), canonical.
func Workdir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return CanonicalDir(abs), nil
}

// checkWorkspace refuses the filesystem root as a workspace and warns
// about the home directory: an agent there can reach everything.
func checkWorkspace(stderr io.Writer, dir string) error {
	if dir == string(filepath.Separator) {
		return configErrorf("refusing to use / as the workspace: cd into a project directory (or pass -C DIR)")
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(home) == dir {
		fmt.Fprintln(stderr, "zero: warning: the workspace is your home directory; every file in it is in reach. cd into a project directory for a narrower workspace.")
	}
	return nil
}

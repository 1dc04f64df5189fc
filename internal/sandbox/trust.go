package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// TrustFile is the file, in the config dir, listing folders the user
// trusts (`zero trust`). Project hooks, rules and MCP servers load only
// for a trusted workspace (issue 5, acceptance 6): opening a cloned repo
// must not run its hook commands.
const TrustFile = "trusted.json"

// trustFile is the on-disk shape of trusted.json.
type trustFile struct {
	Version int            `json:"version"`
	Folders []trustedEntry `json:"folders"`
}

type trustedEntry struct {
	Path    string    `json:"path"`
	Trusted time.Time `json:"trusted"`
}

// canonical resolves dir to an absolute, symlink-free path so a link
// cannot borrow another folder's trust.
func canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func readTrust(configDir string) (trustFile, error) {
	var f trustFile
	b, err := os.ReadFile(filepath.Join(configDir, TrustFile))
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s is not valid JSON (%v); fix or delete it", filepath.Join(configDir, TrustFile), err)
	}
	return f, nil
}

// IsTrusted reports whether the user trusted dir (exactly that folder,
// symlinks resolved). An unreadable trust file counts as not trusted.
func IsTrusted(configDir, dir string) bool {
	c, err := canonical(dir)
	if err != nil {
		return false
	}
	f, err := readTrust(configDir)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c })
}

// Trust records dir as trusted in configDir/trusted.json (0600).
func Trust(configDir, dir string) error {
	c, err := canonical(dir)
	if err != nil {
		return fmt.Errorf("trust %s: %w", dir, err)
	}
	f, err := readTrust(configDir)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c }) {
		return nil
	}
	f.Version = 1
	f.Folders = append(f.Folders, trustedEntry{Path: c, Trusted: time.Now().UTC()})
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(configDir, "."+TrustFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(configDir, TrustFile))
}

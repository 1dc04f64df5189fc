package permission

import (
	"crypto/sha256"
	"encoding/hex"
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
	// Files maps each of TrustedFiles to the SHA-256 (hex) of its
	// content when the user trusted the folder, "" for a missing file.
	// Entries written before version 2 have none and count as changed.
	Files map[string]string `json:"files,omitempty"`
}

// TrustedFiles are the workspace files whose content trust covers
// (slash-separated, relative to the folder): replacing one, as a git pull
// may, withdraws trust until the user runs `zero trust` again.
var TrustedFiles = []string{".zero/rules.json", ".zero/hooks.json", ".zero/config.json",
	".zero/settings.json", ".claude/settings.json", ".claude/settings.local.json"}

// TrustStatus is what TrustState found for a folder.
type TrustStatus int

// Trust states.
const (
	// TrustNever: the user never trusted this folder.
	TrustNever TrustStatus = iota
	// TrustChanged: the user trusted it, but a trusted file changed,
	// appeared or disappeared since (or the entry predates content
	// hashes); ask again, naming the changed files.
	TrustChanged
	// TrustOK: trusted and unchanged.
	TrustOK
)

// String is "never", "changed" or "trusted".
func (s TrustStatus) String() string {
	switch s {
	case TrustOK:
		return "trusted"
	case TrustChanged:
		return "changed"
	}
	return "never"
}

// hashFiles returns the SHA-256 of each of TrustedFiles under dir ("" for
// a missing one). A file that exists but cannot be read is an error.
func hashFiles(dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range TrustedFiles {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		switch {
		case errors.Is(err, os.ErrNotExist):
			out[f] = ""
		case err != nil:
			return nil, err
		default:
			sum := sha256.Sum256(b)
			out[f] = hex.EncodeToString(sum[:])
		}
	}
	return out, nil
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
// symlinks resolved) and none of its TrustedFiles changed since. An
// unreadable trust file counts as not trusted. Use TrustState to tell
// "changed since trusted" from "never trusted".
func IsTrusted(configDir, dir string) bool {
	st, _ := TrustState(configDir, dir)
	return st == TrustOK
}

// TrustState reports whether dir is trusted, trusted but changed, or
// never trusted; for TrustChanged, changed lists the TrustedFiles whose
// content differs from when the user trusted the folder (all of the
// existing ones for an entry that predates content hashes). Errors
// (unreadable trust file or config file) count as TrustNever.
func TrustState(configDir, dir string) (state TrustStatus, changed []string) {
	c, err := canonical(dir)
	if err != nil {
		return TrustNever, nil
	}
	f, err := readTrust(configDir)
	if err != nil {
		return TrustNever, nil
	}
	i := slices.IndexFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c })
	if i < 0 {
		return TrustNever, nil
	}
	now, err := hashFiles(c)
	if err != nil {
		return TrustChanged, slices.Clone(TrustedFiles)
	}
	old := f.Folders[i].Files
	for _, name := range TrustedFiles {
		// A name missing from the entry (an old entry, or a file added to
		// TrustedFiles later) was not hashed: it changed if it exists.
		if was, ok := old[name]; ok && was != now[name] || !ok && now[name] != "" {
			changed = append(changed, name)
		}
	}
	if old == nil && len(changed) == 0 {
		// An old entry of a folder with none of the files: nothing to
		// run, but record hashes with `zero trust` before one appears.
		return TrustChanged, nil
	}
	if len(changed) > 0 {
		return TrustChanged, changed
	}
	return TrustOK, nil
}

// Trust records dir as trusted in configDir/trusted.json (0600), with the
// SHA-256 of its TrustedFiles; trusting again refreshes the hashes.
func Trust(configDir, dir string) error {
	c, err := canonical(dir)
	if err != nil {
		return fmt.Errorf("trust %s: %w", dir, err)
	}
	f, err := readTrust(configDir)
	if err != nil {
		return err
	}
	files, err := hashFiles(c)
	if err != nil {
		return fmt.Errorf("trust %s: %w", dir, err)
	}
	entry := trustedEntry{Path: c, Trusted: time.Now().UTC(), Files: files}
	if i := slices.IndexFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c }); i >= 0 {
		f.Folders[i] = entry
	} else {
		f.Folders = append(f.Folders, entry)
	}
	f.Version = 2
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

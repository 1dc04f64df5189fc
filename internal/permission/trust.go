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
// (slash-separated, relative to the folder): Zero's own project files and
// the other tools' project files Zero reads that start servers or run
// hooks (MCP servers in .mcp.json, .gemini/settings.json and
// .vscode/mcp.json, see docs/mcp.md; hooks and permission settings in
// .zero/settings.json, .claude/settings.json and
// .claude/settings.local.json). Replacing or adding one, as a git pull
// may, withdraws trust until the user runs `zero trust` again; removing
// one is reported once and then recorded (TrustCheck, RecordRemoved).
var TrustedFiles = []string{".zero/rules.json", ".zero/hooks.json", ".zero/config.json",
	".zero/settings.json", ".claude/settings.json", ".claude/settings.local.json",
	".mcp.json", ".gemini/settings.json", ".vscode/mcp.json"}

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
// (unreadable trust file or config file) count as TrustNever. See
// TrustCheck for the files removed since.
func TrustState(configDir, dir string) (state TrustStatus, changed []string) {
	r := TrustCheck(configDir, dir)
	return r.State, r.Changed
}

// TrustReport is what TrustCheck found for a folder.
type TrustReport struct {
	State TrustStatus
	// Changed are the TrustedFiles that differ from when the folder was
	// trusted or appeared since: they withdraw trust.
	Changed []string
	// Removed are TrustedFiles that had content when the folder was
	// trusted and are gone now (a deleted .zero/). Removing a file adds
	// nothing that could run, so removals alone keep the folder trusted;
	// the caller says once what disappeared, then calls RecordRemoved so
	// the next run is quiet.
	Removed []string
}

// TrustCheck is TrustState with the removed files told apart.
func TrustCheck(configDir, dir string) TrustReport {
	c, err := canonical(dir)
	if err != nil {
		return TrustReport{}
	}
	f, err := readTrust(configDir)
	if err != nil {
		return TrustReport{}
	}
	i := slices.IndexFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c })
	if i < 0 {
		return TrustReport{}
	}
	now, err := hashFiles(c)
	if err != nil {
		return TrustReport{State: TrustChanged, Changed: slices.Clone(TrustedFiles)}
	}
	old := f.Folders[i].Files
	var r TrustReport
	for _, name := range TrustedFiles {
		// A name missing from the entry (an old entry, or a file added to
		// TrustedFiles later) was not hashed: it changed if it exists.
		was, ok := old[name]
		switch {
		case ok && was != "" && now[name] == "":
			r.Removed = append(r.Removed, name)
		case ok && was != now[name] || !ok && now[name] != "":
			r.Changed = append(r.Changed, name)
		}
	}
	if old == nil && len(r.Changed) == 0 {
		// An old entry of a folder with none of the files: nothing to
		// run, but record hashes with `zero trust` before one appears.
		r.State = TrustChanged
		return r
	}
	r.State = TrustOK
	if len(r.Changed) > 0 {
		r.State = TrustChanged
	}
	return r
}

// RecordRemoved updates dir's trust entry so that those of names that
// are still missing are pinned as absent: a removal TrustCheck reported is
// not reported again, and the file coming back is a change like any
// other. Other files' pins are left as they were (a changed file still
// withdraws trust). Nothing is written when dir is not trusted.
func RecordRemoved(configDir, dir string, names []string) error {
	c, err := canonical(dir)
	if err != nil {
		return err
	}
	f, err := readTrust(configDir)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c })
	if i < 0 || f.Folders[i].Files == nil {
		return nil
	}
	now, err := hashFiles(c)
	if err != nil {
		return err
	}
	for _, name := range names {
		if _, pinned := f.Folders[i].Files[name]; pinned && now[name] == "" {
			f.Folders[i].Files[name] = ""
		}
	}
	return writeTrust(configDir, f)
}

// TrustedFolder is one folder of the trust file, for `zero trust list`.
type TrustedFolder struct {
	Path    string    `json:"path"`
	Trusted time.Time `json:"trusted"`
	// State is the folder's trust now; Missing says the folder is gone.
	State   TrustStatus `json:"-"`
	Changed []string    `json:"changed,omitempty"`
	Missing bool        `json:"missing,omitempty"`
}

// TrustedFolders lists the folders of the trust file in the order they
// were first trusted, each with its state now.
func TrustedFolders(configDir string) ([]TrustedFolder, error) {
	f, err := readTrust(configDir)
	if err != nil {
		return nil, err
	}
	out := make([]TrustedFolder, 0, len(f.Folders))
	for _, e := range f.Folders {
		tf := TrustedFolder{Path: e.Path, Trusted: e.Trusted}
		if st, err := os.Stat(e.Path); err != nil || !st.IsDir() {
			tf.Missing = true
		} else {
			r := TrustCheck(configDir, e.Path)
			tf.State, tf.Changed = r.State, r.Changed
		}
		out = append(out, tf)
	}
	return out, nil
}

// Untrust removes dir's entry from the trust file: its project files stop
// loading. dir need not exist any more (a deleted checkout): it matches
// an entry by its canonical path, or by its absolute path when it cannot
// be resolved. removed is false when no entry matched.
func Untrust(configDir, dir string) (removed bool, err error) {
	c, err := canonical(dir)
	if err != nil {
		if c, err = filepath.Abs(dir); err != nil {
			return false, err
		}
		c = filepath.Clean(c)
	}
	f, err := readTrust(configDir)
	if err != nil {
		return false, err
	}
	n := len(f.Folders)
	f.Folders = slices.DeleteFunc(f.Folders, func(e trustedEntry) bool { return e.Path == c })
	if len(f.Folders) == n {
		return false, nil
	}
	return true, writeTrust(configDir, f)
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
	return writeTrust(configDir, f)
}

// writeTrust replaces configDir/trusted.json with f (0600), atomically.
func writeTrust(configDir string, f trustFile) error {
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

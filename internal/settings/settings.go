// Package settings finds and reads the settings files in Claude Code's
// shape (https://docs.claude.com/en/docs/claude-code/settings) that Zero
// takes hooks and permission rules from, in this order:
//
//	user:    ~/.claude/settings.json, ~/.config/zero/settings.json
//	project: .claude/settings.json, .claude/settings.local.json, .zero/settings.json
//
// Only the `hooks` and `permissions` keys are read; others are Claude's
// and ignored. Project files are the caller's to load only after the user
// trusts the folder. This package reads files and nothing else: hooks are
// parsed by internal/hooks, rules by internal/permission.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zero-agent/zero/internal/decodeerr"
	"github.com/zero-agent/zero/internal/jsonc"
)

// Place is one settings file Zero looks for.
type Place struct {
	Path    string
	Project bool
}

// ProjectFiles are the project's settings files, relative to the
// workspace root (trust covers them: permission.TrustedFiles).
var ProjectFiles = []string{".claude/settings.json", ".claude/settings.local.json", ".zero/settings.json"}

// Places lists the settings files for workspace root, home and Zero's
// config dir, user files first.
func Places(root, home, configDir string) []Place {
	var out []Place
	if home != "" {
		out = append(out, Place{Path: filepath.Join(home, ".claude", "settings.json")})
	}
	if configDir != "" {
		out = append(out, Place{Path: filepath.Join(configDir, "settings.json")})
	}
	if root != "" {
		for _, f := range ProjectFiles {
			out = append(out, Place{Path: filepath.Join(root, filepath.FromSlash(f)), Project: true})
		}
	}
	return out
}

// File is what Zero reads from one settings file.
type File struct {
	Place
	// Hooks is the raw `hooks` object (nil: none).
	Hooks json.RawMessage
	// Allow, Ask and Deny are the `permissions` lists.
	Allow, Ask, Deny []string
	// Unapplied names the permission keys Zero reads but does not apply
	// (defaultMode, additionalDirectories), each with what to use
	// instead, for a warning.
	Unapplied []string
}

// Empty reports a file with neither hooks nor rules.
func (f File) Empty() bool {
	return len(f.Hooks) == 0 && len(f.Allow)+len(f.Ask)+len(f.Deny) == 0
}

// Read reads one settings file; a missing file is ok == false. JSON with
// comments and trailing commas is accepted (JWCC); anything else that
// does not parse is an error naming the file.
func Read(p Place) (f File, ok bool, err error) {
	b, err := os.ReadFile(p.Path)
	if errors.Is(err, os.ErrNotExist) {
		return File{}, false, nil
	}
	if err != nil {
		return File{}, false, err
	}
	f, err = Parse(b)
	if err != nil {
		return File{}, false, fmt.Errorf("%s: %w", p.Path, err)
	}
	f.Place = p
	return f, true, nil
}

// Parse reads the hooks and permissions of settings content.
func Parse(b []byte) (File, error) {
	std, err := jsonc.Standardize(b)
	if err != nil {
		return File{}, fmt.Errorf("not valid JSON: %w", err)
	}
	var raw struct {
		Hooks       json.RawMessage `json:"hooks"`
		Permissions *struct {
			Allow                 []string        `json:"allow"`
			Ask                   []string        `json:"ask"`
			Deny                  []string        `json:"deny"`
			DefaultMode           string          `json:"defaultMode"`
			AdditionalDirectories json.RawMessage `json:"additionalDirectories"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(std, &raw); err != nil {
		return File{}, fmt.Errorf("not a settings object (hooks, permissions: {allow, ask, deny} lists of strings): %w", decodeerr.JSON(err, std))
	}
	f := File{}
	if len(raw.Hooks) > 0 && string(raw.Hooks) != "null" {
		f.Hooks = raw.Hooks
	}
	if p := raw.Permissions; p != nil {
		f.Allow, f.Ask, f.Deny = p.Allow, p.Ask, p.Deny
		if p.DefaultMode != "" && p.DefaultMode != "default" {
			// Zero's auto-accept also runs shell commands, so acceptEdits
			// cannot map onto it without allowing more than Claude does.
			f.Unapplied = append(f.Unapplied, fmt.Sprintf("permissions.defaultMode %q is not applied (Zero's modes differ: use --permission-mode or \"permissionMode\" in Zero's config)", p.DefaultMode))
		}
		if len(p.AdditionalDirectories) > 0 && string(p.AdditionalDirectories) != "null" && string(p.AdditionalDirectories) != "[]" {
			f.Unapplied = append(f.Unapplied, "permissions.additionalDirectories is not applied (use --add-dir)")
		}
	}
	return f, nil
}

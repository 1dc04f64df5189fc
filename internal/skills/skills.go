// Package skills owns Agent Skills (the open SKILL.md format,
// https://agentskills.io/specification): a folder NAME/ holding SKILL.md,
// whose YAML front matter gives a name, a description and optionally
// allowed-tools, and whose body, with the files beside it, the model reads
// only when it uses the skill (progressive disclosure).
//
// Where skills come from, first found wins for a name:
//
//  1. the user's folders: <config dir>/skills (~/.config/zero/skills),
//     ~/.agents/skills, ~/.claude/skills;
//  2. the project's, from the working directory up to the repository
//     root, nearest folder first, and in each folder .zero/skills,
//     .agents/skills, .claude/skills — only when the folder is trusted
//     (`zero trust`): a skill is instructions the model follows, and a
//     cloned repository must not hand it some, nor shadow a user's skill;
//  3. the enabled plugins' skills folders (Options.Plugins), named
//     PLUGIN:SKILL so they never take a name of the user's or the
//     project's (Claude Code's namespacing,
//     https://docs.claude.com/en/docs/claude-code/plugins-reference).
//
// This package discovers skills, lists their names and descriptions for
// the system prompt within a byte budget (Listing), searches them, and
// offers the skill tool that reads a body or a file beside it (tool.go).
// It must not decide permissions (the trust state is an input) nor run
// anything.
package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/zero-agent/zero/internal/frontmatter"
	"github.com/zero-agent/zero/internal/rules"
)

// File is the file a skill folder holds.
const File = "SKILL.md"

// MaxDescription is the spec's cap on a description, in bytes; a longer
// one is cut.
const MaxDescription = 1024

// Scope says whose a skill is.
type Scope string

// Scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
	// Plugin: from a plugin the user installed and enabled (`zero
	// plugin`); it loads like the user's own, whatever the folder's trust.
	Plugin Scope = "plugin"
)

// Skill is one discovered skill (its body stays on disk until used).
type Skill struct {
	Name, Description string
	// AllowedTools is the front matter's allowed-tools, as written.
	AllowedTools []string
	// Dir is the folder holding SKILL.md.
	Dir   string
	Scope Scope
}

// Path is the skill's SKILL.md.
func (s Skill) Path() string { return filepath.Join(s.Dir, File) }

// Body reads the skill's instructions (SKILL.md without its front matter).
func (s Skill) Body() (string, error) {
	data, err := os.ReadFile(s.Path())
	if err != nil {
		return "", err
	}
	d, err := frontmatter.Parse(data)
	if err != nil {
		return "", fmt.Errorf("%s: %v", s.Path(), err)
	}
	return d.Body, nil
}

// Options say where to look.
type Options struct {
	// Workdir is the working directory; project folders are looked for
	// from it up to the repository root (the nearest folder holding .git;
	// Workdir alone outside a repository).
	Workdir string
	// Home is the user's home; ConfigDir Zero's config directory.
	Home, ConfigDir string
	// Trusted: the project's folders load (the folder is trusted).
	Trusted bool
	// Plugins are the enabled plugins' folders, read after the user's
	// and the project's (internal/plugins finds them).
	Plugins []Namespace
}

// Namespace is one plugin's skills, commands and agent definitions:
// their names are Prefix:NAME.
type Namespace struct {
	Prefix string
	// Skills are folders holding skill folders; Commands are command
	// folders or single command files; Agents agent definition folders
	// or single files (internal/subagents reads them).
	Skills, Commands, Agents []string
}

// Set is the skills found, in precedence order, with notes on what was
// skipped and why.
type Set struct {
	Skills []Skill
	Notes  []string
	// Untrusted counts project skills not loaded because the folder is
	// not trusted; Broken those skipped because they cannot be read or
	// parsed.
	Untrusted, Broken int
}

// Folders are the skills folders of a project directory, in precedence
// order (Zero's, the cross-agent one, Claude Code's).
var Folders = []string{".zero/skills", ".agents/skills", ".claude/skills"}

// Dirs are the skills folders o names, in precedence order, with the
// scope of each.
func Dirs(o Options) (dirs []string, scopes []Scope) {
	if o.ConfigDir != "" {
		dirs, scopes = append(dirs, filepath.Join(o.ConfigDir, "skills")), append(scopes, User)
	}
	if o.Home != "" {
		for _, f := range Folders[1:] {
			dirs, scopes = append(dirs, filepath.Join(o.Home, f)), append(scopes, User)
		}
	}
	for _, d := range ProjectDirs(o.Workdir) {
		for _, f := range Folders {
			p := filepath.Join(d, f)
			if o.Home != "" && (p == filepath.Join(o.Home, f)) {
				continue // the home folder is the user's, not a project's
			}
			dirs, scopes = append(dirs, p), append(scopes, Project)
		}
	}
	return dirs, scopes
}

// ProjectDirs are dir and its parents up to the repository root, nearest
// first (dir alone outside a repository). Commands share it.
func ProjectDirs(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return out
		}
		if filepath.Dir(d) == d {
			return out[:1] // no repository: the working directory only
		}
	}
}

// Discover finds the skills o names. An unreadable or malformed skill is
// skipped with a note; it never stops the others.
func Discover(o Options) *Set {
	s := &Set{}
	seen := map[string]string{}
	dirs, scopes := Dirs(o)
	for i, dir := range dirs {
		s.addDir(dir, scopes[i], "", o.Trusted, seen)
	}
	for _, ns := range o.Plugins {
		for _, dir := range ns.Skills {
			s.addDir(dir, Plugin, ns.Prefix, true, seen)
		}
	}
	if s.Untrusted > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d project skill(s) not loaded: the folder is not trusted (zero trust loads them)", s.Untrusted))
	}
	return s
}

// addDir adds the skill folders in dir, named prefix:NAME when prefix is
// set; names in seen are taken.
func (s *Set) addDir(dir string, scope Scope, prefix string, trusted bool, seen map[string]string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(sub, File)); err != nil {
			continue
		}
		if scope == Project && !trusted {
			s.Untrusted++
			continue
		}
		sk, err := load(sub, scope)
		if err != nil {
			s.Notes = append(s.Notes, err.Error())
			s.Broken++
			continue
		}
		if prefix != "" {
			sk.Name = prefix + ":" + sk.Name
		}
		if first, dup := seen[sk.Name]; dup {
			s.Notes = append(s.Notes, fmt.Sprintf("skill %s in %s is shadowed by %s", sk.Name, sub, first))
			continue
		}
		seen[sk.Name] = sub
		s.Skills = append(s.Skills, sk)
	}
}

// namePattern is a usable skill name: the spec's lowercase letters,
// digits and hyphens, with underscores, dots and capitals tolerated (they
// are common in the wild), at most 64 characters.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// load reads one skill folder's SKILL.md.
func load(dir string, scope Scope) (Skill, error) {
	path := filepath.Join(dir, File)
	data, err := os.ReadFile(path)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s skipped: %v", path, err)
	}
	sk, err := Parse(data, filepath.Base(dir))
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s skipped: %v", path, err)
	}
	sk.Dir, sk.Scope = dir, scope
	return sk, nil
}

// Parse reads a SKILL.md's front matter; folder is its folder's name, the
// name when the front matter gives none.
func Parse(data []byte, folder string) (Skill, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return Skill{}, err
	}
	name := d.String("name")
	if name == "" {
		name = folder
	}
	if !namePattern.MatchString(name) {
		return Skill{}, fmt.Errorf("name %q is not 1-64 letters, digits, hyphens", name)
	}
	desc := strings.Join(strings.Fields(rules.Sanitize(d.String("description"))), " ")
	if desc == "" {
		return Skill{}, fmt.Errorf("no description in the front matter (the model picks skills by it)")
	}
	if len(desc) > MaxDescription {
		desc = cut(desc, MaxDescription)
	}
	return Skill{Name: name, Description: desc, AllowedTools: d.List("allowed-tools")}, nil
}

// Get returns the skill called name.
func (s *Set) Get(name string) (Skill, bool) {
	if s == nil {
		return Skill{}, false
	}
	for _, sk := range s.Skills {
		if sk.Name == name {
			return sk, true
		}
	}
	return Skill{}, false
}

// Len is the number of skills (0 for nil).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Skills)
}

// cut shortens s to at most n bytes at a rune boundary, with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

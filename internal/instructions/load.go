package instructions

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/shellguard"
)

// Origin says why a file was loaded.
type Origin string

// Origins.
const (
	User    Origin = "user"    // the user's own files
	Project Origin = "project" // found from the working directory up to the repository root
	Import  Origin = "import"  // an `@path` import of another file
	Nested  Origin = "nested"  // below the working directory, added when the model first worked there
)

// projectNames are the project's instruction files in the order they
// speak within one folder: the shared convention, Claude's, the personal
// override, Zero's own last.
var projectNames = []string{"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", rules.ProseFile}

// nestedNames are the files Nested adds for a folder below the working
// directory (Claude Code reads a subtree's CLAUDE.md on demand too).
var nestedNames = []string{"AGENTS.md", "CLAUDE.md"}

// maxFileBytes bounds what is read of one file; the budget keeps far less.
const maxFileBytes = 1 << 20

// File is one loaded instruction file.
type File struct {
	// Path is the file's absolute path.
	Path string
	// Name is how the prompt and reports name it: relative to the
	// working directory inside it (so read_file takes it), else with ~
	// for the home directory.
	Name   string
	Origin Origin
	// ImportedBy is the Name of the file whose `@path` loaded this one.
	ImportedBy string
	// Bytes is the size of the sanitized text; Shown is how much of it
	// reached the model (less when the budget cut it).
	Bytes, Shown int

	text string
}

// Options say where to look.
type Options struct {
	// Workdir is the working directory (the workspace root).
	Workdir string
	// Home is the user's home directory ("": no ~/.claude/CLAUDE.md).
	Home string
	// ConfigDir is Zero's config directory (config.Dir(); "": none).
	ConfigDir string
	// Trusted is whether the user trusted the folder (`zero trust`):
	// only then are imports from outside the project read.
	Trusted bool
	// Budget is the byte budget of the system prompt's instructions
	// (0: DefaultBudget).
	Budget int
}

// Set is the instruction files of a run. Its methods are safe for
// concurrent use (tools run in parallel and call Nested).
type Set struct {
	opts Options
	// root is the project root: the repository root holding Workdir, or
	// Workdir outside a repository.
	root string
	text string
	// promptBytes is how much of the files' text Text holds.
	promptBytes int

	mu     sync.Mutex
	files  []File
	notes  []string
	loaded map[string]bool // real paths
}

// Load finds and reads the instruction files of o.Workdir. Unreadable
// files become notes, never errors: instructions are advice.
func Load(o Options) *Set {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	s := &Set{opts: o, root: repoRoot(o.Workdir), loaded: map[string]bool{}}
	if o.Home != "" {
		s.add(filepath.Join(o.Home, ".claude", "CLAUDE.md"), User, "", 0)
	}
	if o.ConfigDir != "" {
		s.add(filepath.Join(o.ConfigDir, "AGENTS.md"), User, "", 0)
	}
	for _, p := range projectFiles(o.Workdir, s.root) {
		s.add(p, Project, "", 0)
	}
	s.text = s.assemble(s.files, o.Budget)
	for _, f := range s.files {
		s.promptBytes += f.Shown
	}
	return s
}

// repoRoot is the nearest folder at or above dir holding .git (a folder
// or, in a worktree or submodule, a file), else dir.
func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// projectFiles are the root's and the nearest copy of each project name,
// from the root down, in projectNames order within a folder.
func projectFiles(dir, root string) []string {
	var dirs []string // root first
	for d := dir; ; d = filepath.Dir(d) {
		dirs = append([]string{d}, dirs...)
		if d == root || filepath.Dir(d) == d {
			break
		}
	}
	want := map[string]bool{}
	for _, name := range projectNames {
		if exists(filepath.Join(root, name)) {
			want[filepath.Join(root, name)] = true
		}
		for i := len(dirs) - 1; i >= 0; i-- {
			if p := filepath.Join(dirs[i], name); exists(p) {
				want[p] = true
				break
			}
		}
	}
	var out []string
	for _, d := range dirs {
		for _, name := range projectNames {
			if p := filepath.Join(d, name); want[p] {
				out = append(out, p)
			}
		}
	}
	return out
}

func exists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// add reads path and, depth first, its imports; a missing top-level file
// is no news. Callers hold s.mu or own s alone.
func (s *Set) add(path string, origin Origin, importedBy string, depth int) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if origin == Import && errors.Is(err, os.ErrNotExist) {
			s.note("@%s in %s: no such file", s.name(path), importedBy)
		}
		return
	}
	if s.loaded[real] {
		return
	}
	text, err := readText(real)
	if err != nil {
		s.note("%s: %v", s.name(path), err)
		return
	}
	s.loaded[real] = true
	f := File{Path: path, Name: s.name(path), Origin: origin, ImportedBy: importedBy, Bytes: len(text), text: text}
	s.files = append(s.files, f)
	s.imports(f, real, depth, origin == User || s.userChain(importedBy))
}

// imports loads the `@path` imports of f (read from real).
func (s *Set) imports(f File, real string, depth int, fromUser bool) {
	for _, imp := range Imports(f.text) {
		p := s.resolve(imp, filepath.Dir(f.Path))
		switch {
		case depth+1 > MaxImportDepth:
			s.note("@%s in %s: not imported, imports go at most %d levels deep", imp, f.Name, MaxImportDepth)
		case s.onChain(p, f):
			s.note("@%s in %s: not imported, it imports %s again (a cycle)", imp, f.Name, f.Name)
		case s.secret(p) != "":
			s.note("@%s in %s: not imported, it is a secret file (%s)", imp, f.Name, s.secret(p))
		case !fromUser && !s.opts.Trusted && !s.inProject(p):
			if exists(p) {
				s.note("@%s in %s: outside the project; imports from outside it are read after `zero trust`", imp, f.Name)
			}
		default:
			s.add(p, Import, f.Name, depth+1)
		}
	}
}

// resolve is an import's path: ~/ is the home directory, a relative path
// is relative to the importing file's folder.
func (s *Set) resolve(imp, dir string) string {
	switch {
	case strings.HasPrefix(imp, "~/") && s.opts.Home != "":
		return filepath.Join(s.opts.Home, imp[2:])
	case filepath.IsAbs(imp):
		return filepath.Clean(imp)
	}
	return filepath.Join(dir, imp)
}

// secret is the kind of secret p (symlinks resolved) is, "" for none:
// the files the tools never read (shellguard.SecretPath: .env files, SSH
// and cloud credentials, private keys, Zero's own credentials) are never
// imported either, trusted folder or not.
func (s *Set) secret(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = filepath.Clean(p)
	}
	kind, _ := shellguard.SecretPath(real, s.opts.Home, s.opts.ConfigDir)
	return kind
}

// onChain reports whether p is f or one of the files that imported f.
func (s *Set) onChain(p string, f File) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	for cur := &f; cur != nil; cur = s.byName(cur.ImportedBy) {
		if r, _ := filepath.EvalSymlinks(cur.Path); r == real {
			return true
		}
	}
	return false
}

// userChain reports whether the file named name is a user file or was
// imported, however deep, by one.
func (s *Set) userChain(name string) bool {
	for cur := s.byName(name); cur != nil; cur = s.byName(cur.ImportedBy) {
		if cur.Origin == User {
			return true
		}
	}
	return false
}

func (s *Set) byName(name string) *File {
	if name == "" {
		return nil
	}
	for i := range s.files {
		if s.files[i].Name == name {
			return &s.files[i]
		}
	}
	return nil
}

// inProject reports whether p (symlinks resolved) is inside the project
// root.
func (s *Set) inProject(p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = p
	}
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		root = s.root
	}
	return within(real, root)
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// name is how p is shown: relative to the working directory inside it,
// else ~/… under the home directory, else absolute.
func (s *Set) name(p string) string {
	if within(p, s.opts.Workdir) {
		if rel, err := filepath.Rel(s.opts.Workdir, p); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	if h := s.opts.Home; h != "" && within(p, h) {
		rel, _ := filepath.Rel(h, p)
		return "~/" + filepath.ToSlash(rel)
	}
	return p
}

// readText reads a regular file, sanitized like ZERO.md and trimmed.
func readText(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileBytes))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(rules.Sanitize(string(b))), nil
}

func (s *Set) note(format string, args ...any) {
	s.notes = append(s.notes, fmt.Sprintf(format, args...))
}

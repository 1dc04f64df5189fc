package instructions

import (
	"os"
	"path/filepath"
	"strings"
)

// Nested returns the instruction text of the folders between the working
// directory and path that the model has not seen yet: an AGENTS.md or
// CLAUDE.md in path's folder, or in a folder between it and the working
// directory (the working directory's own are in the system prompt already).
// path is a file or folder the model read or wrote, absolute or relative
// to the working directory. Each file is returned once per Set, shallow
// first, its imports after it, cut to NestedBudget; "" when there is
// nothing new. The run layer appends the text to the tool result.
func (s *Set) Nested(path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.opts.Workdir, path)
	}
	dir := filepath.Clean(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	if dir == s.opts.Workdir || !within(dir, s.opts.Workdir) {
		return ""
	}
	rel, _ := filepath.Rel(s.opts.Workdir, dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	before := len(s.files)
	d := s.opts.Workdir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, part)
		for _, name := range nestedNames {
			s.add(filepath.Join(d, name), Nested, "", 0)
		}
	}
	return s.assemble(s.files[before:], NestedBudget)
}

package shellguard

import (
	"path/filepath"
	"strings"
)

// undoable reports whether a delete of p (a glob when glob) removes only
// files a checkpoint records, so a rewind can bring them back: p is
// strictly inside the workspace root (never the root itself, an added
// root or a temp directory), names nothing in .git or .zero (a glob
// component that could match them counts), and Options.Undoable, which
// resolves symbolic links, agrees. Without Options.Undoable nothing is.
func (c *checker) undoable(p string, glob bool) bool {
	ws := filepath.Clean(c.opts.Workspace)
	if c.opts.Undoable == nil || p == ws || !within(p, ws) || strings.Contains(p, unknown) {
		return false
	}
	rel, _ := filepath.Rel(ws, p)
	fixed := ws // the part of p before its first glob component
	globbed := false
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		isGlob := glob && strings.ContainsAny(part, "*?[")
		for _, ctl := range []string{".git", ".zero"} {
			if part == ctl {
				return false
			}
			// bash's globs match a leading dot only when written (or
			// with dotglob on): "*" does not match .git, ".g*" does.
			m, err := filepath.Match(part, ctl)
			if isGlob && (m || err != nil) && (strings.HasPrefix(part, ".") || c.dotglob) {
				return false
			}
		}
		if isGlob {
			globbed = true
		}
		if !globbed {
			fixed = filepath.Join(fixed, part)
		}
	}
	return c.opts.Undoable(fixed) // the root itself only for a glob, whose parts were checked above
}

// shopt notes `shopt -s dotglob` (undoable reads it).
func (c *checker) shopt(cmd command) {
	set := false
	for _, a := range cmd.args {
		switch {
		case !a.known():
			c.dotglob = true // an option computed at run time may be it
		case a.s == "-s":
			set = true
		case a.s == "dotglob" && set:
			c.dotglob = true
		}
	}
}

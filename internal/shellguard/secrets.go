package shellguard

import (
	"path/filepath"
	"strings"
)

// maxGlobMatches bounds how many paths one glob argument is checked
// against the secret list; past it the glob asks (it may hide one).
const maxGlobMatches = 512

// maxGlobDepth bounds how many path components of one glob may hold
// wildcards; a deeper glob (/*/*/*/*/*) could walk most of the disk, so
// it asks instead of being expanded.
const maxGlobDepth = 4

// globDepth counts the components of p holding glob characters.
func globDepth(p string) int {
	n := 0
	for _, part := range strings.Split(p, string(filepath.Separator)) {
		if strings.ContainsAny(part, "*?[") {
			n++
		}
	}
	return n
}

// secretArg reports whether the known argument a names a secret: as
// written; or, for a glob, any path it matches on disk now (cat .e?v,
// cat ~/.ss?/id_*); or, for a path that exists, the file its symlinks
// lead to (cat notes.txt where notes.txt -> .env). what quotes the
// argument and, when different, the secret it reaches. This is the only
// place the guard reads the file system: directory listings and symlink
// targets, never file contents.
func (c *checker) secretArg(a arg, part string) (what, kind string, ok bool) {
	p := c.resolve(a.s)
	if kind, ok := c.secretPath(p); ok {
		return quote(a.s), kind, true
	}
	if containsUnknown(p) {
		return "", "", false
	}
	if a.glob {
		if globDepth(p) > maxGlobDepth {
			return quote(a.s), "a glob too deep for the guard to check", true
		}
		matches, err := filepath.Glob(p)
		if err != nil {
			return "", "", false
		}
		if !c.spendN(len(matches), part) {
			return "", "", false
		}
		if len(matches) > maxGlobMatches {
			return quote(a.s), "a glob matching more files than the guard checks", true
		}
		for _, m := range matches {
			if kind, ok := c.secretPath(m); ok {
				return quote(a.s) + ", which matches " + quote(m), kind, true
			}
			if r, err := filepath.EvalSymlinks(m); err == nil && r != m {
				if kind, ok := c.secretPath(r); ok {
					return quote(a.s) + ", which matches " + quote(m) + ", a link to " + quote(r), kind, true
				}
			}
		}
		return "", "", false
	}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
		if kind, ok := c.secretPath(r); ok {
			return quote(a.s) + ", a link to " + quote(r), kind, true
		}
	}
	return "", "", false
}

// secretPath is SecretPath against the home directory as given and with
// its symlinks resolved (a resolved target under /private/var/... is
// still under a home spelled /var/...).
func (c *checker) secretPath(p string) (string, bool) {
	if kind, ok := SecretPath(p, c.opts.Home, ""); ok {
		return kind, true
	}
	if c.realHome == "" {
		c.realHome = c.opts.Home
		if r, err := filepath.EvalSymlinks(c.opts.Home); err == nil {
			c.realHome = r
		}
	}
	if c.realHome != c.opts.Home {
		return SecretPath(p, c.realHome, "")
	}
	return "", false
}

func containsUnknown(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == unknown[0] {
			return true
		}
	}
	return false
}

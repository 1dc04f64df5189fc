package tools

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one line of a .gitignore (format: gitignore(5)).
type ignoreRule struct {
	pattern  string // slash-separated, no leading "/" or trailing "/"
	negate   bool   // "!pattern" re-includes
	dirOnly  bool   // "pattern/" matches directories only
	anchored bool   // contains a "/" before the end: relative to the file's dir
}

// parseIgnore reads .gitignore lines; blank lines and comments are skipped,
// "\#" and "\!" escape, unescaped trailing spaces are trimmed.
func parseIgnore(data []byte) []ignoreRule {
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
			line = line[:len(line)-1]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if line == "" || !doublestar.ValidatePattern(line) {
			continue
		}
		r.pattern = line
		rules = append(rules, r)
	}
	return rules
}

// ignorer answers "is this path ignored?" for one walk, from the
// .gitignore files of each directory between the walk's root and the path
// (plus .git/info/exclude at the root). Later, deeper rules win.
type ignorer struct {
	root  string                  // absolute root of the repository/workspace
	rules map[string][]ignoreRule // by absolute directory
}

func newIgnorer(root string) *ignorer {
	ig := &ignorer{root: root, rules: map[string][]ignoreRule{}}
	if data, err := os.ReadFile(filepath.Join(root, ".git", "info", "exclude")); err == nil {
		ig.rules[root] = parseIgnore(data)
	}
	return ig
}

// load reads dir/.gitignore once; call it when a walk enters dir, and for
// every ancestor of a walk started below the root.
func (ig *ignorer) load(dir string) {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return
	}
	ig.rules[dir] = append(ig.rules[dir], parseIgnore(data)...)
}

// loadAncestors loads the .gitignore of root and of every directory
// between root and dir (exclusive of dir, which the walk loads itself).
func (ig *ignorer) loadAncestors(dir string) {
	rel, err := filepath.Rel(ig.root, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return
	}
	cur := ig.root
	ig.load(cur)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, p)
		ig.load(cur)
	}
}

// chain lists, top-down, the directories strictly above dir (up to the
// root) that have rules: the directories whose rules apply to dir's
// entries besides dir's own.
func (ig *ignorer) chain(dir string) []string {
	if len(ig.rules) == 0 || dir == ig.root || dir == filepath.Dir(dir) {
		return nil
	}
	var dirs []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if _, ok := ig.rules[d]; ok {
			dirs = append(dirs, d)
		}
		if d == ig.root || d == filepath.Dir(d) {
			break
		}
	}
	slices.Reverse(dirs)
	return dirs
}

// ignored reports whether abs is excluded. VCS metadata directories are
// always excluded.
func (ig *ignorer) ignored(abs string, isDir bool) bool {
	dir := filepath.Dir(abs)
	chain := ig.chain(dir)
	if _, ok := ig.rules[dir]; ok {
		chain = append(chain, dir)
	}
	return ig.ignoredIn(abs, filepath.Base(abs), isDir, chain)
}

// ignoredIn is ignored for an entry named base whose applicable rule
// directories (top-down, ending with its own directory if that has rules)
// are known: deeper files and later lines win.
func (ig *ignorer) ignoredIn(abs, base string, isDir bool, dirs []string) bool {
	if isDir && (base == ".git" || base == ".hg" || base == ".svn") {
		return true
	}
	ignored := false
	for _, d := range dirs {
		rel := filepath.ToSlash(abs[len(d):])
		rel = strings.TrimPrefix(rel, "/")
		for _, r := range ig.rules[d] {
			if r.dirOnly && !isDir {
				continue
			}
			if r.negate != ignored {
				continue // only a rule that would flip the state matters
			}
			var hit bool
			if r.anchored {
				hit = doublestar.MatchUnvalidated(r.pattern, rel)
			} else {
				hit = doublestar.MatchUnvalidated(r.pattern, base)
			}
			if hit {
				ignored = !r.negate
			}
		}
	}
	return ignored
}

// Ignore answers, for one walk of a tree from its root, whether a path is
// ignored by the .gitignore files met so far (and .git/info/exclude):
// call Enter on each directory before asking about its entries. The
// checkpoint tracker scans the workspace with it.
type Ignore struct{ ig *ignorer }

// NewIgnore starts a walk of root.
func NewIgnore(root string) *Ignore { return &Ignore{ig: newIgnorer(root)} }

// Enter reads dir's .gitignore.
func (i *Ignore) Enter(dir string) { i.ig.load(dir) }

// Ignored reports whether abs is excluded.
func (i *Ignore) Ignored(abs string, isDir bool) bool { return i.ig.ignored(abs, isDir) }

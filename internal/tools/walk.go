package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zero-agent/zero/internal/workspace"
)

// walkFiles calls fn for every regular file under start (an absolute,
// resolved directory inside ws), in lexical order (each directory's
// entries sorted by name, subdirectories entered where they sort, as
// filepath.WalkDir does), skipping paths the .gitignore files exclude and
// VCS metadata. Symlinks are never followed or reported, so a link leading
// out of the workspace is never read (B22). fn may return fs.SkipAll to
// stop (walkFiles then returns nil) or fs.SkipDir to skip the rest of the
// file's directory. Unreadable directories below start are skipped; an
// unreadable start is an error.
//
// A directory's .gitignore is read only when its listing has one, and the
// directories whose rules apply are carried down the walk rather than
// looked up for every file.
func walkFiles(ctx context.Context, ws *workspace.Workspace, start string, fn func(abs string) error) error {
	root, ok := ws.RootOf(start)
	if !ok {
		root = start
	}
	ig := newIgnorer(root)
	ig.loadAncestors(start)
	fi, err := os.Lstat(start)
	if err != nil {
		return err
	}
	w := &walker{ctx: ctx, ig: ig, fn: fn, start: start}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		err = nil
	case fi.IsDir():
		err = w.dir(start, ig.chain(start))
	case fi.Mode().IsRegular() && !ig.ignored(start, false):
		err = fn(start)
	}
	if err == fs.SkipAll || err == fs.SkipDir {
		return nil
	}
	return err
}

// walker is one walkFiles run.
type walker struct {
	ctx   context.Context
	ig    *ignorer
	fn    func(abs string) error
	start string
	n     int // entries seen, for checking ctx every 1024
}

// dir walks the directory dir; chain lists, top-down, the directories
// above dir whose ignore rules apply to it.
func (w *walker) dir(dir string, chain []string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if dir == w.start {
			return err
		}
		w.ig.load(dir) // the listing may be partial: look for .gitignore directly
	} else if hasRegularOrLink(entries, ".gitignore") {
		w.ig.load(dir)
	}
	if _, ok := w.ig.rules[dir]; ok {
		chain = append(chain[:len(chain):len(chain)], dir)
	}
	prefix := dir
	if !os.IsPathSeparator(dir[len(dir)-1]) {
		prefix += string(filepath.Separator)
	}
	for _, e := range entries {
		if w.n++; w.n%1024 == 0 && w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		name := e.Name()
		p := prefix + name
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
		case t.IsDir():
			if w.ig.ignoredIn(p, name, true, chain) {
				continue
			}
			if err := w.dir(p, chain); err != nil {
				return err
			}
		case !t.IsRegular():
		case w.ig.ignoredIn(p, name, false, chain):
		default:
			switch err := w.fn(p); err {
			case nil:
			case fs.SkipDir:
				return nil
			default:
				return err
			}
		}
	}
	return nil
}

// hasRegularOrLink reports whether the sorted entries hold name as
// something other than a directory (os.ReadFile follows a linked
// .gitignore, as git does not, but the walk always has).
func hasRegularOrLink(entries []os.DirEntry, name string) bool {
	for _, e := range entries {
		if e.Name() == name {
			return !e.IsDir()
		}
	}
	return false
}

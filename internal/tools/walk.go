package tools

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/zero-agent/zero/internal/workspace"
)

// walkFiles calls fn for every regular file under start (an absolute,
// resolved directory inside ws), in lexical order, skipping paths the
// .gitignore files exclude and VCS metadata. Symlinks are never followed
// or reported, so a link leading out of the workspace is never read (B22).
// fn may return fs.SkipAll to stop.
func walkFiles(ctx context.Context, ws *workspace.Workspace, start string, fn func(abs string) error) error {
	root, ok := ws.RootOf(start)
	if !ok {
		root = start
	}
	ig := newIgnorer(root)
	ig.loadAncestors(start)
	n := 0
	return filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // unreadable entry: skip it, keep walking
		}
		if n++; n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return nil
		case d.IsDir():
			if p != start && ig.ignored(p, true) {
				return filepath.SkipDir
			}
			ig.load(p)
			return nil
		case !d.Type().IsRegular():
			return nil
		case ig.ignored(p, false):
			return nil
		}
		return fn(p)
	})
}

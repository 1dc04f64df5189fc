package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/checkpoint"
	"github.com/zero-agent/zero/internal/tools"
)

// undoWalkLimit caps the entries undoable looks at under a delete's
// target; a bigger tree is not called undoable (the delete asks).
const undoWalkLimit = 20000

// errNotRecorded stops undoable's walk at the first entry a checkpoint
// would not record.
var errNotRecorded = errors.New("not recorded")

// undoable is shellguard.Options.Undoable when checkpoints are on: a
// delete of abs can be rewound when abs, its symbolic links resolved, is
// in the workspace root (not an added root, whose files checkpoints do
// not record), outside .git and .zero, and everything it would remove is
// something a checkpoint records (internal/checkpoint's tree scan):
// regular files up to the size limit, not .gitignored, with no symbolic
// link, nested repository or special file among them.
func (e *Engine) undoable(abs string) bool {
	real, err := e.ws.Resolve(abs, false)
	if err != nil {
		return false
	}
	root := e.ws.Root()
	if !pathWithin(real, root, e.fold) {
		return false
	}
	if _, _, ctl := e.controlDir(real); ctl {
		return false
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return false
	}
	ig := tools.NewIgnore(root)
	ig.Enter(root)
	if ok, done := recordedPath(ig, root, real); done {
		return ok
	}
	return recordedTree(ig, root, real) == nil
}

// recordedPath checks the directories from root down to real and real
// itself: done when the answer is known there (real is a file, is
// missing, or an ignored or special entry is on the way).
func recordedPath(ig *tools.Ignore, root, real string) (ok, done bool) {
	if real == root {
		return false, false
	}
	rel, _ := filepath.Rel(root, real)
	parts := strings.Split(rel, string(filepath.Separator))
	dir := root
	for i, part := range parts {
		child := filepath.Join(dir, part)
		fi, err := os.Lstat(child)
		if errors.Is(err, fs.ErrNotExist) {
			return true, true // nothing there to lose
		}
		if err != nil || ig.Ignored(child, fi.IsDir()) {
			return false, true
		}
		if !fi.IsDir() {
			return i == len(parts)-1 && fi.Mode().IsRegular() && fi.Size() <= checkpoint.DefaultMaxFileSize, true
		}
		ig.Enter(child)
		dir = child
	}
	return false, false
}

// recordedTree walks the directory real: nil when every entry under it
// is one a checkpoint records (at the root, .git and .zero are skipped:
// the guard has made sure the delete does not name them).
func recordedTree(ig *tools.Ignore, root, real string) error {
	n := 0
	return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == real {
			return nil
		}
		if n++; n > undoWalkLimit {
			return errNotRecorded
		}
		if real == root && d.IsDir() && (p == filepath.Join(root, ".git") || p == filepath.Join(root, ".zero")) {
			return filepath.SkipDir
		}
		if d.Name() == ".git" || ig.Ignored(p, d.IsDir()) {
			return errNotRecorded
		}
		if d.IsDir() {
			ig.Enter(p)
			return nil
		}
		info, err := d.Info()
		if err != nil || !d.Type().IsRegular() || info.Size() > checkpoint.DefaultMaxFileSize {
			return errNotRecorded
		}
		return nil
	})
}

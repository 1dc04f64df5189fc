package workspace

import (
	"fmt"
)

// Remove deletes the resolved file abs through the os.Root holding it (a
// symlink at the final component is removed, never followed). It refuses
// directories and read-only roots.
func (w *Workspace) Remove(abs string) error {
	if rt, ok := w.rootOf(abs); ok && rt.readOnly {
		return fmt.Errorf("%s is in a read-only directory (%s)", abs, rt.path)
	}
	r, rel, err := w.handle(abs)
	if err != nil {
		return err
	}
	fi, err := r.Lstat(rel)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", abs)
	}
	return r.Remove(rel)
}

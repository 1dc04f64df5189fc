package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The helpers below take a path already returned by Resolve and do the I/O
// through the os.Root of the root that holds it, so a symlink swapped in
// after Resolve cannot lead outside at open time (B22: check-then-open).

// handle returns the os.Root holding abs and abs relative to it.
func (w *Workspace) handle(abs string) (*os.Root, string, error) {
	r, ok := w.rootOf(abs)
	if !ok {
		return nil, "", &OutsideError{Path: abs, Resolved: abs, Root: w.Root()}
	}
	rel, err := filepath.Rel(r.path, abs)
	if err != nil {
		return nil, "", err
	}
	return r.fs, rel, nil
}

// Open opens the resolved path abs for reading.
func (w *Workspace) Open(abs string) (*os.File, error) {
	r, rel, err := w.handle(abs)
	if err != nil {
		return nil, err
	}
	return r.Open(rel)
}

// Stat returns the FileInfo of the resolved path abs (following links
// that stay inside the root).
func (w *Workspace) Stat(abs string) (fs.FileInfo, error) {
	r, rel, err := w.handle(abs)
	if err != nil {
		return nil, err
	}
	return r.Stat(rel)
}

// ReadFile returns the contents of the resolved path abs.
func (w *Workspace) ReadFile(abs string) ([]byte, error) {
	r, rel, err := w.handle(abs)
	if err != nil {
		return nil, err
	}
	if e := w.editorFor(abs); e != nil {
		if text, ok := e.ReadText(abs); ok {
			return []byte(text), nil
		}
	}
	return r.ReadFile(rel)
}

// WriteFile replaces the resolved path abs with data: missing parent
// directories are created (0o755) inside the root, the bytes go to a fresh
// temporary file created with O_EXCL next to the target, which is then
// renamed over it, so readers never see a half-written file and a symlink
// planted at the final component is replaced, never followed. An existing
// file keeps its permission bits; a new one gets 0o644.
func (w *Workspace) WriteFile(abs string, data []byte) error {
	if rt, ok := w.rootOf(abs); ok && rt.readOnly {
		return fmt.Errorf("%s is in a read-only directory (%s)", abs, rt.path)
	}
	r, rel, err := w.handle(abs)
	if err != nil {
		return err
	}
	if e := w.editorFor(abs); e != nil {
		if fi, err := r.Lstat(rel); err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a directory", abs)
		}
		if ok, err := e.WriteText(abs, data); ok || err != nil {
			return err
		}
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	mode := fs.FileMode(0o644)
	if fi, err := r.Lstat(rel); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", abs)
		}
		if fi.Mode().IsRegular() {
			mode = fi.Mode().Perm()
		}
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+".zero-"+hex.EncodeToString(suffix[:]))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = r.Rename(tmp, rel)
	}
	if werr != nil {
		_ = r.Remove(tmp)
		return werr
	}
	return nil
}

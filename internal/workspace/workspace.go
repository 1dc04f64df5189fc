// Package workspace confines file access to the project directory and any
// extra roots the user added. It owns one question: "which real file does
// this model-supplied path name, and is that file inside?" Every path is
// resolved with symlinks followed component by component (parents, final
// component, dangling links, "..", absolute paths, non-existent tails for
// new files) and the decision is taken on the resolved path, component-wise
// (never a string-prefix test: cases B22, B23). File I/O then goes through
// os.Root handles so an escape planted between the check and the open is
// still refused at open time.
//
// It must not decide permissions or modes (internal/permission does) and it
// cannot confine a shell: `cat link.txt` in bash follows the link; only an
// OS sandbox can stop that (B22, nanobot#4072).
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Workspace is a set of resolved root directories; the first is the
// workspace root that relative paths are relative to. It is safe for
// concurrent use. The zero value is not usable: call New.
type Workspace struct {
	// mu guards roots, which AddReadRoot replaces (copy on write) while
	// tools may be resolving paths (a sub-agent's session opening while
	// its parent's tools run).
	mu    sync.RWMutex
	roots []root
	// editor, when set, holds the writable roots' files (editor.go).
	editor atomic.Pointer[editorBox]
}

type root struct {
	path string   // absolute, cleaned, symlink-free
	fs   *os.Root // handle that refuses escapes at open time
	// readOnly roots (AddReadRoot) may be read, never written.
	readOnly bool
}

// OutsideError reports a path that resolves outside every root. Its message
// is written for the model: it names the path as given, where it leads when
// a symlink was involved, and the workspace root.
type OutsideError struct {
	Path     string // as the caller gave it
	Resolved string // absolute, symlink-resolved
	Root     string // the workspace root
	ViaLink  bool   // a symlink on the way changed where the path leads
}

func (e *OutsideError) Error() string {
	if e.ViaLink {
		return fmt.Sprintf("path %s is a symlink (or goes through one) to %s, which is outside the workspace %s; use a path inside the workspace", e.Path, e.Resolved, e.Root)
	}
	return fmt.Sprintf("path %s is outside the workspace %s; use a path inside the workspace", e.Path, e.Root)
}

// New opens the workspace rooted at rootDir plus extraRoots. Each must be an
// existing directory; each is made absolute and symlink-resolved (on macOS
// /tmp becomes /private/tmp) before any containment test.
func New(rootDir string, extraRoots ...string) (*Workspace, error) {
	w := &Workspace{}
	for _, d := range append([]string{rootDir}, extraRoots...) {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("workspace root %q: %w", d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("workspace root %q: %w", d, err)
		}
		r, err := os.OpenRoot(real)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("workspace root %q: %w", d, err)
		}
		w.roots = append(w.roots, root{path: real, fs: r})
	}
	return w, nil
}

// AddReadRoot adds dir as a root that tools may read but never write
// (the session directory, where cut tool outputs are spilled so the model
// can read them back). It is not returned by Roots.
func (w *Workspace) AddReadRoot(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("read root %q: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("read root %q: %w", dir, err)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return fmt.Errorf("read root %q: %w", dir, err)
	}
	w.mu.Lock()
	w.roots = append(w.roots[:len(w.roots):len(w.roots)], root{path: real, fs: r, readOnly: true})
	w.mu.Unlock()
	return nil
}

// list is the roots now (a slice AddReadRoot never changes in place).
func (w *Workspace) list() []root {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.roots
}

// Close releases the root handles.
func (w *Workspace) Close() error {
	var errs []error
	for _, r := range w.list() {
		errs = append(errs, r.fs.Close())
	}
	return errors.Join(errs...)
}

// Root returns the resolved workspace root directory.
func (w *Workspace) Root() string { return w.list()[0].path }

// Roots returns every resolved writable root, the workspace root first
// (read-only roots from AddReadRoot are left out).
func (w *Workspace) Roots() []string {
	out := make([]string, 0, len(w.list()))
	for _, r := range w.list() {
		if !r.readOnly {
			out = append(out, r.path)
		}
	}
	return out
}

// Resolve turns a model-supplied path into an absolute, symlink-resolved
// path inside a root. Relative paths are relative to the workspace root; ""
// means the root. Missing trailing components are kept (a file about to be
// created); for forWrite the path must not be a root itself. Errors: an
// *OutsideError when the resolved path leaves every root (including through
// a dangling or final-component symlink), or the Lstat/Readlink error that
// stopped resolution.
func (w *Workspace) Resolve(path string, forWrite bool) (string, error) {
	p := path
	if p == "" {
		p = "."
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.Root(), p)
	}
	p = filepath.Clean(p)
	real, err := resolveLinks(p)
	if err != nil {
		return "", fmt.Errorf("path %s: %w", path, err)
	}
	r, ok := w.rootOf(real)
	if !ok {
		return "", &OutsideError{Path: path, Resolved: real, Root: w.Root(), ViaLink: w.lexicallyInside(p)}
	}
	if forWrite && r.readOnly {
		return "", fmt.Errorf("path %s is in a read-only directory (%s); write inside the workspace %s", path, r.path, w.Root())
	}
	if forWrite && real == r.path {
		return "", fmt.Errorf("path %s is the workspace directory itself; name a file inside it", path)
	}
	return real, nil
}

// lexicallyInside reports whether the cleaned path p lies inside a root
// before any symlink is followed; when it does but the resolved path does
// not, a symlink caused the escape.
func (w *Workspace) lexicallyInside(p string) bool {
	for _, r := range w.list() {
		if within(r.path, p) {
			return true
		}
	}
	return false
}

// Contains reports whether abs (absolute, already resolved) lies in a root.
func (w *Workspace) Contains(abs string) bool {
	_, ok := w.rootOf(abs)
	return ok
}

// Rel returns abs for display: relative to the workspace root ("." for the
// root itself), or unchanged when it lies in an extra root or outside.
func (w *Workspace) Rel(abs string) string {
	if within(w.Root(), abs) {
		rel, _ := filepath.Rel(w.Root(), abs)
		return filepath.ToSlash(rel)
	}
	return abs
}

func (w *Workspace) rootOf(abs string) (root, bool) {
	for _, r := range w.list() {
		if within(r.path, abs) {
			return r, true
		}
	}
	return root{}, false
}

// within is the component-wise containment test (B23): "/t/project-evil"
// is not within "/t/project".
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxLinks bounds symlink expansions per path, as the kernel's ELOOP does.
const maxLinks = 40

// resolveLinks resolves every symlink in the absolute, cleaned path p, one
// component at a time, so "..", links to links, relative and absolute link
// targets and links in parent directories all land where the kernel would
// land. A component that does not exist (or whose parent is not a
// directory) is kept as written and resolution goes on, so a dangling link
// yields its target and a new file yields its would-be path; a later ".."
// is applied to the resolved prefix. Unlike filepath.EvalSymlinks it never
// fails with ENOENT (DesktopCommanderMCP#420: falling back to the lexical
// path on that error let writes escape).
func resolveLinks(p string) (string, error) {
	rest := components(p)
	cur := string(filepath.Separator)
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			if missing(err) {
				cur = next
				continue
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		links++
		if links > maxLinks {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		rest = append(components(target), rest...)
	}
	return cur, nil
}

func components(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

// missing reports errors meaning "nothing is there": ENOENT, or ENOTDIR
// when a parent component is a regular file.
func missing(err error) bool {
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return errors.Is(err, syscall.ENOTDIR)
}

// RootOf returns the root directory holding the resolved path abs.
func (w *Workspace) RootOf(abs string) (string, bool) {
	r, ok := w.rootOf(abs)
	return r.path, ok
}

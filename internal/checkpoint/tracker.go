package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/event"
)

// DefaultMaxFileSize is the largest file a checkpoint stores.
const DefaultMaxFileSize = 8 << 20

// Options configure a Tracker.
type Options struct {
	// Root is the workspace (absolute, symlinks resolved).
	Root  string
	Store *Store
	// Ignore returns a fresh ignorer for a scan of root (nil: nothing
	// ignored but .git).
	Ignore func(root string) Ignorer
	// MaxFileSize: larger files are skipped and reported (0: default).
	MaxFileSize int64
	// Emit receives each Checkpointed event.
	Emit func(event.Event)
	// NoWatch: scan the whole tree before and after every shell command
	// even where inotify could tell what changed (benchmarks compare).
	NoWatch bool
	// Absolute: events name files by absolute slash path, not relative
	// to Root (an added root's, see Set).
	Absolute bool
}

// Tracker records, for one session, the state of the files a tool is
// about to write (Before/AfterWrite) and the files a shell command
// changed (Before/AfterShell: the tree scanned before and after, content
// hashed only for files whose stat changed; on Linux the scan before is
// skipped when inotify saw nothing change since the last one). Safe for
// concurrent use; calls are serialised.
type Tracker struct {
	o   Options
	mu  sync.Mutex
	idx Index // nil until the first shell command
	// dirty: idx changed since it was loaded or saved.
	dirty bool
	// w reports changes to the tree since the last scan (nil: none can
	// be seen, every BeforeShell scans); scanned: a scan with w watching
	// finished, so w's silence means idx is the tree as it is.
	w       *watcher
	scanned bool
	// settle: a shell command ran since the last full scan (Settle).
	settle bool
	// scans counts full scans (tests).
	scans int
}

// NewTracker returns a tracker for o.
func NewTracker(o Options) *Tracker {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	return &Tracker{o: o}
}

// rel is abs relative to the root with slashes, or "" when it is outside
// the root or inside a .git directory (never recorded).
func (t *Tracker) rel(abs string) string {
	r, err := filepath.Rel(t.o.Root, abs)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return ""
	}
	r = filepath.ToSlash(r)
	for _, part := range strings.Split(r, "/") {
		if part == ".git" {
			return ""
		}
	}
	return r
}

// capture stores the file rel as it is now: a state with an empty hash
// when it does not exist; big when it is over the size limit (or not a
// regular file), which is not stored.
func (t *Tracker) capture(rel string) (st *event.FileState, big bool, err error) {
	abs := filepath.Join(t.o.Root, filepath.FromSlash(rel))
	info, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return &event.FileState{}, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() || info.Size() > t.o.MaxFileSize {
		return nil, true, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, false, err
	}
	h, err := t.o.Store.Put(data)
	if err != nil {
		return nil, false, err
	}
	if t.idx != nil {
		if s, err := lstat(abs); err == nil {
			t.idx[rel] = Entry{Stat: s, Hash: h}
		}
	}
	return &event.FileState{Hash: h, Mode: uint32(info.Mode().Perm()), Size: int64(len(data))}, false, nil
}

// BeforeWrite records the state of the files a tool is about to write
// (absolute paths; those outside the root or in .git are left out) in a
// Checkpointed event, and returns the recorded relative paths for
// AfterWrite.
func (t *Tracker) BeforeWrite(abs []string) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var cp event.Checkpoint
	var rels []string
	var errs []error
	for _, a := range abs {
		rel := t.rel(a)
		if rel == "" {
			continue
		}
		st, big, err := t.capture(rel)
		switch {
		case err != nil:
			errs = append(errs, err)
		case big:
			cp.Skipped = append(cp.Skipped, rel)
		default:
			cp.Changes = append(cp.Changes, event.FileChange{Path: rel, Before: st})
			rels = append(rels, rel)
		}
	}
	t.emit(cp)
	return rels, errors.Join(errs...)
}

// AfterWrite records the state the tool left the files in.
func (t *Tracker) AfterWrite(rels []string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var cp event.Checkpoint
	var errs []error
	for _, rel := range rels {
		st, big, err := t.capture(rel)
		switch {
		case err != nil:
			errs = append(errs, err)
		case big:
			cp.Skipped = append(cp.Skipped, rel)
		default:
			cp.Changes = append(cp.Changes, event.FileChange{Path: rel, After: st})
		}
	}
	t.emit(cp)
	return errors.Join(errs...)
}

// name is how events name the file rel.
func (t *Tracker) name(rel string) string {
	if t.o.Absolute {
		return filepath.ToSlash(filepath.Join(t.o.Root, filepath.FromSlash(rel)))
	}
	return rel
}

func (t *Tracker) emit(cp event.Checkpoint) {
	for i := range cp.Changes {
		cp.Changes[i].Path = t.name(cp.Changes[i].Path)
	}
	for i := range cp.Skipped {
		cp.Skipped[i] = t.name(cp.Skipped[i])
	}
	if (len(cp.Changes) > 0 || len(cp.Skipped) > 0) && t.o.Emit != nil {
		t.o.Emit(event.Event{Type: event.Checkpointed, Checkpoint: &cp})
	}
}

// scan reads the tree, watching it from the start (events queued before
// are dropped: the scan sees what they were about).
func (t *Tracker) scan() (map[string]Stat, error) {
	var ig Ignorer
	if t.o.Ignore != nil {
		ig = t.o.Ignore(t.o.Root)
	}
	if t.w == nil && !t.o.NoWatch {
		if t.w = newWatcher(); t.w != nil {
			t.w.addGit(t.o.Root)
		}
	}
	if t.w != nil {
		t.w.drain()
	}
	t.scans++
	cur, err := scanWatched(t.o.Root, ig, t.w, len(t.idx)+len(t.idx)/8)
	t.scanned = err == nil && t.w != nil
	return cur, err
}

// look finds what changed in the tree since the index was last brought
// up to date: the changed paths (sorted) and the current stat of those
// that exist. With a sound watcher it reads only the directories inotify
// saw files change in (nothing at all when it saw none); else, and when
// full is set, it scans the whole tree.
func (t *Tracker) look(full bool) ([]string, map[string]Stat, error) {
	if !full && t.scanned && t.w != nil {
		if dirs, whole := t.w.changes(); !whole {
			return t.reread(dirs)
		}
	}
	cur, err := t.scan()
	if err != nil {
		return nil, nil, err
	}
	return Diff(t.idx, cur), cur, nil
}

// reread lists the files of dirs (absolute, each scanned before, so not
// ignored) and compares them with their index entries: no directory was
// created, removed or renamed since (the watcher would have asked for a
// full scan), so only the files directly in dirs can differ.
func (t *Tracker) reread(dirs map[string]bool) ([]string, map[string]Stat, error) {
	if len(dirs) == 0 {
		return nil, nil, nil
	}
	var ig Ignorer
	if t.o.Ignore != nil {
		ig = t.o.Ignore(t.o.Root)
	}
	sc := &scanner{ig: ig, w: t.w}
	cur := map[string]Stat{}
	in := map[string]bool{} // relative directories read
	for abs := range dirs {
		r := ""
		if abs != t.o.Root {
			if r = t.rel(abs); r == "" {
				continue
			}
		}
		if ig != nil { // the rules of every directory above
			for d := t.o.Root; ; {
				ig.Enter(d)
				next, err := filepath.Rel(d, abs)
				if err != nil || next == "." {
					break
				}
				d = filepath.Join(d, strings.SplitN(next, string(filepath.Separator), 2)[0])
			}
		}
		files, _, err := readDir(abs, r, sc)
		if err != nil {
			return nil, nil, err
		}
		in[r] = true
		for _, f := range files {
			cur[f.rel] = f.st
		}
	}
	var changed []string
	for p, s := range cur {
		if e, ok := t.idx[p]; !ok || e.Stat != s {
			changed = append(changed, p)
		}
	}
	for p := range t.idx {
		if _, ok := cur[p]; !ok && in[parent(p)] {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	return changed, cur, nil
}

// parent is the relative directory of the slash path p ("" at the root).
func parent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// BeforeShell brings the index up to date with the tree before a shell
// command runs: files changed since (by anyone) are stored, not recorded
// as changes. The first call loads the workspace's saved index (a new
// workspace's first call stores every file once).
func (t *Tracker) BeforeShell() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	full := t.idx == nil
	if full {
		t.idx = t.o.Store.LoadIndex(t.o.Root)
	}
	changed, cur, err := t.look(full)
	if err != nil {
		return err
	}
	for _, rel := range changed {
		t.refresh(rel, cur)
	}
	t.dirty = t.dirty || len(changed) > 0
	return nil
}

// Close saves the tree index for the next session of the workspace (it
// is only a cache: a file whose stat differs from its entry is hashed
// again, so a stale or lost index costs time, never correctness).
func (t *Tracker) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		t.w.close()
		t.w, t.scanned = nil, false
	}
	if t.idx == nil || !t.dirty {
		return nil
	}
	t.dirty = false
	return t.o.Store.SaveIndex(t.o.Root, t.idx)
}

// refresh updates the index entry of rel to the file as cur saw it,
// storing its content; it returns the new state (nil: over the limit).
func (t *Tracker) refresh(rel string, cur map[string]Stat) (*event.FileState, bool) {
	s, ok := cur[rel]
	if !ok {
		delete(t.idx, rel)
		return &event.FileState{}, false
	}
	st, big, err := t.capture(rel)
	if big || err != nil || st == nil {
		t.idx[rel] = Entry{Stat: s, Big: true}
		return nil, true
	}
	if st.Hash == "" { // gone since the scan
		delete(t.idx, rel)
	}
	return st, false
}

// AfterShell records, in one Checkpointed event, every file whose stat
// changed since BeforeShell (see look): its state before (from the
// index) and after.
func (t *Tracker) AfterShell() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idx == nil {
		return nil // BeforeShell failed: nothing to compare with
	}
	t.settle = true
	return t.record(false)
}

// Settle scans the whole tree once after the shell commands of a prompt
// (call it when the prompt ends) and records what changed as AfterShell
// does: a change inotify could not see (a write through a shared mmap, a
// network file system) is still the prompt's.
func (t *Tracker) Settle() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idx == nil || !t.settle {
		return nil
	}
	t.settle = false
	return t.record(true)
}

// record finds what changed (the whole tree scanned when full) and
// emits it as one checkpoint.
func (t *Tracker) record(full bool) error {
	changed, cur, err := t.look(full)
	if err != nil || len(changed) == 0 {
		return err
	}
	var cp event.Checkpoint
	for _, rel := range changed {
		old, had := t.idx[rel]
		before := &event.FileState{}
		if had {
			if old.Big {
				before = nil
			} else {
				before = &event.FileState{Hash: old.Hash, Mode: old.Mode, Size: old.Size}
			}
		}
		after, big := t.refresh(rel, cur)
		if before == nil || big {
			cp.Skipped = append(cp.Skipped, rel)
			continue
		}
		if *before == *after {
			continue // touched, same content and mode
		}
		cp.Changes = append(cp.Changes, event.FileChange{Path: rel, Before: before, After: after})
	}
	t.dirty = true
	t.emit(cp)
	return nil
}

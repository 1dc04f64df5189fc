//go:build linux

package checkpoint

import (
	"bytes"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watcher tells, through inotify(7), whether anything changed in the
// tree since the last scan, and where, so a shell command's checkpoint
// reads only the directories something happened in: each directory a
// scan reads is watched from just before it is read. A write, chmod,
// touch, creation, deletion or rename of a file marks its directory; a
// directory created, removed or renamed, a .gitignore or
// .git/info/exclude touched, or a queue overflow means the whole tree is
// scanned again. A change inotify cannot see (a write through a shared
// mmap, another machine on a network file system) is found by the full
// scan that ends each prompt (Tracker.Settle).
type watcher struct {
	fd int
	// gitDir is the watch descriptor of root/.git (only its "info"
	// entry counts).
	gitDir int32
	mu     sync.Mutex
	// dirs are the watched directories by watch descriptor.
	dirs   map[int32]string
	broken bool // a watch could not be added, or reading failed
	buf    []byte
}

const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_DELETE | unix.IN_DELETE_SELF |
	unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// newWatcher returns a watcher, or nil when inotify is not available
// (too many instances: scans then always run).
func newWatcher() *watcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &watcher{fd: fd, gitDir: -1, dirs: map[int32]string{}, buf: make([]byte, 64<<10)}
}

// add watches dir (called by the scan before it reads dir).
func (w *watcher) add(dir string) {
	if w == nil {
		return
	}
	wd, err := unix.InotifyAddWatch(w.fd, dir, watchMask)
	w.mu.Lock()
	if err != nil {
		w.broken = true // past max_user_watches: no skipping
	} else {
		w.dirs[int32(wd)] = dir
	}
	w.mu.Unlock()
}

// addGit watches what decides ignores outside the scanned tree:
// root/.git/info, and root/.git for an info directory appearing.
func (w *watcher) addGit(root string) {
	if w == nil {
		return
	}
	if wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(root, ".git"), unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO|unix.IN_ONLYDIR); err == nil {
		w.gitDir = int32(wd)
	}
	_, _ = unix.InotifyAddWatch(w.fd, filepath.Join(root, ".git", "info"), watchMask)
}

// drain reads every event queued and reports whether none counted (and
// the watcher is sound): the tree is as the last scan saw it.
func (w *watcher) drain() (quiet bool) {
	dirs, full := w.changes()
	return !full && len(dirs) == 0
}

// changes reads every event queued and returns the directories whose
// files changed since, or full when the tree must be scanned whole (the
// watcher is not sound, or an event was about a directory or the
// ignore rules).
func (w *watcher) changes() (dirs map[string]bool, full bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	dirs = map[string]bool{}
	full = w.broken
	for {
		n, err := unix.Read(w.fd, w.buf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return dirs, full
		case err != nil || n <= 0:
			w.broken = true
			return dirs, true
		}
		if w.mark(w.buf[:n], dirs) {
			full = true
		}
	}
}

// mark adds to dirs the directories a batch of events changed files in
// and reports whether one needs a full scan. Events on root/.git about
// entries other than "info" do not count.
func (w *watcher) mark(b []byte, dirs map[string]bool) (full bool) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			return true
		}
		name := string(bytes.TrimRight(b[unix.SizeofInotifyEvent:end], "\x00"))
		b = b[end:]
		if ev.Wd == w.gitDir && name != "info" && ev.Mask&unix.IN_Q_OVERFLOW == 0 {
			continue
		}
		dir, ok := w.dirs[ev.Wd]
		const whole = unix.IN_Q_OVERFLOW | unix.IN_ISDIR | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_IGNORED
		if !ok || ev.Mask&whole != 0 || name == ".gitignore" || name == "" {
			full = true
			continue
		}
		dirs[dir] = true
	}
	return full
}

func (w *watcher) close() {
	if w != nil {
		unix.Close(w.fd)
	}
}

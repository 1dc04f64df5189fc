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
// tree since the last scan, so a shell command's checkpoint can skip the
// scan before it runs when nothing did: each directory a scan reads is
// watched from just before it is read, and any event since the scan
// began (a write, a chmod or touch, a creation, a deletion, a rename, a
// queue overflow) means the tree must be scanned again. The scan after
// the command always runs, so a change inotify cannot see (a write
// through a shared mmap, another machine on a network file system) is
// still found there; here it could at worst be counted as the command's.
// .git/info/exclude, which decides what is ignored, is watched too.
type watcher struct {
	fd int
	// gitDir is the watch descriptor of root/.git (only its "info"
	// entry counts).
	gitDir int32
	mu     sync.Mutex
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
	return &watcher{fd: fd, gitDir: -1, buf: make([]byte, 64<<10)}
}

// add watches dir (called by the scan before it reads dir).
func (w *watcher) add(dir string) {
	if w == nil {
		return
	}
	if _, err := unix.InotifyAddWatch(w.fd, dir, watchMask); err != nil {
		w.mu.Lock()
		w.broken = true // past max_user_watches: no skipping
		w.mu.Unlock()
	}
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
	w.mu.Lock()
	defer w.mu.Unlock()
	quiet = !w.broken
	for {
		n, err := unix.Read(w.fd, w.buf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return quiet
		case err != nil || n <= 0:
			w.broken = true
			return false
		}
		if w.counts(w.buf[:n]) {
			quiet = false
		}
	}
}

// counts reports whether a batch of events holds one that matters: any
// but those on root/.git about entries other than "info".
func (w *watcher) counts(b []byte) bool {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			return true
		}
		name := bytes.TrimRight(b[unix.SizeofInotifyEvent:end], "\x00")
		if ev.Wd != w.gitDir || string(name) == "info" || ev.Mask&unix.IN_Q_OVERFLOW != 0 {
			return true
		}
		b = b[end:]
	}
	return false
}

func (w *watcher) close() {
	if w != nil {
		unix.Close(w.fd)
	}
}

//go:build unix

package tools

import (
	"errors"
	"syscall"
)

// errNotSearched is returned by scratch.read for files grep does not
// search: larger than grepMaxFileBytes or no longer a regular file.
var errNotSearched = errors.New("not a searchable file")

// read loads abs into sc.data unless it is too big to be source. The walk
// found abs as a regular file; O_NOFOLLOW refuses it if it has since been
// swapped for a symlink (which could lead outside the workspace), and
// O_NONBLOCK keeps a FIFO swapped in from blocking the open. Raw system
// calls (open, fstat, read, close) skip os.File's poller registration and
// finalizer, about a third of the per-file cost on a large tree; a file
// is read up to the size fstat gave, with one more read only when that
// size is 0 (procfs-like files report 0 and still have content).
func (sc *scratch) read(abs string) error {
	fd, err := openNoFollow(abs)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		return err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > grepMaxFileBytes {
		return errNotSearched
	}
	size := int(st.Size)
	want := max(size, 4<<10)
	if cap(sc.data) < want {
		sc.data = make([]byte, 0, want)
	}
	sc.data = sc.data[:0]
	for size == 0 || len(sc.data) < size {
		if len(sc.data) == cap(sc.data) {
			if len(sc.data) >= grepMaxFileBytes {
				return errNotSearched
			}
			sc.data = append(sc.data, 0)[:len(sc.data)]
		}
		k, err := syscall.Read(fd, sc.data[len(sc.data):cap(sc.data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if k == 0 {
			break
		}
		sc.data = sc.data[:len(sc.data)+k]
	}
	return nil
}

func openNoFollow(abs string) (int, error) {
	for {
		fd, err := syscall.Open(abs, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func fstatRetry(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

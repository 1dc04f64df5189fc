//go:build linux

package checkpoint

import (
	"bytes"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// direntBufs are getdents64 buffers, one per directory being read.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readDir lists one directory: its regular files' stats (by relative
// path) and its subdirectories to scan, .git and ignored ones left out.
// It reads the entries with getdents64(2) and stats each file relative
// to the open directory (fstatat), sparing the kernel a walk of the
// whole path and Go an os.DirEntry per entry; the entry's type spares
// a stat of each directory.
func readDir(abs, rel string, sc *scanner) ([]fileStat, [][2]string, error) {
	sc.w.add(abs) // before reading: a change from now on is an event
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, &pathError{abs, err}
	}
	defer unix.Close(fd)
	sc.enter(abs)
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var files []fileStat
	var dirs [][2]string
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return files, dirs, &pathError{abs, err}
		}
		if n <= 0 {
			return files, dirs, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			files, dirs = entry(fd, abs, rel, string(name), typ, sc, files, dirs)
		}
	}
}

// entry adds one directory entry to files or dirs.
func entry(fd int, abs, rel, name string, typ byte, sc *scanner, files []fileStat, dirs [][2]string) ([]fileStat, [][2]string) {
	if name == "." || name == ".." || name == ".git" {
		return files, dirs
	}
	switch typ {
	case unix.DT_DIR:
		if child := filepath.Join(abs, name); !sc.ignored(child, true) {
			dirs = append(dirs, [2]string{child, childRel(rel, name)})
		}
		return files, dirs
	case unix.DT_REG, unix.DT_UNKNOWN:
	default:
		return files, dirs // links, devices, sockets: not recorded
	}
	var st unix.Stat_t
	if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return files, dirs
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if !sc.ignored(filepath.Join(abs, name), false) {
			files = append(files, fileStat{childRel(rel, name), statOfUnix(&st)})
		}
	case unix.S_IFDIR: // a file system that gives no types
		if child := filepath.Join(abs, name); !sc.ignored(child, true) {
			dirs = append(dirs, [2]string{child, childRel(rel, name)})
		}
	}
	return files, dirs
}

// pathError names the directory a read failed on.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return "checkpoint: " + e.path + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

func statOfUnix(st *unix.Stat_t) Stat {
	return Stat{Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Mode: uint32(st.Mode & 0o777)}
}

// lstat is the Stat of the file abs (not following a final link).
func lstat(abs string) (Stat, error) {
	var st unix.Stat_t
	if err := unix.Lstat(abs, &st); err != nil {
		return Stat{}, err
	}
	return statOfUnix(&st), nil
}

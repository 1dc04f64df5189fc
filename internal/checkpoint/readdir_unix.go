//go:build unix && !linux

package checkpoint

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// readDir lists one directory: its regular files' stats (by relative
// path) and its subdirectories to scan, .git and ignored ones left out.
// Each file is stat'ed relative to the open directory (fstatat), which
// spares the kernel a walk of the whole path.
func readDir(abs, rel string, sc *scanner) ([]fileStat, [][2]string, error) {
	sc.w.add(abs) // before reading: a change from now on is an event
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, nil, err
	}
	sc.enter(abs)
	fd := int(f.Fd())
	files := make([]fileStat, 0, len(ents))
	var dirs [][2]string
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue
		}
		t := e.Type()
		switch {
		case t.IsDir():
			if child := filepath.Join(abs, name); !sc.ignored(child, true) {
				dirs = append(dirs, [2]string{child, childRel(rel, name)})
			}
		case t.IsRegular():
			if sc.ignored(filepath.Join(abs, name), false) {
				continue
			}
			var st unix.Stat_t
			if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
				continue
			}
			files = append(files, fileStat{childRel(rel, name), statOfUnix(&st)})
		}
	}
	return files, dirs, nil
}

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

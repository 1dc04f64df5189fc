//go:build unix

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
func readDir(abs, rel string, sc *scanner) (map[string]Stat, [][2]string, error) {
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
	files := make(map[string]Stat, len(ents))
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
			files[childRel(rel, name)] = Stat{Size: st.Size, Mtime: st.Mtim.Nano(), Mode: uint32(st.Mode & 0o777)}
		}
	}
	return files, dirs, nil
}

//go:build !unix

package checkpoint

import (
	"os"
	"path/filepath"
)

// readDir lists one directory: its regular files' stats (by relative
// path) and its subdirectories to scan, .git and ignored ones left out.
func readDir(abs, rel string, sc *scanner) ([]fileStat, [][2]string, error) {
	sc.w.add(abs)
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, nil, err
	}
	sc.enter(abs)
	files := make([]fileStat, 0, len(ents))
	var dirs [][2]string
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue
		}
		child := filepath.Join(abs, name)
		switch t := e.Type(); {
		case t.IsDir():
			if !sc.ignored(child, true) {
				dirs = append(dirs, [2]string{child, childRel(rel, name)})
			}
		case t.IsRegular():
			if sc.ignored(child, false) {
				continue
			}
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				files = append(files, fileStat{childRel(rel, name), statOf(info)})
			}
		}
	}
	return files, dirs, nil
}

func statOf(info os.FileInfo) Stat {
	return Stat{Size: info.Size(), Mtime: info.ModTime().UnixNano(), Mode: uint32(info.Mode().Perm())}
}

// lstat is the Stat of the file abs (not following a final link).
func lstat(abs string) (Stat, error) {
	info, err := os.Lstat(abs)
	if err != nil {
		return Stat{}, err
	}
	return statOf(info), nil
}

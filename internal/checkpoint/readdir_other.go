//go:build !unix

package checkpoint

import (
	"os"
	"path/filepath"
)

// readDir lists one directory: its regular files' stats (by relative
// path) and its subdirectories to scan, .git and ignored ones left out.
func readDir(abs, rel string, sc *scanner) (map[string]Stat, [][2]string, error) {
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, nil, err
	}
	sc.enter(abs)
	files := make(map[string]Stat, len(ents))
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
				files[childRel(rel, name)] = statOf(info)
			}
		}
	}
	return files, dirs, nil
}

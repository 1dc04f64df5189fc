package tools

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/workspace"
)

// CompletePaths lists the workspace paths that complete prefix (a path
// relative to the workspace root, as typed after "@"): the entries of its
// directory whose names start with its last element, directories ending
// in "/", skipping what the .gitignore files exclude and VCS metadata,
// and dot files unless the prefix's last element starts with ".". It
// reads one directory and never leaves the workspace.
func CompletePaths(ws *workspace.Workspace, prefix string) []string {
	dirPart, base := path.Split(filepath.ToSlash(prefix))
	abs, err := ws.Resolve(dirPart, false)
	if dirPart == "" {
		abs, err = ws.Root(), nil
	}
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	ig := newIgnorer(ws.Root())
	ig.loadAncestors(abs)
	ig.load(abs)
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		isDir := e.IsDir()
		if ig.ignored(filepath.Join(abs, name), isDir) {
			continue
		}
		if isDir {
			name += "/"
		}
		out = append(out, dirPart+name)
	}
	sort.Strings(out)
	return out
}

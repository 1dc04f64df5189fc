package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/workspace"
)

// ListDir is the list_dir tool: the entries of one directory.
type ListDir struct {
	ws   *workspace.Workspace
	opts Options
}

// Name implements Tool.
func (*ListDir) Name() string { return "list_dir" }

// Description implements Tool.
func (*ListDir) Description() string {
	return "List a directory's entries sorted by name; directories end with /, symlinks show -> target."
}

// Schema implements Tool.
func (*ListDir) Schema() json.RawMessage { return schema(`"path":{"type":"string"}`) }

// SideEffect implements Tool.
func (*ListDir) SideEffect() SideEffect { return SideRead }

// Run implements Tool. One entry per line, at most Options.ListLimit, then
// a line counting the rest. Path defaults to the workspace root.
func (t *ListDir) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if r, ok := decodeArgs(args, &a, `{"path"?: string}`); !ok {
		return r, nil
	}
	abs, r, ok := resolve(t.ws, a.Path, false)
	if !ok {
		return r, nil
	}
	f, err := t.ws.Open(abs)
	if err != nil {
		return statError(shown(a.Path), err), nil
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return errorResult("%s is not a directory; use read_file", shown(a.Path)), nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var sb strings.Builder
	for i, e := range entries {
		if i == t.opts.ListLimit {
			fmt.Fprintf(&sb, "[%d more entries not shown; use glob with a pattern to narrow]\n", len(entries)-i)
			break
		}
		name := e.Name()
		switch {
		case e.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(filepath.Join(abs, name))
			name += " -> " + target
		case e.IsDir():
			name += "/"
		}
		sb.WriteString(name)
		sb.WriteByte('\n')
	}
	if len(entries) == 0 {
		sb.WriteString("(empty directory)\n")
	}
	return Result{Content: sb.String(), Paths: []string{abs}}, nil
}

// shown names a path in messages ("." for the root).
func shown(p string) string {
	if p == "" {
		return "."
	}
	return p
}

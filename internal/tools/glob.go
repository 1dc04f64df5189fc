package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zero-agent/zero/internal/workspace"
)

// Glob is the glob tool: files whose path matches a doublestar pattern.
type Glob struct {
	ws   *workspace.Workspace
	opts Options
}

// Name implements Tool.
func (*Glob) Name() string { return "glob" }

// Description implements Tool.
func (*Glob) Description() string {
	return "Find files by glob pattern (** crosses directories, as in **/*.go) under path, skipping .gitignored files; sorted paths."
}

// Schema implements Tool.
func (*Glob) Schema() json.RawMessage {
	return schema(`"pattern":{"type":"string"},"path":{"type":"string"}`, "pattern")
}

// SideEffect implements Tool.
func (*Glob) SideEffect() SideEffect { return SideRead }

// Run implements Tool. The pattern is matched (doublestar syntax) against
// each file's slash-separated path relative to path (default: the
// workspace root); results are workspace-relative, sorted, at most
// Options.GlobLimit, then a count of the rest.
func (t *Glob) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
	}
	if r, ok := decodeArgs(args, &a, `{"pattern": string, "path"?: string}`); !ok {
		return r, nil
	}
	pat := strings.TrimPrefix(filepath.ToSlash(a.Pattern), "./")
	if pat == "" || !doublestar.ValidatePattern(pat) || strings.HasPrefix(pat, "/") {
		return errorResult("invalid glob pattern %q; use a relative pattern such as **/*.go and set path for the directory", a.Pattern), nil
	}
	// Walk only below the pattern's literal directory prefix.
	base, rest := doublestar.SplitPattern(pat)
	if strings.Contains(base, "..") {
		return errorResult("pattern %q may not contain ..; set path instead", a.Pattern), nil
	}
	dir, r, ok := resolve(t.ws, filepath.Join(shown(a.Path), base), false)
	if !ok {
		return r, nil
	}
	fi, err := t.ws.Stat(dir)
	if err != nil || !fi.IsDir() {
		return Result{Content: fmt.Sprintf("no files match %s", a.Pattern)}, nil
	}
	var hits []string
	err = walkFiles(ctx, t.ws, dir, func(abs string) error {
		rel, _ := filepath.Rel(dir, abs)
		if doublestar.MatchUnvalidated(rest, filepath.ToSlash(rel)) {
			hits = append(hits, t.ws.Rel(abs))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult("glob %s: %v", a.Pattern, err), nil
	}
	if len(hits) == 0 {
		return Result{Content: fmt.Sprintf("no files match %s", a.Pattern)}, nil
	}
	sort.Strings(hits)
	var sb strings.Builder
	for i, h := range hits {
		if i == t.opts.GlobLimit {
			fmt.Fprintf(&sb, "[%d more files not shown; narrow the pattern or path]\n", len(hits)-i)
			break
		}
		sb.WriteString(h)
		sb.WriteByte('\n')
	}
	return Result{Content: sb.String()}, nil
}

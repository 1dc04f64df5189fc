package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zero-agent/zero/internal/workspace"
)

// grepMaxFileBytes skips files larger than this (64 MiB): they are data,
// not source, and would stall the search.
const grepMaxFileBytes = 64 << 20

// Grep is the grep tool: path:line pointers to lines matching a regexp.
type Grep struct {
	ws   *workspace.Workspace
	opts Options
}

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	IgnoreCase bool   `json:"ignore_case"`
}

// Name implements Tool.
func (*Grep) Name() string { return "grep" }

// Description implements Tool.
func (*Grep) Description() string {
	return "Search file contents with a Go regexp under path (glob filters files, e.g. *.go), skipping .gitignored and binary files; returns path:line: preview."
}

// Schema implements Tool.
func (*Grep) Schema() json.RawMessage {
	return schema(`"pattern":{"type":"string"},"path":{"type":"string"},"glob":{"type":"string"},"ignore_case":{"type":"boolean"}`, "pattern")
}

// SideEffect implements Tool.
func (*Grep) SideEffect() SideEffect { return SideRead }

// grepHit is one matching line.
type grepHit struct {
	line    int
	preview string
}

// fileHits is what one file produced; hits holds at most the cap.
type fileHits struct {
	abs   string
	count int
	hits  []grepHit
	done  bool
}

// Run implements Tool. Lines are "path:line: preview" in walk order (files
// by directory, names sorted), one per matching line, previews trimmed and
// capped at Options.GrepPreviewBytes; after Options.GrepMaxMatches lines a
// footer counts the omitted matches and files. The pattern is RE2 syntax
// (Go regexp) with ^ and $ matching at line boundaries.
func (t *Grep) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a grepArgs
	if r, ok := decodeArgs(args, &a, `{"pattern": string, "path"?: string, "glob"?: string, "ignore_case"?: bool}`); !ok {
		return r, nil
	}
	if a.Pattern == "" {
		return errorResult("pattern is required"), nil
	}
	expr := "(?m)" + a.Pattern
	if a.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return errorResult("invalid regexp %q: %v (Go RE2 syntax: no lookaround or backreferences)", a.Pattern, err), nil
	}
	glob := filepath.ToSlash(a.Glob)
	if glob != "" && !doublestar.ValidatePattern(glob) {
		return errorResult("invalid glob %q", a.Glob), nil
	}
	start, r, ok := resolve(t.ws, a.Path, false)
	if !ok {
		return r, nil
	}
	fi, err := t.ws.Stat(start)
	if err != nil {
		return statError(shown(a.Path), err), nil
	}
	s := &grepSearch{re: re, cap: t.opts.GrepMaxMatches, previewCap: t.opts.GrepPreviewBytes, cutoff: -1}
	if lit, complete := re.LiteralPrefix(); complete && !a.IgnoreCase {
		s.literal = []byte(lit)
	}
	if !fi.IsDir() {
		s.add(start)
		s.searchFile(0)
	} else if err := s.run(ctx, t.ws, start, glob); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return errorResult("grep: %v", err), nil
	}
	return s.result(t.ws, a.Pattern), nil
}

// grepSearch is one search: files numbered in walk order, searched in
// parallel, reported in order.
type grepSearch struct {
	re         *regexp.Regexp
	literal    []byte // set when the pattern is a plain literal
	cap        int
	previewCap int

	mu     sync.Mutex
	files  []*fileHits
	next   int // first file whose result is not yet known
	sum    int // hits in files[:next]
	cutoff int // files after this index only count hits (-1: none yet)
}

func (s *grepSearch) add(abs string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files = append(s.files, &fileHits{abs: abs})
	return len(s.files) - 1
}

func (s *grepSearch) run(ctx context.Context, ws *workspace.Workspace, start, glob string) error {
	jobs := make(chan int, 256)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range jobs {
				s.searchFile(i)
			}
		})
	}
	err := walkFiles(ctx, ws, start, func(abs string) error {
		if glob != "" {
			name := filepath.Base(abs)
			if strings.Contains(glob, "/") {
				name, _ = filepath.Rel(start, abs)
				name = filepath.ToSlash(name)
			}
			if !doublestar.MatchUnvalidated(glob, name) {
				return nil
			}
		}
		jobs <- s.add(abs)
		return nil
	})
	close(jobs)
	wg.Wait()
	if errors.Is(err, fs.SkipAll) {
		err = nil
	}
	return err
}

// searchFile fills files[i]. Once the files before it already hold cap
// hits, only the count is kept, which bounds memory on broad patterns.
func (s *grepSearch) searchFile(i int) {
	s.mu.Lock()
	fh := s.files[i]
	keep := s.cutoff < 0 || i <= s.cutoff
	s.mu.Unlock()
	data, err := readSmall(fh.abs)
	if err == nil {
		fh.count, fh.hits = s.match(data, keep)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fh.done = true
	for s.next < len(s.files) && s.files[s.next].done && s.cutoff < 0 {
		s.sum += s.files[s.next].count
		if s.sum >= s.cap {
			s.cutoff = s.next
		}
		s.next++
	}
}

// readSmall reads a file unless it is too big to be source.
func readSmall(abs string) ([]byte, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if fi.Size() > grepMaxFileBytes {
		return nil, fmt.Errorf("too large")
	}
	return os.ReadFile(abs)
}

// match finds matching lines in data; binary data (sniffBinary) yields
// none. With keep false only the number of lines is returned.
func (s *grepSearch) match(data []byte, keep bool) (int, []grepHit) {
	if s.literal != nil {
		if bytes.Index(data, s.literal) < 0 {
			return 0, nil
		}
	} else if !s.re.Match(data) {
		return 0, nil
	}
	if _, bin := sniffBinary(data); bin {
		return 0, nil
	}
	var hits []grepHit
	count, line, counted, pos := 0, 1, 0, 0
	for pos <= len(data) {
		var at int
		if s.literal != nil {
			j := bytes.Index(data[pos:], s.literal)
			if j < 0 {
				break
			}
			at = pos + j
		} else {
			loc := s.re.FindIndex(data[pos:])
			if loc == nil {
				break
			}
			at = pos + loc[0]
		}
		if at == len(data) && at > 0 && data[at-1] == '\n' {
			break // no line after the final newline
		}
		ls := bytes.LastIndexByte(data[:at], '\n') + 1
		le := bytes.IndexByte(data[at:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += at
		}
		line += bytes.Count(data[counted:ls], []byte{'\n'})
		counted = ls
		count++
		if keep && len(hits) < s.cap {
			hits = append(hits, grepHit{line: line, preview: preview(data[ls:le], s.previewCap)})
		}
		pos = le + 1
	}
	return count, hits
}

// preview trims a line and caps it at n bytes on a rune boundary.
func preview(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(b[:cut]), "\uFFFD") + "…"
}

// result renders the first cap hits in walk order and counts the rest.
func (s *grepSearch) result(ws *workspace.Workspace, pattern string) Result {
	var sb strings.Builder
	shownHits, total, files, omittedFiles := 0, 0, 0, 0
	for _, fh := range s.files {
		if fh.count == 0 {
			continue
		}
		total += fh.count
		files++
		if shownHits >= s.cap {
			omittedFiles++
			continue
		}
		rel := ws.Rel(fh.abs)
		for _, h := range fh.hits {
			if shownHits == s.cap {
				break
			}
			fmt.Fprintf(&sb, "%s:%d: %s\n", rel, h.line, h.preview)
			shownHits++
		}
	}
	if total == 0 {
		return Result{Content: fmt.Sprintf("no matches for %s", pattern)}
	}
	if shownHits < total {
		fmt.Fprintf(&sb, "[%d more matching lines omitted (%d in all, in %d files; %d files not shown); narrow pattern, path or glob, or read_file the lines above]\n", total-shownHits, total, files, omittedFiles)
	}
	return Result{Content: sb.String()}
}

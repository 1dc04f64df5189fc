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
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zero-agent/zero/internal/shellguard"
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
	Pattern    string   `json:"pattern"`
	Path       string   `json:"path"`
	Glob       string   `json:"glob"`
	IgnoreCase flexBool `json:"ignore_case"`
}

// Name implements Tool.
func (*Grep) Name() string { return "grep" }

// Description implements Tool.
func (*Grep) Description() string {
	return "Search file contents with a Go regexp under path (glob filters files, as in *.go), skipping .gitignored and binary files; returns path:line: preview."
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
	s.lit, s.fold, s.exact = requiredLiteral(expr)
	if s.lit == nil {
		s.lits = requiredLiteralSet(expr)
	}
	s.homeSecrets = mayHoldHomeSecrets(start)
	if !fi.IsDir() {
		s.add(start)
		s.searchFile(0, &scratch{})
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
	re    *regexp.Regexp
	lit   []byte // a literal every matching line contains, or nil
	fold  bool   // lit is compared ASCII-case-insensitively
	exact bool   // lit is the whole pattern
	// lits, when lit is nil, is a set of literals one of which every
	// matching line contains (requiredLiteralSet).
	lits []litSpec
	// homeSecrets is false when no path under the search root can be a
	// secret by its place in the home directory (mayHoldHomeSecrets).
	homeSecrets bool
	walked      bool // files came from a tree walk (a file named by path is searched even if secret)
	cap         int
	previewCap  int

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
	s.walked = true
	jobs := make(chan int, 256)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var sc scratch
			for i := range jobs {
				s.searchFile(i, &sc)
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
func (s *grepSearch) searchFile(i int, sc *scratch) {
	s.mu.Lock()
	fh := s.files[i]
	keep := s.cutoff < 0 || i <= s.cutoff
	s.mu.Unlock()
	// A tree search never reads .env files or keys; read_file asks for
	// them by name. Checked here rather than in the walk so the check runs
	// in parallel.
	if s.walked && s.secret(fh.abs) {
		fh.count = 0
	} else if err := sc.read(fh.abs); err == nil {
		fh.count, fh.hits = s.match(sc, keep)
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

// secret reports isSecret(abs). When the search root cannot hold
// home-directory secrets (~/.ssh and the like) only the name-based rules
// apply, and shellguard.SecretPath with no home gives exactly those without
// its per-call path arithmetic (about 5 µs a file, the walk's main cost).
func (s *grepSearch) secret(abs string) bool {
	if s.homeSecrets {
		return isSecret(abs)
	}
	_, ok := shellguard.SecretPath(abs, "", "")
	return ok
}

// mayHoldHomeSecrets reports whether a path at or below start could lie
// under the home directory, which is where shellguard.SecretPath's
// location rules apply. strings.ToLower maps rune by rune, so the lowered
// path of any file below start is the lowered start plus more path
// elements; it can only lie below the lowered home too when one of the
// two lies within the other.
func mayHoldHomeSecrets(start string) bool {
	h := home()
	if h == "" {
		return false
	}
	lh, ls := strings.ToLower(filepath.Clean(h)), strings.ToLower(filepath.Clean(start))
	return pathWithin(ls, lh) || pathWithin(lh, ls)
}

// pathWithin reports whether clean path p is root or lies below it.
func pathWithin(p, root string) bool {
	if !strings.HasPrefix(p, root) {
		return false
	}
	return len(p) == len(root) || os.IsPathSeparator(p[len(root)]) || os.IsPathSeparator(root[len(root)-1])
}

// scratch is one worker's reusable buffer for the file's bytes.
type scratch struct {
	data []byte
}

// match finds matching lines in data; binary data (sniffBinary) yields
// none. With keep false only the number of lines is returned. With a
// required literal (or literal set) the file is scanned for it (ASCII
// case-folded when the pattern folds case) and only lines holding it are
// tried with the regexp.
func (s *grepSearch) match(sc *scratch, keep bool) (int, []grepHit) {
	data := sc.data
	var one litFinder
	var set setFinder
	pre := s.lit != nil || s.lits != nil // lines are found by literal, then checked
	find := func(from int) int {
		if s.lit != nil {
			return one.index(data, from)
		}
		return set.index(data, from)
	}
	switch {
	case s.lit != nil:
		one = newLitFinder(s.lit, s.fold)
	case s.lits != nil:
		set = newSetFinder(s.lits)
	}
	if pre {
		if find(0) < 0 {
			return 0, nil
		}
		one.reset()
		set.reset()
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
		if pre {
			if at = find(pos); at < 0 {
				break
			}
		} else {
			loc := s.re.FindIndex(data[pos:])
			if loc == nil {
				break
			}
			at = pos + loc[0]
		}
		if at == len(data) && (at == 0 || data[at-1] == '\n') {
			break // no line after the final newline
		}
		ls := bytes.LastIndexByte(data[:at], '\n') + 1
		le := bytes.IndexByte(data[at:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += at
		}
		pos = le + 1
		if pre && !s.exact && !s.re.Match(data[ls:le]) {
			continue
		}
		line += bytes.Count(data[counted:ls], []byte{'\n'})
		counted = ls
		count++
		if keep && len(hits) < s.cap {
			hits = append(hits, grepHit{line: line, preview: preview(data[ls:le], s.previewCap)})
		}
	}
	return count, hits
}

// requiredLiteral finds a literal every match must contain: the pattern
// itself or the longest literal piece of a top-level concatenation. fold
// means it is to be compared ASCII-case-insensitively (lit is lower case);
// exact means the literal is the whole pattern, so no regexp check is
// needed. Literals holding a newline or non-ASCII folded runes are not used.
func requiredLiteral(expr string) (lit []byte, fold, exact bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, false
	}
	re = re.Simplify()
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	var best *syntax.Regexp
	switch re.Op {
	case syntax.OpLiteral:
		best, exact = re, true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			if sub.Op == syntax.OpLiteral && (best == nil || len(sub.Rune) > len(best.Rune)) {
				best = sub
			}
		}
	}
	if best == nil {
		return nil, false, false
	}
	str := string(best.Rune)
	fold = best.Flags&syntax.FoldCase != 0
	if strings.Contains(str, "\n") || (fold && !isASCII(str)) {
		return nil, false, false
	}
	if fold {
		str = strings.ToLower(str)
	}
	return []byte(str), fold, exact && !fold
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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

package checkpoint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// Stat is what the tree index compares: a file changed when any differs.
type Stat struct {
	Size  int64 `json:"s"`
	Mtime int64 `json:"m"` // nanoseconds
	// Ctime (nanoseconds; 0 where the system has none) changes with
	// every write and chmod and cannot be set back: it catches an edit
	// that keeps the size within one mtime tick, or restores the mtime.
	Ctime int64  `json:"c,omitempty"`
	Mode  uint32 `json:"p"` // permission bits
}

// Entry is one indexed file: its stat and, unless it is over the size
// limit (Big), the hash of its stored content.
type Entry struct {
	Stat
	Hash string `json:"h,omitempty"`
	Big  bool   `json:"b,omitempty"`
}

// Index maps workspace-relative slash paths to entries.
type Index map[string]Entry

// Ignorer answers whether a path is left out of the tree (.gitignore):
// Enter is called when the walk enters a directory, before its entries.
type Ignorer interface {
	Enter(dir string)
	Ignored(abs string, isDir bool) bool
}

// Scan stats every regular file under root that ig does not ignore
// (nil: none ignored), never descending into .git. Symbolic links and
// other special files are left out. Directories are read by a few
// workers at once (ig is called under a lock); each file costs one
// stat relative to its open directory.
func Scan(root string, ig Ignorer) (map[string]Stat, error) {
	return scanWatched(root, ig, nil, 0)
}

// scanWatched is Scan that has w watch each directory before it is read.
func scanWatched(root string, ig Ignorer, w *watcher, size int) (map[string]Stat, error) {
	sc := &scanner{ig: ig, w: w, out: make(map[string]Stat, max(size, 1024))}
	sc.dir(root, "")
	sc.wg.Wait()
	return sc.out, sc.err
}

type scanner struct {
	ig  Ignorer
	w   *watcher
	wg  sync.WaitGroup
	sem chan struct{}
	mu  sync.Mutex
	out map[string]Stat
	err error
}

// dir reads abs and hands its subdirectories to other workers when one
// is free (else reads them itself).
func (sc *scanner) dir(abs, rel string) {
	if sc.sem == nil {
		sc.sem = make(chan struct{}, 3)
	}
	files, dirs, err := readDir(abs, rel, sc)
	sc.mu.Lock()
	if err != nil && sc.err == nil && rel == "" {
		sc.err = err
	}
	for _, f := range files {
		sc.out[f.rel] = f.st
	}
	sc.mu.Unlock()
	for _, d := range dirs {
		select {
		case sc.sem <- struct{}{}:
			sc.wg.Add(1)
			go func(d [2]string) {
				defer func() { <-sc.sem; sc.wg.Done() }()
				sc.dir(d[0], d[1])
			}(d)
		default:
			sc.dir(d[0], d[1])
		}
	}
}

// ignored asks the ignorer under the scanner's lock.
func (sc *scanner) ignored(abs string, isDir bool) bool {
	if sc.ig == nil {
		return false
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.ig.Ignored(abs, isDir)
}

func (sc *scanner) enter(abs string) {
	if sc.ig == nil {
		return
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.ig.Enter(abs)
}

// fileStat is one file a directory read found.
type fileStat struct {
	rel string
	st  Stat
}

// childRel joins a relative directory and a name with a slash.
func childRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// Diff lists, sorted, the paths whose stat differs between the index and
// a scan: changed, created (in cur only) and deleted (in old only).
func Diff(old Index, cur map[string]Stat) []string {
	var out []string
	for p, s := range cur {
		if e, ok := old[p]; !ok || e.Stat != s {
			out = append(out, p)
		}
	}
	for p := range old {
		if _, ok := cur[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// indexPath is where the index of workspace root is kept: one file per
// workspace, named by the hash of its path.
func (s *Store) indexPath(root string) string {
	return filepath.Join(s.dir, "index", Hash([]byte(root))[:32]+".json")
}

// LoadIndex reads the index of root, keeping only entries whose content
// is still stored (nil and no error when there is none).
func (s *Store) LoadIndex(root string) Index {
	data, err := os.ReadFile(s.indexPath(root))
	if err != nil {
		return Index{}
	}
	var idx Index
	if json.Unmarshal(data, &idx) != nil || idx == nil {
		return Index{} // damaged: rebuilt by the next scan
	}
	for p, e := range idx {
		if !e.Big && !s.Has(e.Hash) || strings.HasPrefix(p, ".git/") {
			delete(idx, p)
		}
	}
	return idx
}

// SaveIndex writes the index of root (temp file and rename).
func (s *Store) SaveIndex(root string, idx Index) error {
	p := s.indexPath(root)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, data, 0o600)
}

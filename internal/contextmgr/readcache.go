package contextmgr

import (
	"crypto/sha256"
	"fmt"
	"time"
)

// FileState identifies one version of a file: modification time, size in
// bytes and the SHA-256 of its content. Two reads see the same file only
// when all three match (mtime alone misses same-second edits; the hash
// alone would need the content every time).
type FileState struct {
	ModTime time.Time
	Size    int64
	Hash    [sha256.Size]byte
}

// StateOf returns the state of content read from a file with the given
// modification time.
func StateOf(modTime time.Time, content []byte) FileState {
	return FileState{ModTime: modTime, Size: int64(len(content)), Hash: sha256.Sum256(content)}
}

type readEntry struct {
	state FileState
	turn  int
	bytes int // size of the result the model got
}

// ReadCache remembers what the model has already read in this window so an
// unchanged file read again costs one line instead of the whole file. Keys
// are a path plus the read's range (offset/limit as the tool renders it),
// since another range of the same file is new text. Not safe for
// concurrent use. The zero value is not ready; use NewReadCache.
//
// The caller must invalidate: Invalidate(paths) after a write or edit that
// touched them, InvalidateAll after a shell command (it may change any
// file) and after a compaction that summarised the earlier results away.
type ReadCache struct {
	entries map[string]map[string]readEntry // path -> range -> entry
	// Hits counts stubs served; Saved sums the bytes they replaced.
	Hits, Saved int
}

// NewReadCache returns an empty cache.
func NewReadCache() *ReadCache {
	return &ReadCache{entries: map[string]map[string]readEntry{}}
}

// Stub is the one line sent instead of an unchanged read.
func Stub(path, rng string, turn int) string {
	if rng != "" {
		rng = " (" + rng + ")"
	}
	return fmt.Sprintf("[%s%s unchanged since turn %d, see the earlier result]", path, rng, turn)
}

// Lookup reports whether path with range rng was read in this window with
// the same state; then it returns the stub to send instead of result
// (counting the bytes saved). Otherwise it records the read, made at turn
// with a result of resultBytes, and returns hit false.
func (c *ReadCache) Lookup(path, rng string, st FileState, turn, resultBytes int) (stub string, hit bool) {
	byRange := c.entries[path]
	if e, ok := byRange[rng]; ok && e.state.Size == st.Size && e.state.Hash == st.Hash && e.state.ModTime.Equal(st.ModTime) {
		s := Stub(path, rng, e.turn)
		if len(s) < resultBytes {
			c.Hits++
			c.Saved += resultBytes - len(s)
			return s, true
		}
	}
	if byRange == nil {
		byRange = map[string]readEntry{}
		c.entries[path] = byRange
	}
	byRange[rng] = readEntry{state: st, turn: turn, bytes: resultBytes}
	return "", false
}

// Invalidate forgets every range read of the given paths.
func (c *ReadCache) Invalidate(paths ...string) {
	for _, p := range paths {
		delete(c.entries, p)
	}
}

// InvalidateAll forgets everything (after a shell command or compaction).
func (c *ReadCache) InvalidateAll() {
	clear(c.entries)
}

// Len returns how many path/range reads are remembered.
func (c *ReadCache) Len() int {
	n := 0
	for _, m := range c.entries {
		n += len(m)
	}
	return n
}

// Touched applies the invalidation rule for one finished tool call, given
// its side-effect class as internal/tools names it ("read", "write",
// "shell", "network") and the paths it reported: a write forgets those
// paths (everything if it reported none), a shell command forgets
// everything, since it may have changed any file.
func (c *ReadCache) Touched(sideEffect string, paths []string) {
	switch sideEffect {
	case "write":
		if len(paths) == 0 {
			c.InvalidateAll()
			return
		}
		c.Invalidate(paths...)
	case "shell":
		c.InvalidateAll()
	}
}

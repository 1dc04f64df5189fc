// Package checkpoint records the workspace files Zero's tools and shell
// commands change, so a rewind can put them back byte for byte: a
// content-addressed store of file contents under Zero's data directory,
// an index of the workspace tree (size, mtime, mode, hash) to find what a
// shell command changed, and the planning and applying of a rewind.
//
// It owns the store directory only. It never writes inside a workspace
// except when applying a rewind, never touches a .git directory, and
// knows nothing of sessions: the run layer feeds it paths and emits the
// events it builds; the session log keeps them.
package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Store is a directory of file contents named by their sha256. Writes go
// through a temporary file and a rename, so a crash leaves whole blobs or
// none (and temporary files that Collect removes).
type Store struct{ dir string }

// Open returns the store rooted at dir (created on the first Put).
func Open(dir string) *Store { return &Store{dir: dir} }

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) blobPath(hash string) string {
	return filepath.Join(s.dir, "blobs", hash[:2], hash[2:])
}

// Hash is the store's name for data.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Put stores data and returns its hash. Storing content already there
// only marks it as recently used (Collect goes by last use).
func (s *Store) Put(data []byte) (string, error) {
	h := Hash(data)
	p := s.blobPath(h)
	if _, err := os.Stat(p); err == nil {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
		return h, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	if err := writeBlob(p, data); err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	return h, nil
}

// writeBlob writes a temporary file beside p and renames it into place:
// a killed process leaves a whole blob or none. It does not fsync (a
// checkpoint of a big tree would pay one per file): after a power loss a
// blob may be empty, which Get's hash check reports as damaged.
func writeBlob(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), ".blob-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Has reports whether the content named hash is stored.
func (s *Store) Has(hash string) bool {
	if len(hash) < 3 {
		return false
	}
	_, err := os.Stat(s.blobPath(hash))
	return err == nil
}

// ErrMissing: the content a checkpoint names is no longer stored
// (collected, or the store was removed).
var ErrMissing = errors.New("checkpoint content no longer stored")

// Get returns the content named hash, checked against its name.
func (s *Store) Get(hash string) ([]byte, error) {
	if len(hash) != 64 {
		return nil, fmt.Errorf("checkpoint: bad content name %q", hash)
	}
	data, err := os.ReadFile(s.blobPath(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("checkpoint: %s: %w", hash[:12], ErrMissing)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if Hash(data) != hash {
		return nil, fmt.Errorf("checkpoint: %s is damaged", hash[:12])
	}
	return data, nil
}

// Limits bound what Collect keeps.
type Limits struct {
	// MaxAge: content not used for longer is removed.
	MaxAge time.Duration
	// MaxBytes: past this total the least recently used content goes.
	MaxBytes int64
}

// DefaultLimits keep a month of checkpoints, at most 2 GiB.
var DefaultLimits = Limits{MaxAge: 30 * 24 * time.Hour, MaxBytes: 2 << 30}

// Collect removes content unused for longer than l.MaxAge, then the least
// recently used until the store holds at most l.MaxBytes, and temporary
// files a crash left (older than an hour). It returns the bytes freed.
func (s *Store) Collect(l Limits, now time.Time) (int64, error) {
	type blob struct {
		path string
		size int64
		used time.Time
	}
	var blobs []blob
	var total, freed int64
	root := filepath.Join(s.dir, "blobs")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if now.Sub(info.ModTime()) > time.Hour && os.Remove(p) == nil {
				freed += info.Size()
			}
			return nil
		}
		if l.MaxAge > 0 && now.Sub(info.ModTime()) > l.MaxAge {
			if os.Remove(p) == nil {
				freed += info.Size()
			}
			return nil
		}
		blobs = append(blobs, blob{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	sort.Slice(blobs, func(i, j int) bool { return blobs[i].used.Before(blobs[j].used) })
	for _, b := range blobs {
		if l.MaxBytes <= 0 || total <= l.MaxBytes {
			break
		}
		if os.Remove(b.path) == nil {
			total -= b.size
			freed += b.size
		}
	}
	return freed, err
}

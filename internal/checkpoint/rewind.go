package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/zero-agent/zero/internal/atomicfile"
	"github.com/zero-agent/zero/internal/event"
)

// Action is one file a rewind puts back.
type Action struct {
	Path string
	// To is the state restored (empty Hash: the file is deleted); Now the
	// file as it is.
	To, Now event.FileState
	// Conflict is set when the file changed after Zero last wrote it
	// (by the user, an editor, another program): it is kept as it is
	// unless the rewind is forced.
	Conflict string
}

// Plan works out a rewind over changes (every change recorded from the
// target prompt on, in log order): each file goes back to its state
// before its first change, unless it already is there. A file that is
// not as Zero's last recorded change left it is a conflict. now reads a
// file's state (see State).
func Plan(changes []event.FileChange, now func(rel string) (event.FileState, error)) ([]Action, error) {
	first := map[string]event.FileState{}
	last := map[string]*event.FileState{}
	var order []string
	for _, c := range changes {
		if c.Before != nil {
			if _, seen := first[c.Path]; !seen {
				first[c.Path] = *c.Before
				order = append(order, c.Path)
			}
			last[c.Path] = nil // a change under way: its result is unknown
		}
		if c.After != nil {
			a := *c.After
			last[c.Path] = &a
		}
	}
	sort.Strings(order)
	var out []Action
	for _, p := range order {
		cur, err := now(p)
		if err != nil {
			return nil, err
		}
		to := first[p]
		if same(cur, to) {
			continue
		}
		a := Action{Path: p, To: to, Now: cur}
		if l := last[p]; l != nil && !same(cur, *l) {
			a.Conflict = "changed since Zero last wrote it"
		}
		out = append(out, a)
	}
	return out, nil
}

// same: two states hold the same content and mode (an absent file has
// neither).
func same(a, b event.FileState) bool {
	if a.Hash == "" || b.Hash == "" {
		return a.Hash == b.Hash
	}
	return a.Hash == b.Hash && a.Mode == b.Mode
}

// at is the file an event names: p under root, or p itself when it is
// absolute (a file under an added root).
func at(root, p string) string {
	if p := filepath.FromSlash(p); filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, filepath.FromSlash(p))
}

// State reads the state of the file rel names (see at) without storing
// it.
func State(root, rel string) (event.FileState, error) {
	abs := at(root, rel)
	info, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return event.FileState{}, nil
	}
	if err != nil {
		return event.FileState{}, err
	}
	if !info.Mode().IsRegular() {
		return event.FileState{Hash: "special", Mode: uint32(info.Mode())}, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return event.FileState{}, err
	}
	return event.FileState{Hash: Hash(data), Mode: uint32(info.Mode().Perm()), Size: int64(len(data))}, nil
}

// Apply puts the actions' files back under root (conflicts only when
// force), each written whole (temp file, rename) with its mode, or
// deleted. Before any file changes it stores the current content of each
// and returns the Checkpointed record of the rewind itself (Before: as
// they were, After: as restored), so the caller can log it first and
// the rewind can be undone. Contents missing from the store fail the
// whole rewind before anything is written.
func Apply(store *Store, root string, actions []Action, force bool) (event.Checkpoint, func() error, error) {
	var cp event.Checkpoint
	var todo []Action
	for _, a := range actions {
		if a.Conflict != "" && !force {
			continue
		}
		if a.To.Hash != "" && !store.Has(a.To.Hash) {
			return cp, nil, fmt.Errorf("%s: %w", a.Path, ErrMissing)
		}
		abs := at(root, a.Path)
		before := event.FileState{}
		if a.Now.Hash != "" {
			data, err := os.ReadFile(abs)
			if err != nil {
				return cp, nil, fmt.Errorf("checkpoint: %w", err)
			}
			h, err := store.Put(data)
			if err != nil {
				return cp, nil, err
			}
			before = event.FileState{Hash: h, Mode: a.Now.Mode, Size: int64(len(data))}
		}
		to := a.To
		cp.Changes = append(cp.Changes, event.FileChange{Path: a.Path, Before: &before, After: &to})
		todo = append(todo, a)
	}
	run := func() error {
		var errs []error
		for _, a := range todo {
			if err := restore(store, root, a); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
	return cp, run, nil
}

// restore writes one file back (or removes it).
func restore(store *Store, root string, a Action) error {
	abs := at(root, a.Path)
	if a.To.Hash == "" {
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return nil
	}
	data, err := store.Get(a.To.Hash)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	mode := os.FileMode(a.To.Mode).Perm()
	if mode == 0 {
		mode = 0o644
	}
	return atomicfile.Write(abs, data, mode)
}

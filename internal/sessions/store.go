package sessions

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/atomicfile"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/xdg"
)

// File names inside a session directory.
const (
	MetadataFile = "metadata.json"
	EventsFile   = "events.jsonl"
)

// ErrNotFound is returned (wrapped) when no session matches an id, a
// prefix or a workspace.
var ErrNotFound = errors.New("session not found")

// ErrAmbiguous is returned (matched by errors.Is) when an id prefix names
// several sessions; the error's text names them (a usage error for the
// command line).
var ErrAmbiguous = errors.New("ambiguous session id")

// ambiguousError is "sessions: "2026" is ambiguous: id1, id2, …".
type ambiguousError struct{ msg string }

func (e *ambiguousError) Error() string        { return e.msg }
func (e *ambiguousError) Is(target error) bool { return target == ErrAmbiguous }

// Metadata describes one session; it is stored as metadata.json.
type Metadata struct {
	// ID is the directory name: "20261130-051200-ab12cd" (UTC time of
	// creation, then 6 random hex digits), so ids sort by creation time.
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Workspace is the directory the session worked in: absolute, with
	// symlinks resolved, so one workspace has one name.
	Workspace string `json:"workspace,omitempty"`
	Provider  string `json:"provider,omitempty"`
	Model     string `json:"model,omitempty"`
	Title     string `json:"title,omitempty"`
	// FirstPrompt is the first user prompt, cut to 200 runes.
	FirstPrompt string `json:"firstPrompt,omitempty"`
	// Turns counts the user prompts recorded: the first user message with
	// text in each run (later ones in the same run are the agent's own
	// nudges and continuations, or a compaction summary). A log without
	// run_start lines counts its first such message only.
	Turns int `json:"turns"`
	// ShellCommands counts the `!cmd`s the user ran in the app (user_shell
	// events). With Turns and FirstPrompt it decides whether the session
	// is kept (see Empty).
	ShellCommands int `json:"shellCommands,omitempty"`
	// promptInRun: the current run's prompt was counted (not stored).
	promptInRun bool
	// ForkedFrom is the id of the session this one was forked from.
	ForkedFrom string `json:"forkedFrom,omitempty"`
	// ParentID is the session that started this one as a sub-agent;
	// RootID the top session of that lineage (the parent's root, or the
	// parent).
	ParentID string `json:"parentId,omitempty"`
	RootID   string `json:"rootId,omitempty"`
	// Agent is a sub-agent session's agent (explore, general, or a
	// definition's name).
	Agent string `json:"agent,omitempty"`
}

// Store is a directory of sessions. The zero value is not usable; use Open.
type Store struct {
	dir string
	now func() time.Time
}

// DefaultDir returns the sessions directory: $ZERO_SESSION_DIR when set,
// else $XDG_DATA_HOME/zero/sessions, else ~/.local/share/zero/sessions.
func DefaultDir() (string, error) {
	if d := os.Getenv("ZERO_SESSION_DIR"); d != "" {
		return d, nil
	}
	data, err := xdg.DataDir()
	if err != nil {
		return "", fmt.Errorf("sessions: no home directory; set ZERO_SESSION_DIR: %w", err)
	}
	return filepath.Join(data, "sessions"), nil
}

// Open returns the store rooted at dir (created on first Create). It does
// no I/O.
func Open(dir string) *Store { return &Store{dir: dir, now: time.Now} }

// Dir returns the store's directory.
func (st *Store) Dir() string { return st.dir }

// NewID returns a fresh session id for time t: UTC "20060102-150405"
// followed by "-" and 6 random hex digits.
func NewID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Create makes a new session from meta: ID, Created and Updated are filled
// when empty; Workspace is made canonical (absolute, symlinks resolved).
// The directory is private (0700). The session is returned locked (see
// Lock): it is built under a hidden name and renamed into place with its
// lock held, so no other process ever sees it unlocked (List removes
// unlocked prompt-less sessions). Close releases the lock and, when no
// prompt was recorded, removes the session (see Metadata.Empty).
func (st *Store) Create(meta Metadata) (*Session, error) {
	now := st.now()
	if meta.Created.IsZero() {
		meta.Created = now
	}
	if meta.Updated.IsZero() {
		meta.Updated = meta.Created
	}
	if meta.Workspace != "" {
		meta.Workspace = canonical(meta.Workspace)
	}
	if err := os.MkdirAll(st.dir, 0o700); err != nil {
		return nil, fmt.Errorf("sessions: create store: %w", err)
	}
	given := meta.ID != ""
	for try := 0; ; try++ {
		if !given {
			meta.ID = NewID(meta.Created)
		}
		s, err := st.create(meta)
		if err == nil {
			return s, nil
		}
		if !errors.Is(err, fs.ErrExist) || given || try > 8 {
			return nil, fmt.Errorf("sessions: create %s: %w", meta.ID, err)
		}
	}
}

// create makes the directory of meta.ID in a hidden temporary directory
// (ids skips it), with metadata.json and the lock taken, and renames it
// into place. Where flock(2) is missing the lock is taken after the rename
// (a directory holding an open file may not rename there, and List removes
// nothing there). rename(2) fails with EEXIST or ENOTEMPTY (both
// fs.ErrExist) onto a session; the Lstat catches an empty directory.
func (st *Store) create(meta Metadata) (*Session, error) {
	final := filepath.Join(st.dir, meta.ID)
	if _, err := os.Lstat(final); err == nil {
		return nil, fs.ErrExist
	}
	tmp, err := os.MkdirTemp(st.dir, ".create-")
	if err != nil {
		return nil, err
	}
	s := newSession(st, meta)
	fail := func(err error) (*Session, error) {
		if s.lock != nil {
			s.lock.Close()
			s.lock = nil
		}
		os.RemoveAll(tmp)
		return nil, err
	}
	if flockWorks {
		if s.lock, err = lockPid(filepath.Join(tmp, LockFile), meta.ID); err != nil {
			return fail(err)
		}
	}
	if err := writeFileAtomic(filepath.Join(tmp, MetadataFile), mustJSON(meta)); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fail(err)
	}
	if !flockWorks {
		if s.lock, err = lockPid(filepath.Join(final, LockFile), meta.ID); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(s.EventsPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.unlockLocked()
		return nil, fmt.Errorf("sessions: create log: %w", err)
	}
	s.f = f
	return s, nil
}

// Load opens the session whose id is id or starts with it. It errors with
// ErrNotFound when none matches and with ErrAmbiguous, naming the
// candidates, when the prefix is ambiguous; a prefix ignores prompt-less sessions (see Metadata.Empty)
// when it matches another, and an exact id loads any session. Loading
// never modifies the log; the first Append repairs a torn tail.
func (st *Store) Load(id string) (*Session, error) {
	id = strings.TrimSpace(id)
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, fmt.Errorf("sessions: bad session id %q", id)
	}
	ids, err := st.ids()
	if err != nil {
		return nil, err
	}
	var match []string
	for _, x := range ids {
		if x == id {
			match = []string{x}
			break
		}
		if strings.HasPrefix(x, id) {
			match = append(match, x)
		}
	}
	if len(match) > 1 {
		match = withPrompts(st, match)
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("sessions: %q in %s: %w (list them with `zero sessions`)", id, st.dir, ErrNotFound)
	case 1:
	default:
		if len(match) > 5 {
			match = append(match[:5], "…")
		}
		return nil, &ambiguousError{fmt.Sprintf("sessions: %q is ambiguous: %s", id, strings.Join(match, ", "))}
	}
	meta, _ := st.readMeta(match[0])
	return newSession(st, meta), nil
}

// withPrompts returns the ids of ids whose sessions are not Empty, or ids
// when all are.
func withPrompts(st *Store, ids []string) []string {
	var out []string
	for _, id := range ids {
		if m, _ := st.readMeta(id); !m.Empty() {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return ids
	}
	return out
}

// List returns the metadata of every session that recorded a prompt or a
// `!cmd` (see Metadata.Empty), most recently updated first (ties by id,
// newest first). A session whose metadata.json is missing or damaged is
// listed as rebuilt from its log (Workspace included, from the log's
// run_start or user_shell lines), never hidden while its log records a
// prompt.
//
// A prompt-less session is left out. When no process holds its lock (a
// crash left it; a live run holds it, and Create returns sessions
// locked) List removes it, where flock(2) exists; see keep.go.
func (st *Store) List() ([]Metadata, error) {
	ids, err := st.ids()
	if err != nil {
		return nil, err
	}
	out := make([]Metadata, 0, len(ids))
	for _, id := range ids {
		m, _ := st.readMeta(id)
		if m.Empty() {
			st.prune(id)
			continue
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Latest returns the most recently updated session whose Workspace is
// workspace (made canonical like Create does), or any session when
// workspace is "", among those List returns: a prompt-less session is
// never the latest, so --resume continues the last real conversation. It
// errors with ErrNotFound when there is none.
func (st *Store) Latest(workspace string) (*Session, error) {
	if workspace != "" {
		workspace = canonical(workspace)
	}
	list, err := st.List()
	if err != nil {
		return nil, err
	}
	for _, m := range list {
		if workspace == "" || m.Workspace == workspace {
			return newSession(st, m), nil
		}
	}
	return nil, fmt.Errorf("sessions: no session for %s: %w", workspace, ErrNotFound)
}

// Fork creates a new session holding a copy of every readable event of
// the session id (or unique prefix) names, with ForkedFrom set. Damaged
// lines of the source are not copied; the fork's log is clean.
func (st *Store) Fork(id string) (*Session, error) {
	src, err := st.Load(id)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(src.EventsPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("sessions: fork %s: %w", src.ID(), err)
	}
	meta := src.Meta()
	meta.ID, meta.Created, meta.Updated = "", time.Time{}, time.Time{}
	meta.ForkedFrom = src.ID()
	dst, err := st.Create(meta)
	if err != nil {
		return nil, err
	}
	recs, _ := ReadRecords(data, eventPrefix)
	var buf []byte
	for _, r := range recs {
		buf = append(append(buf, r.Raw...), '\n')
	}
	if err := dst.writeRaw(buf); err != nil {
		dst.Close()
		return nil, err
	}
	return dst, dst.Sync()
}

// ids lists the session directories.
func (st *Store) ids() ([]string, error) {
	ents, err := os.ReadDir(st.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// readMeta reads a session's metadata. When metadata.json is missing or
// damaged it is rebuilt from the log (see metaFromLog), falling back to
// what the directory itself tells (id, log modification time); the error
// still says the file was unreadable. A file that says no prompt was sent
// is checked against the log (see reconcile).
func (st *Store) readMeta(id string) (Metadata, error) {
	dir := filepath.Join(st.dir, id)
	data, err := os.ReadFile(filepath.Join(dir, MetadataFile))
	var m Metadata
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		m = metaFromLog(filepath.Join(dir, EventsFile))
		if t, ok := idTime(id); ok {
			m.Created = t // the id names the creation; the first event came later
		}
	} else if m.Empty() {
		reconcile(&m, filepath.Join(dir, EventsFile))
	}
	m.ID = id
	if m.Updated.IsZero() {
		for _, p := range []string{filepath.Join(dir, EventsFile), dir} {
			if fi, serr := os.Stat(p); serr == nil {
				m.Updated = fi.ModTime()
				break
			}
		}
	}
	if m.Created.IsZero() {
		m.Created = m.Updated
		if t, ok := idTime(id); ok {
			m.Created = t
		}
	}
	return m, err
}

// idTime returns the creation time a NewID id starts with.
func idTime(id string) (time.Time, bool) {
	if len(id) < 15 {
		return time.Time{}, false
	}
	t, err := time.Parse("20060102-150405", id[:15])
	return t, err == nil
}

// metaFromLog rebuilds what metadata.json held from the events at path,
// replaying them through noteMeta as Append did: Workspace, Provider and
// Model from run_start events (Workspace also from user_shell events),
// FirstPrompt and Turns from user prompts, ShellCommands from user_shell,
// Created and Updated from the first and last event times (readMeta
// prefers the id's time for Created). Fields the log
// does not record (Title, ForkedFrom, ParentID) stay empty, and so does
// Workspace for logs written before run_start carried it. An unreadable
// log yields the zero Metadata.
func metaFromLog(path string) Metadata {
	var m Metadata
	data, err := os.ReadFile(path)
	if err != nil {
		return m
	}
	evs, _ := decodeEvents(data, func(t event.Type) bool {
		return t == event.RunStart || t == event.Message || t == event.RunEnd || t == event.UserShell
	})
	for _, ev := range evs {
		if m.Created.IsZero() {
			m.Created = ev.Time
		}
		noteMeta(&m, ev)
	}
	return m
}

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // Metadata always marshals
	}
	return append(b, '\n')
}

// writeFileAtomic writes metadata so readers see the old or the new file
// whole (private to the user).
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	return nil
}

// canonical returns dir absolute, cleaned and with symlinks resolved when
// it exists.
func canonical(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Clean(dir)
}

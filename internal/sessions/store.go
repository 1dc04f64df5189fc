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
)

// File names inside a session directory.
const (
	MetadataFile = "metadata.json"
	EventsFile   = "events.jsonl"
)

// ErrNotFound is returned (wrapped) when no session matches an id, a
// prefix or a workspace.
var ErrNotFound = errors.New("session not found")

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
	// promptInRun: the current run's prompt was counted (not stored).
	promptInRun bool
	// ForkedFrom is the id of the session this one was forked from.
	ForkedFrom string `json:"forkedFrom,omitempty"`
	// ParentID is the session that started this one as a sub-agent.
	ParentID string `json:"parentId,omitempty"`
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
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "zero", "sessions"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("sessions: no home directory; set ZERO_SESSION_DIR: %w", err)
	}
	return filepath.Join(home, ".local", "share", "zero", "sessions"), nil
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
// when empty; Workspace is made canonical (absolute, symlinks resolved). The directory is private (0700).
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
		err := os.Mkdir(filepath.Join(st.dir, meta.ID), 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || given || try > 8 {
			return nil, fmt.Errorf("sessions: create %s: %w", meta.ID, err)
		}
	}
	s := newSession(st, meta)
	if err := writeFileAtomic(s.metaPath(), mustJSON(meta)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(s.EventsPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sessions: create log: %w", err)
	}
	s.f = f
	return s, nil
}

// Load opens the session whose id is id or starts with it. It errors with
// ErrNotFound when none matches and names the candidates when the prefix
// is ambiguous. Loading never modifies the log; the first Append repairs a
// torn tail.
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
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("sessions: %q in %s: %w (list them with `zero sessions`)", id, st.dir, ErrNotFound)
	case 1:
	default:
		if len(match) > 5 {
			match = append(match[:5], "…")
		}
		return nil, fmt.Errorf("sessions: %q is ambiguous: %s", id, strings.Join(match, ", "))
	}
	meta, _ := st.readMeta(match[0])
	return newSession(st, meta), nil
}

// List returns every session's metadata, most recently updated first (ties
// by id, newest first). A session whose metadata.json is missing or
// damaged is listed with its id and the log's modification time, never
// hidden.
func (st *Store) List() ([]Metadata, error) {
	ids, err := st.ids()
	if err != nil {
		return nil, err
	}
	out := make([]Metadata, 0, len(ids))
	for _, id := range ids {
		m, _ := st.readMeta(id)
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
// workspace (made canonical like Create does), or any session when workspace is "". It
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
// still says the file was unreadable.
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
// Model from run_start events, FirstPrompt and Turns from user prompts,
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
		return t == event.RunStart || t == event.Message || t == event.RunEnd
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

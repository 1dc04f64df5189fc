package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// eventPrefix is how every events.jsonl line begins: encoding/json writes
// struct fields in order and SchemaVersion is event.Event's first field.
var eventPrefix = []byte(`{"schemaVersion":`)

// firstPromptRunes caps Metadata.FirstPrompt.
const firstPromptRunes = 200

// Session is one session directory. Its methods are safe for concurrent
// use; appends are serialized.
type Session struct {
	st *Store
	id string // immutable copy of meta.ID

	mu      sync.Mutex
	meta    Metadata
	f       *os.File // append descriptor, opened by the first Append
	dirty   bool     // meta changed since it was last written
	err     error    // first Emit error
	repairs []Warning
	enc     bytes.Buffer
	lock    *os.File // the lock file while Lock holds it
	removed bool     // Close removed the prompt-less session
}

func newSession(st *Store, meta Metadata) *Session {
	return &Session{st: st, id: meta.ID, meta: meta}
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Dir returns the session directory.
func (s *Session) Dir() string { return filepath.Join(s.st.dir, s.id) }

// EventsPath returns the path of events.jsonl.
func (s *Session) EventsPath() string { return filepath.Join(s.Dir(), EventsFile) }

func (s *Session) metaPath() string { return filepath.Join(s.Dir(), MetadataFile) }

// Meta returns a copy of the session's metadata as last loaded or updated.
func (s *Session) Meta() Metadata {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta
}

// UpdateMeta applies fn to the metadata and writes metadata.json
// atomically (temporary file + rename). fn must not change ID.
func (s *Session) UpdateMeta(fn func(*Metadata)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(&s.meta)
	s.meta.ID = s.id
	return s.flushMeta()
}

func (s *Session) flushMeta() error {
	if err := writeFileAtomic(s.metaPath(), mustJSON(s.meta)); err != nil {
		return err
	}
	s.dirty = false
	return nil
}

// Append writes ev as one JSON line. SchemaVersion and Time are filled
// when zero. The line and its '\n' go out in one write(2) on an O_APPEND
// descriptor; message, compaction, error, run_end and user_shell events
// are fsynced (with metadata), deltas are not. run_start and user_shell
// lines carry the session's workspace unless the event names one. The
// first Append after Load repairs a torn tail (see RepairTail). Metadata
// (Updated, Turns, FirstPrompt, ShellCommands, Model, Provider) follows
// the events appended.
func (s *Session) Append(ev event.Event) error {
	if ev.SchemaVersion == 0 {
		ev.SchemaVersion = event.SchemaVersion
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Time.IsZero() {
		ev.Time = s.st.now() // under the lock: times follow log order
	}
	if (ev.Type == event.RunStart || ev.Type == event.UserShell) && ev.Workspace == "" {
		ev.Workspace = s.meta.Workspace // so a lost metadata.json can be rebuilt
	}
	s.enc.Reset()
	enc := json.NewEncoder(&s.enc)
	enc.SetEscapeHTML(false) // keeps tool output readable; \n, U+2028/9 are still escaped
	if err := enc.Encode(ev); err != nil {
		return fmt.Errorf("sessions: encode %s event: %w", ev.Type, err)
	}
	if err := s.writeLocked(s.enc.Bytes()); err != nil {
		return err
	}
	s.note(ev)
	if durable(ev.Type) {
		if err := s.f.Sync(); err != nil {
			return fmt.Errorf("sessions: sync: %w", err)
		}
		if s.dirty {
			return s.flushMeta()
		}
	}
	return nil
}

// Emit appends ev, making a Session an event.Sink. The first error is
// kept for Err; later events are still attempted.
func (s *Session) Emit(ev event.Event) {
	if err := s.Append(ev); err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
}

// Err returns the first error Emit met, or nil.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Repairs returns what the first Append did to a torn tail (a
// WarnTruncatedTail naming the bytes moved aside), or nil.
func (s *Session) Repairs() []Warning {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.repairs
}

func durable(t event.Type) bool {
	switch t {
	case event.Message, event.Compaction, event.Error, event.RunEnd, event.UserShell, event.Checkpointed, event.Rewound:
		return true // a user_shell may be all a session holds: see keep.go
	}
	return false
}

// writeRaw appends whole lines as they are.
func (s *Session) writeRaw(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeLocked(b)
}

func (s *Session) writeLocked(b []byte) error {
	if s.f == nil {
		ws, err := RepairTail(s.EventsPath(), s.st.now())
		if err != nil {
			return err
		}
		s.repairs = ws
		f, err := os.OpenFile(s.EventsPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("sessions: open log: %w", err)
		}
		s.f = f
	}
	if _, err := s.f.Write(b); err != nil {
		// A failed write (disk full) may have left part of the line:
		// reopen next time so RepairTail runs before the next record.
		s.f.Close()
		s.f = nil
		return fmt.Errorf("sessions: append: %w", err)
	}
	return nil
}

// note folds ev into the metadata.
func (s *Session) note(ev event.Event) {
	noteMeta(&s.meta, ev)
	s.dirty = true
}

// noteMeta folds ev into m: Updated, Model, Provider and Workspace from
// run_start (the first workspace wins; a user_shell's too), FirstPrompt
// and Turns from user prompts, ShellCommands from user_shell. Append and
// the rebuild of a lost metadata.json share it, so a rebuilt file says
// what the lost one said.
func noteMeta(m *Metadata, ev event.Event) {
	if !ev.Time.IsZero() {
		m.Updated = ev.Time
	}
	switch ev.Type {
	case event.RunStart:
		m.promptInRun = false
		if ev.Model != "" {
			m.Model = ev.Model
		}
		if ev.Provider != "" {
			m.Provider = ev.Provider
		}
		if ev.Workspace != "" {
			m.Workspace = ev.Workspace // the last wins: a session moves with a resume elsewhere (MoveTo)
		}
		if m.FirstPrompt == "" {
			m.FirstPrompt = cut(ev.Prompt)
		}
	case event.UserShell:
		m.ShellCommands++
		if m.Workspace == "" {
			m.Workspace = ev.Workspace
		}
	case event.Message:
		if ev.Message == nil || ev.Message.Role != llm.RoleUser || hasResults(*ev.Message) {
			return
		}
		var text strings.Builder
		for _, p := range ev.Message.Parts {
			if p.Type == llm.PartText {
				text.WriteString(p.Text)
			}
		}
		if text.Len() == 0 {
			return
		}
		if !m.promptInRun {
			m.Turns++
			m.promptInRun = true
		}
		if m.FirstPrompt == "" {
			m.FirstPrompt = cut(text.String())
		}
	}
}

func cut(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= firstPromptRunes {
		return s
	}
	r := []rune(s)
	return string(r[:firstPromptRunes]) + "…"
}

// Sync flushes the log and the metadata to disk.
func (s *Session) Sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.f != nil {
		err = s.f.Sync()
	}
	if s.dirty {
		err = errors.Join(err, s.flushMeta())
	}
	return err
}

// Close syncs and closes the log and releases the lock (see Lock). A
// session that holds its lock (Create returns it locked) and recorded no
// prompt and no `!cmd` is removed, directory and all (see Metadata.Empty
// and keep.go); Removed then reports true. Otherwise the session may be
// appended to again after Close (the log is reopened). Closing a session
// this Session does not hold the lock of never removes it.
func (s *Session) Close() error {
	err := s.Sync()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		err = errors.Join(err, s.f.Close())
		s.f = nil
	}
	if s.lock != nil && s.meta.Empty() {
		err = errors.Join(err, s.removeLocked())
	}
	return errors.Join(err, s.unlockLocked())
}

// Events reads the whole log, recovering from damage (see ReadRecords),
// and decodes every record into an event.Event. Warnings say what was
// skipped; the error is only for a log that cannot be read at all. A
// session with no log yet has no events.
func (s *Session) Events() ([]event.Event, []Warning, error) {
	data, err := os.ReadFile(s.EventsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sessions: read %s: %w", s.ID(), err)
	}
	evs, ws := DecodeEvents(data)
	return evs, ws, nil
}

// History rebuilds the conversation for resume (see RebuildHistory), with
// the reader's warnings followed by the repair's. Only message and
// compaction events are decoded; other healthy lines are skipped unparsed.
func (s *Session) History() ([]llm.Message, []Warning, error) {
	msgs, _, ws, err := s.Restore()
	return msgs, ws, err
}

// Restore is History with the session's latest plan (its last plan
// event, update_plan's), for resume.
func (s *Session) Restore() ([]llm.Message, *event.TaskPlan, []Warning, error) {
	data, err := os.ReadFile(s.EventsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sessions: read %s: %w", s.ID(), err)
	}
	evs, ws := decodeEvents(data, func(t event.Type) bool {
		return t == event.Message || t == event.Compaction || t == event.Plan || t == event.RunStart || t == event.Rewound
	})
	msgs, rw := RebuildHistory(evs)
	return msgs, LatestPlan(evs), append(ws, rw...), nil
}

// ToolOutcomes are the results of the session's own tool calls as its
// tool_result events recorded them, by call id: with the exit code, time
// and diff the conversation's tool result messages leave out, so a
// resumed transcript heads each result as the live one did. Sub-agents'
// results are left out; unreadable lines are skipped.
func (s *Session) ToolOutcomes() (map[string]event.ToolOutcome, error) {
	data, err := os.ReadFile(s.EventsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: read %s: %w", s.ID(), err)
	}
	evs, _ := decodeEvents(data, func(t event.Type) bool { return t == event.ToolResult })
	out := map[string]event.ToolOutcome{}
	for _, ev := range evs {
		if ev.Result != nil && ev.ParentToolCallID == "" {
			out[ev.Result.CallID] = *ev.Result
		}
	}
	return out, nil
}

// LatestPlan is the plan of the last plan event in events, or nil.
func LatestPlan(events []event.Event) *event.TaskPlan {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == event.Plan && events[i].Plan != nil {
			return events[i].Plan
		}
	}
	return nil
}

// RepairTail makes the log at path end in '\n' before anything is
// appended, so a new record is never glued to the fragment of a torn write
// (case B27, prime-agent PR#1785). If the unterminated last line holds a
// complete record (only the '\n' was lost), a '\n' is added. Otherwise the
// fragment is saved to "<path>.corrupt-<UTC time>" and the file truncated
// back to its last '\n'; the returned warning says so. A missing or empty
// file, or one ending in '\n', is left alone.
func RepairTail(path string, now time.Time) ([]Warning, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	size := fi.Size()
	if size == 0 {
		return nil, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	if last[0] == '\n' {
		return nil, nil
	}
	start, err := lastLineStart(f, size)
	if err != nil {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	frag := make([]byte, size-start)
	if _, err := f.ReadAt(frag, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	found := 0
	scanLine(frag, 0, true, eventPrefix, func(Record) { found++ }, func(Warning) {})
	if found > 0 {
		// Complete records survive: only the newline was lost.
		if _, err := f.WriteAt([]byte{'\n'}, size); err != nil {
			return nil, fmt.Errorf("sessions: repair log: %w", err)
		}
		return nil, f.Sync()
	}
	aside := path + ".corrupt-" + now.UTC().Format("20060102T150405.000000000Z")
	if err := os.WriteFile(aside, frag, 0o600); err != nil {
		return nil, fmt.Errorf("sessions: save torn tail: %w", err)
	}
	if err := f.Truncate(start); err != nil {
		return nil, fmt.Errorf("sessions: truncate torn tail: %w", err)
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("sessions: repair log: %w", err)
	}
	lines, _ := countLines(f, start)
	return []Warning{{Kind: WarnTruncatedTail, Line: lines + 1, Bytes: len(frag), Detail: "saved to " + filepath.Base(aside)}}, nil
}

// lastLineStart returns the offset just after the last '\n' in the first
// size bytes of f (0 when there is none), reading backwards in blocks.
func lastLineStart(f *os.File, size int64) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	for end := size; end > 0; {
		start := max(end-block, 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// countLines counts the '\n' bytes in the first size bytes of f.
func countLines(f *os.File, size int64) (int, error) {
	n := 0
	err := readBlocks(io.NewSectionReader(f, 0, size), func(b []byte) { n += bytes.Count(b, []byte{'\n'}) })
	return n, err
}

func readBlocks(r io.Reader, fn func([]byte)) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		fn(buf[:n])
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

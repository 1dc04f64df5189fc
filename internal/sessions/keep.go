package sessions

import (
	"fmt"
	"os"
	"path/filepath"
)

// Which sessions are kept.
//
// A session is kept when the user said something in it: a prompt (a
// run_start with a prompt, or a user message with text) or a `!cmd` (a
// user_shell event). Opening the app and quitting, or `zero exec` failing
// before its prompt is recorded, leaves nothing to continue, so such a
// session is not kept: Close removes it, and List, Latest (what --resume
// uses) and a Load by prefix do not show it, so `zero exec --resume`
// continues the last real conversation. This is what Claude Code and Codex
// do: their session lists hold conversations only.
//
// A `!cmd` counts because its command and output are part of the
// conversation: the user ran it so that the next prompt can refer to it
// (Claude Code's bash mode adds its output to the context), and losing it
// on quit would lose what the user did. A fork copies its source's
// history, prompts included, so it is kept like its source.
//
// Nothing here deletes a session another process may be using: Close
// removes only a session its Session holds the lock of (Create returns it
// locked), and List removes a prompt-less session left by a crash only
// after taking its lock, re-reading it under the lock, and only where
// flock(2) exists. A session is removed only when its directory holds
// nothing but metadata.json, events.jsonl and the lock file, and only
// when its log, not only metadata.json, records no prompt.

// Empty reports that the session recorded nothing the user said: no
// prompt and no `!cmd` (see "Which sessions are kept" in keep.go). Such a
// session is not kept.
func (m Metadata) Empty() bool {
	return m.Turns == 0 && m.FirstPrompt == "" && m.ShellCommands == 0
}

// InWorkspace reports whether the session was recorded in dir (made
// canonical like Create does). A session that does not record its
// workspace (logs older than run_start's workspace field) is in every
// workspace: the caller has nothing to warn about. A resume of a session
// for which it is false should say so, naming m.Workspace.
func (m Metadata) InWorkspace(dir string) bool {
	return m.Workspace == "" || m.Workspace == canonical(dir)
}

// MoveTo makes dir (made canonical like Create does) the session's
// workspace: a session resumed or forked in another folder belongs to the
// folder it now works in, so that folder's `zero sessions` and --resume
// find it. Its later run_start lines carry dir, so a metadata.json
// rebuilt from the log says dir too (noteMeta: the last workspace wins).
func (s *Session) MoveTo(dir string) error {
	return s.UpdateMeta(func(m *Metadata) { m.Workspace = canonical(dir) })
}

// Removed reports that Close removed the session because it recorded no
// prompt (see Metadata.Empty). A surface prints how to resume (the ID)
// only when it is false.
func (s *Session) Removed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.removed
}

// removeLocked removes the session directory of a session that holds its
// lock and recorded no prompt, unless its log says otherwise or the
// directory holds files the store did not write. s.mu is held.
func (s *Session) removeLocked() error {
	if !metaFromLog(s.EventsPath()).Empty() || !onlyStoreFiles(s.Dir()) {
		return nil
	}
	err := removeDir(s.st.dir, s.id, func() { _ = s.unlockLocked() })
	if err != nil {
		return fmt.Errorf("sessions: remove prompt-less session %s: %w", s.id, err)
	}
	s.removed = true
	return nil
}

// prune removes the prompt-less session id, left by a crash, when no
// process holds its lock. It takes the lock first and re-reads the session
// under it, so a session that another process is creating, has open, or
// has just given a prompt is never touched. Errors leave it in place
// (List hides it anyway).
func (st *Store) prune(id string) {
	if _, ok := idTime(id); !flockWorks || !ok {
		return
	}
	dir := filepath.Join(st.dir, id)
	if !onlyStoreFiles(dir) {
		return
	}
	f, _, err := acquire(filepath.Join(dir, LockFile))
	if err != nil || f == nil {
		return // gone, unreadable, or held by a live process
	}
	released := false
	release := func() {
		if !released {
			released = true
			f.Close()
		}
	}
	defer release()
	if m, _ := st.readMeta(id); !m.Empty() || !onlyStoreFiles(dir) {
		return
	}
	_ = removeDir(st.dir, id, release)
}

// removeDir removes the session directory id of the store at root. It is
// first renamed to a hidden name (ids skips those) while the caller still
// holds its lock, so no other process can load or lock it half-removed;
// release drops the lock; then the renamed tree is deleted. Where a
// directory with an open file cannot be renamed, the lock is released
// first.
func removeDir(root, id string, release func()) error {
	dir := filepath.Join(root, id)
	trash := filepath.Join(root, ".removed-"+id)
	if err := os.Rename(dir, trash); err != nil {
		release()
		if err := os.Rename(dir, trash); err != nil {
			return err
		}
	}
	release()
	return os.RemoveAll(trash)
}

// storeFiles are the only files a session directory of a prompt-less
// session may hold for it to be removed; anything else (a spilled tool
// output, a saved torn tail, a file the user put there) keeps it.
var storeFiles = map[string]bool{MetadataFile: true, EventsFile: true, LockFile: true}

// onlyStoreFiles reports whether dir holds only storeFiles.
func onlyStoreFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !storeFiles[e.Name()] || e.IsDir() {
			return false
		}
	}
	return true
}

// reconcile fixes a metadata.json that says the session is empty while its
// log records a prompt: Append flushes metadata.json only with durable
// events, so a crash right after a run_start or a `!cmd` can leave it
// stale, and a stale file must never hide (or get removed) a
// conversation. The log's counts replace the file's; the rest of the file
// stands.
func reconcile(m *Metadata, logPath string) {
	lm := metaFromLog(logPath)
	if lm.Empty() {
		return
	}
	m.Turns, m.FirstPrompt, m.ShellCommands = lm.Turns, lm.FirstPrompt, lm.ShellCommands
	if lm.Updated.After(m.Updated) {
		m.Updated = lm.Updated
	}
	if m.Workspace == "" {
		m.Workspace = lm.Workspace
	}
	if m.Model == "" {
		m.Model, m.Provider = lm.Model, lm.Provider
	}
}

package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the advisory lock file in a session directory.
const LockFile = "lock"

// ErrInUse is returned (wrapped) by Lock when another process holds the
// session's lock. The wrapping error names the session and the holder's
// pid: "session <id> is in use by another zero process (pid N)".
var ErrInUse = errors.New("session is in use")

// Lock takes an exclusive advisory lock on the session (flock(2) on
// <dir>/lock, non-blocking) and writes this process's pid into the lock
// file. A run that appends to the session holds it from before its first
// Append until Close or Unlock, so two processes resuming one session never
// interleave their records; Create returns a session that holds it. List
// removes a prompt-less session only after taking its lock (keep.go). It fails at once with ErrInUse (wrapped, naming
// the holder's pid when the file holds one) when another open lock exists
// (another process, or another Session value of this process). Locking a
// Session that already holds the lock is a no-op. The lock is advisory:
// readers (Events, History, List) do not take it. On systems without
// flock it always succeeds. The kernel drops it when the process dies, so
// a crash never leaves a session locked.
func (s *Session) Lock() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock != nil {
		return nil
	}
	f, err := lockPid(filepath.Join(s.Dir(), LockFile), s.id)
	if err != nil {
		return err
	}
	s.lock = f
	return nil
}

// lockPid takes the lock file at path for session id (see Lock) and writes
// this process's pid into it.
func lockPid(path, id string) (*os.File, error) {
	f, pid, err := acquire(path)
	if err != nil {
		return nil, fmt.Errorf("sessions: lock %s: %w", id, err)
	}
	if f == nil {
		if pid > 0 {
			return nil, fmt.Errorf("session %s is in use by another zero process (pid %d): %w", id, pid, ErrInUse)
		}
		return nil, fmt.Errorf("session %s is in use by another zero process: %w", id, ErrInUse)
	}
	// The pid is for the message above only; the lock is the flock.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// acquire opens (creating) the lock file at path and takes its flock
// without blocking. When another open lock holds it, f is nil and pid is
// the pid the holder wrote (0 when unknown).
func acquire(path string) (f *os.File, pid int, err error) {
	f, err = os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, 0, err
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !held {
		return f, 0, nil
	}
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	f.Close()
	pid, _ = strconv.Atoi(strings.TrimSpace(string(b[:n])))
	return nil, max(pid, 0), nil
}

// Unlock releases the lock taken by Lock or Create (Close does too, and
// removes a prompt-less session; Unlock never removes). Without the lock
// it does nothing. A caller that only probes whether another process holds
// a session (Lock, then give it back) should give it back with Unlock.
func (s *Session) Unlock() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unlockLocked()
}

func (s *Session) unlockLocked() error {
	if s.lock == nil {
		return nil
	}
	f := s.lock
	s.lock = nil
	// The pid goes first so that a reader never blames a process that
	// no longer holds the lock; closing the descriptor releases it.
	_ = f.Truncate(0)
	return f.Close()
}

package run

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/checkpoint"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/sessions"
)

// RewindOptions say what a rewind restores: the files, the conversation
// or both (the zero value of Files and Conversation: both).
type RewindOptions struct {
	// To is the prompt whose starting state is restored (sessions.Prompts
	// numbers them).
	To                          int
	FilesOnly, ConversationOnly bool
	// DryRun plans without writing anything; Force restores conflicting
	// files too.
	DryRun, Force bool
}

// RewindReport is what a rewind did (or, dry, would do).
type RewindReport struct {
	// Prompt is the rewind's own number (a later rewind to it undoes it);
	// 0 for a dry run.
	Prompt int
	// Actions are the files put back; those with Conflict set were kept
	// unless Forced.
	Actions []checkpoint.Action
	Forced  bool
	// Skipped are files changed after the target that were too big to
	// record (left as they are).
	Skipped []string
	// Conversation: the conversation was cut at the target.
	Conversation bool
}

// Rewind puts session id back to the state before prompt o.To (see
// rewindLog). The session must not be open elsewhere: an open one is
// rewound in process with Session.Rewind.
func Rewind(st *sessions.Store, id string, o RewindOptions) (RewindReport, error) {
	log, err := st.Load(id)
	if err != nil {
		return RewindReport{}, err
	}
	defer log.Close()
	if !o.DryRun {
		if err := log.Lock(); err != nil {
			if errors.Is(err, sessions.ErrInUse) {
				return RewindReport{}, &InUseError{ID: log.ID(), Err: err}
			}
			return RewindReport{}, err
		}
	}
	return rewindLog(log, checkpoint.Open(CheckpointDir(st.Dir())), o)
}

// ConflictError: a rewind kept files changed since Zero last wrote them
// (everything else was restored); --force restores them too.
type ConflictError struct{ Paths []string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%d file(s) changed since Zero last wrote them were kept: %s (--force restores them)", len(e.Paths), strings.Join(e.Paths, ", "))
}

// rewindLog rewinds the open log (locked unless o.DryRun): it logs a
// Rewound event (and, for files, a Checkpointed one holding the files as
// they were, so the rewind can itself be rewound), then restores the
// files. Kept conflicts are a ConflictError after the rest is restored.
func rewindLog(log *sessions.Session, store *checkpoint.Store, o RewindOptions) (RewindReport, error) {
	if o.FilesOnly && o.ConversationOnly {
		return RewindReport{}, &ConfigError{"--files-only and --conversation-only exclude each other"}
	}
	evs, _, err := log.Events()
	if err != nil {
		return RewindReport{}, err
	}
	prompts := sessions.Prompts(evs)
	if o.To < 1 || o.To > len(prompts) {
		return RewindReport{}, &ConfigError{fmt.Sprintf("session %s has prompts 1 to %d; --to %d is not one of them (zero sessions rewind %s lists them)", log.ID(), len(prompts), o.To, log.ID())}
	}
	rep := RewindReport{Conversation: !o.FilesOnly, Forced: o.Force}
	var changes []event.FileChange
	for _, p := range prompts[o.To-1:] {
		changes = append(changes, p.Changes...)
		rep.Skipped = append(rep.Skipped, p.Skipped...)
	}
	root := log.Meta().Workspace
	files := !o.ConversationOnly
	if files {
		if root == "" {
			return rep, fmt.Errorf("session %s recorded no workspace: its files cannot be restored", log.ID())
		}
		rep.Actions, err = checkpoint.Plan(changes, func(rel string) (event.FileState, error) { return checkpoint.State(root, rel) })
		if err != nil {
			return rep, err
		}
	}
	if o.DryRun {
		return rep, nil
	}
	cp, restore, err := checkpoint.Apply(store, root, rep.Actions, o.Force)
	if err != nil {
		return rep, err
	}
	runID := agent.NewRunID()
	marker := event.Checkpoint{To: o.To, Files: files, Conversation: rep.Conversation}
	if err := log.Append(event.Event{Type: event.Rewound, RunID: runID, Checkpoint: &marker}); err != nil {
		return rep, err
	}
	rep.Prompt = len(prompts) + 1
	if len(cp.Changes) > 0 {
		if err := log.Append(event.Event{Type: event.Checkpointed, RunID: runID, Checkpoint: &cp}); err != nil {
			return rep, err
		}
	}
	if restore != nil {
		err = restore()
	}
	return rep, errors.Join(err, log.Sync(), rep.conflicts())
}

// conflicts is the ConflictError of the files the rewind kept, or nil.
func (r RewindReport) conflicts() error {
	var kept []string
	for _, a := range r.Actions {
		if a.Conflict != "" && !r.Forced {
			kept = append(kept, a.Path)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return &ConflictError{Paths: kept}
}

// Lines describe what a rewind did (or, dry, would do): one line a file
// and a summary. force says, on the surface, how to restore a conflict;
// undo how to undo the rewind (%d: its number).
func (r RewindReport) Lines(o RewindOptions, force, undo string) []string {
	verb := map[bool]string{true: "would restore", false: "restored"}[o.DryRun]
	var out []string
	conflicts := 0
	for _, a := range r.Actions {
		what := "restore"
		if a.To.Hash == "" {
			what = "delete"
		} else if a.Now.Hash == "" {
			what = "recreate"
		}
		if a.Conflict != "" && !r.Forced {
			conflicts++
			out = append(out, fmt.Sprintf("conflict  %s (%s; kept, %s)", a.Path, a.Conflict, force))
			continue
		}
		out = append(out, fmt.Sprintf("%-8s  %s", what, a.Path))
	}
	for _, p := range r.Skipped {
		out = append(out, fmt.Sprintf("skipped   %s (over the size limit when it changed; left as it is)", p))
	}
	summary := fmt.Sprintf("%s %d file(s) to before prompt %d", verb, len(r.Actions)-conflicts, o.To)
	if o.ConversationOnly {
		summary = fmt.Sprintf("%s the conversation to before prompt %d", verb, o.To)
	} else if r.Conversation {
		summary += " and the conversation"
	}
	if conflicts > 0 {
		summary += fmt.Sprintf("; %d conflict(s) kept", conflicts)
	}
	if r.Prompt > 0 {
		summary += " (" + fmt.Sprintf(undo, r.Prompt) + ")"
	}
	return append(out, summary)
}

// Rewind puts this open session back to the state before prompt o.To,
// in process (its lock is this process's): files as Rewind restores
// them, and, when the conversation is restored, the agent's history cut
// to what it was when that prompt began, so the next prompt continues
// from there. Not safe while a prompt runs.
func (s *Session) Rewind(o RewindOptions) (RewindReport, error) {
	rep, err := rewindLog(s.log, checkpoint.Open(CheckpointDir(s.rt.Store.Dir())), o)
	if rep.Prompt == 0 || !rep.Conversation {
		return rep, err // nothing logged (dry, refused) or files only
	}
	history, _, _, herr := s.log.Restore()
	if herr == nil {
		s.agent.SetHistory(history)
		s.mu.Lock()
		s.usage = Usage{UsedTokens: s.agent.ContextReport().UsedTokens, Estimated: true}
		s.reported = false
		s.mu.Unlock()
	}
	return rep, errors.Join(err, herr)
}

// Prompts are this open session's numbered prompts (rewind targets).
func (s *Session) Prompts() ([]sessions.Prompt, error) {
	evs, err := s.Logged()
	return sessions.Prompts(evs), err
}

// SessionPrompts are the numbered prompts of session id, for choosing a
// rewind target.
func SessionPrompts(st *sessions.Store, id string) (string, []sessions.Prompt, error) {
	log, err := st.Load(id)
	if err != nil {
		return "", nil, err
	}
	defer log.Close()
	evs, _, err := log.Events()
	if err != nil {
		return "", nil, err
	}
	return log.ID(), sessions.Prompts(evs), nil
}

// cutAt cuts a fresh fork's conversation at prompt n (a Rewound event
// that restores the conversation only).
func cutAt(log *sessions.Session, n int) error {
	return log.Append(event.Event{Type: event.Rewound, RunID: agent.NewRunID(), Checkpoint: &event.Checkpoint{To: n, Conversation: true}})
}

// forkAt starts a fresh fork from before prompt w.At: the conversation
// cut there and, with w.RestoreFiles, the files restored (a rewind in the
// fork's log, whose report goes to the warnings writer). Kept conflicts
// are reported, not an error: the fork goes on with them as they are.
func (rt *Runtime) forkAt(log *sessions.Session, w Which) error {
	if !w.RestoreFiles {
		return cutAt(log, w.At)
	}
	if ws := log.Meta().Workspace; ws != rt.Workspace.Root() {
		return &ConfigError{fmt.Sprintf("--restore-files: session %s worked in %s, not %s (run zero there)", w.Fork, ws, rt.Workspace.Root())}
	}
	o := RewindOptions{To: w.At}
	rep, err := rewindLog(log, checkpoint.Open(CheckpointDir(rt.Store.Dir())), o)
	var conflict *ConflictError
	if err != nil && !errors.As(err, &conflict) {
		return err
	}
	force := fmt.Sprintf("zero sessions rewind %s --to %d --files-only --force restores it", log.ID(), w.At)
	for _, l := range rep.Lines(o, force, "undo: zero sessions rewind "+log.ID()+" --to %d --files-only") {
		fmt.Fprintln(rt.warnings(), "zero: fork:", l)
	}
	return nil
}

// checkAt refuses --at n before anything is forked when session id has
// no prompt n.
func checkAt(st *sessions.Store, id string, n int) error {
	full, prompts, err := SessionPrompts(st, id)
	if err != nil || (n >= 1 && n <= len(prompts)) {
		return err
	}
	return &ConfigError{fmt.Sprintf("--at %d: session %s has prompts 1 to %d (zero sessions rewind %s lists them)", n, full, len(prompts), full)}
}

package run

import (
	"errors"
	"fmt"

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

// Rewind puts session id back to the state before prompt o.To: it logs a
// Rewound event (and, for files, a Checkpointed one holding the files as
// they were, so the rewind can itself be rewound), then restores the
// files. The session must not be open elsewhere.
func Rewind(st *sessions.Store, id string, o RewindOptions) (RewindReport, error) {
	if o.FilesOnly && o.ConversationOnly {
		return RewindReport{}, &ConfigError{"--files-only and --conversation-only exclude each other"}
	}
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
	store := checkpoint.Open(CheckpointDir(st.Dir()))
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
	return rep, errors.Join(err, log.Sync())
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

// checkAt refuses --at n before anything is forked when session id has
// no prompt n.
func checkAt(st *sessions.Store, id string, n int) error {
	full, prompts, err := SessionPrompts(st, id)
	if err != nil || (n >= 1 && n <= len(prompts)) {
		return err
	}
	return &ConfigError{fmt.Sprintf("--at %d: session %s has prompts 1 to %d (zero sessions rewind %s lists them)", n, full, len(prompts), full)}
}

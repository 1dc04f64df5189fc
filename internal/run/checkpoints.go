package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/checkpoint"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
)

// CheckpointDir is the checkpoint store of the sessions directory dir: a
// hidden directory inside it (the session list skips hidden names), so
// $ZERO_SESSION_DIR moves both.
func CheckpointDir(sessionsDir string) string { return filepath.Join(sessionsDir, ".checkpoints") }

// newTracker is the session's checkpoint trackers over the workspace
// root and each added root (--add-dir), emitting into emit; a checkpoint
// that skipped files over the size limit is followed by a warning naming
// them. It collects old checkpoints at most once an hour.
// ZERO_CHECKPOINTS=0 turns checkpoints off (nil).
func (rt *Runtime) newTracker(emit func(event.Event)) *checkpoint.Set {
	if !checkpointsOn() {
		return nil
	}
	store := checkpoint.Open(CheckpointDir(rt.Store.Dir()))
	var keys *config.Checkpoints
	if rt.Config != nil {
		keys = rt.Config.Checkpoints
	}
	limits, maxFile := checkpointLimits(keys)
	rt.background.Go(func() { collectCheckpoints(store, limits) }) // Close waits for it
	set := checkpoint.NewSet(checkpoint.Options{
		Root:        rt.Workspace.Root(),
		Store:       store,
		Ignore:      func(root string) checkpoint.Ignorer { return tools.NewIgnore(root) },
		MaxFileSize: maxFile,
		Emit: func(e event.Event) {
			emit(e)
			if sk := e.Checkpoint.Skipped; len(sk) > 0 {
				emit(event.Event{Type: event.Warning, Text: skippedWarning(sk, maxFile)})
			}
		},
	}, rt.Workspace.Roots()[1:])
	for _, r := range set.Untracked {
		fmt.Fprintf(rt.warnings(), "zero: warning: checkpoint: the added root %s holds the workspace or another added root, so it is not recorded on its own: changes to files only it holds cannot be rewound\n", r)
	}
	return set
}

// checkpointLimits are the user config's "checkpoints" keys over the
// defaults: what Collect keeps and the largest file stored.
func checkpointLimits(c *config.Checkpoints) (checkpoint.Limits, int64) {
	l, maxFile := checkpoint.DefaultLimits, int64(checkpoint.DefaultMaxFileSize)
	if c == nil {
		return l, maxFile
	}
	if c.MaxAgeDays != nil {
		l.MaxAge = time.Duration(*c.MaxAgeDays) * 24 * time.Hour
	}
	if c.MaxTotalMB != nil {
		l.MaxBytes = int64(*c.MaxTotalMB) << 20
	}
	if c.MaxFileMB != nil {
		maxFile = int64(*c.MaxFileMB) << 20
	}
	return l, maxFile
}

// skippedWarning names the files a checkpoint could not record.
func skippedWarning(paths []string, maxFile int64) string {
	return fmt.Sprintf("checkpoint: not recorded (over %d MiB or not a regular file; a rewind cannot restore them): %s",
		maxFile>>20, strings.Join(paths, ", "))
}

// checkpointsOn: sessions record their file changes (ZERO_CHECKPOINTS=0
// turns it off; the permission engine then asks before shell deletes in
// auto-accept mode, as nothing could undo them).
func checkpointsOn() bool { return os.Getenv("ZERO_CHECKPOINTS") != "0" }

// collectCheckpoints runs Collect when the last run is over an hour old.
func collectCheckpoints(store *checkpoint.Store, l checkpoint.Limits) {
	stamp := filepath.Join(store.Dir(), "collected")
	if info, err := os.Stat(stamp); err == nil && time.Since(info.ModTime()) < time.Hour {
		return
	}
	if err := os.MkdirAll(store.Dir(), 0o700); err != nil {
		return
	}
	_ = os.WriteFile(stamp, nil, 0o600)
	_, _ = store.Collect(l, time.Now())
}

// checkpoint records, before the tool runs, the files a file tool names
// (or, for a shell tool, brings the tree index up to date), and returns
// what records the result after it ran. A recording failure is a
// warning on stderr: it never stops the tool.
func (o *observed) checkpoint(args json.RawMessage) func() {
	if o.ckpt == nil {
		return func() {}
	}
	switch o.Tool.SideEffect() {
	case tools.SideShell:
		if err := o.ckpt.BeforeShell(); err != nil {
			warnCheckpoint(err)
		}
		return func() {
			if err := o.ckpt.AfterShell(); err != nil {
				warnCheckpoint(err)
			}
		}
	case tools.SideWrite:
		rels, err := o.ckpt.BeforeWrite(o.targets(args))
		if err != nil {
			warnCheckpoint(err)
		}
		return func() {
			if err := o.ckpt.AfterWrite(rels); err != nil {
				warnCheckpoint(err)
			}
		}
	}
	return func() {}
}

// targets are the absolute paths a file tool's call names (apply_patch:
// every section's and move's).
func (o *observed) targets(args json.RawMessage) []string {
	var names []string
	if o.Tool.Name() == tools.ApplyPatchName {
		names, _ = tools.PatchPaths(args)
	} else {
		var a struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(args, &a) == nil && a.Path != "" {
			names = []string{a.Path}
		}
	}
	var out []string
	for _, n := range names {
		if abs, err := o.ws.Resolve(n, true); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

func warnCheckpoint(err error) {
	fmt.Fprintln(os.Stderr, "zero: warning: checkpoint:", err)
}

package sessions

import (
	"time"

	"github.com/zero-agent/zero/internal/event"
)

// Prompt is one numbered point of a session that a rewind goes back to:
// a prompt (a run_start) or a rewind (which counts as one, so it can be
// rewound in turn). Numbers start at 1 in log order and never change:
// prompts a conversation rewind cut away keep theirs.
type Prompt struct {
	N     int
	RunID string
	Time  time.Time
	// Text is the prompt; empty for a rewind.
	Text string
	// Rewind is set for a rewind: its target and what it restored.
	Rewind *event.Checkpoint
	// Changes are the file changes recorded during it (Checkpointed
	// events of its run), in log order; Skipped the files too big to
	// record.
	Changes []event.FileChange
	Skipped []string
}

// Prompts numbers the prompts and rewinds of events and gathers each
// one's recorded file changes.
func Prompts(events []event.Event) []Prompt {
	var out []Prompt
	byRun := map[string]int{}
	for _, ev := range events {
		switch ev.Type {
		case event.RunStart, event.Rewound:
			p := Prompt{N: len(out) + 1, RunID: ev.RunID, Time: ev.Time, Text: ev.Prompt}
			if ev.Type == event.Rewound {
				p.Rewind = ev.Checkpoint
			}
			out = append(out, p)
			if ev.RunID != "" {
				byRun[ev.RunID] = len(out) - 1
			}
		case event.Checkpointed:
			i, ok := byRun[ev.RunID]
			if !ok || ev.Checkpoint == nil {
				continue
			}
			out[i].Changes = append(out[i].Changes, ev.Checkpoint.Changes...)
			out[i].Skipped = append(out[i].Skipped, ev.Checkpoint.Skipped...)
		}
	}
	return out
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/run"
)

// RewindPoints implements rewinder: the open session's prompts.
func (b *RunBackend) RewindPoints(context.Context) ([]RewindPoint, error) {
	prompts, err := b.Session().Prompts()
	if err != nil {
		return nil, err
	}
	out := make([]RewindPoint, 0, len(prompts))
	for _, p := range prompts {
		text := p.Text
		if p.Rewind != nil {
			text = fmt.Sprintf("(rewind to %d)", p.Rewind.To)
		}
		seen := map[string]bool{}
		for _, c := range p.Changes {
			seen[c.Path] = true
		}
		out = append(out, RewindPoint{N: p.N, Text: text, Files: len(seen), Time: p.Time.Local().Format("15:04:05")})
	}
	return out, nil
}

// Rewind implements rewinder: the open session rewound in process (it
// holds the session's lock, so `zero sessions rewind` could not).
func (b *RunBackend) Rewind(_ context.Context, r RewindRequest) (string, error) {
	sess := b.Session()
	if prompts, err := sess.Prompts(); err == nil && r.To > len(prompts) {
		return "", fmt.Errorf("this session has prompts 1 to %d, not %d (/rewind lists them)", len(prompts), r.To)
	}
	o := run.RewindOptions{To: r.To, FilesOnly: r.FilesOnly, ConversationOnly: r.ConversationOnly, DryRun: r.DryRun, Force: r.Force}
	rep, err := sess.Rewind(o)
	var conflicts *run.ConflictError
	if err != nil && !errors.As(err, &conflicts) {
		return "", err
	}
	return strings.Join(rep.Lines(o, "/rewind "+fmt.Sprint(r.To)+" force restores it", "undo: /rewind %d"), "\n"), nil
}

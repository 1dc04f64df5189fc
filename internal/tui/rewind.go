package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// rewinder is a Backend whose open session can be rewound (/rewind): its
// files, its conversation or both put back to before one of its prompts.
type rewinder interface {
	// RewindPoints are the session's numbered prompts, oldest first.
	RewindPoints(ctx context.Context) ([]RewindPoint, error)
	// Rewind rewinds the open session and says what it did, one line a
	// file (kept conflicts are lines of the report, not an error).
	Rewind(ctx context.Context, r RewindRequest) (string, error)
}

// RewindPoint is one prompt /rewind can go back to.
type RewindPoint struct {
	N int
	// Text is the prompt; for a rewind, "(rewind to N)".
	Text string
	// Files is how many files it changed; Time a display string.
	Files int
	Time  string
}

// RewindRequest is a parsed /rewind N [files|conversation] [dry] [force].
type RewindRequest struct {
	To                          int
	FilesOnly, ConversationOnly bool
	DryRun, Force               bool
}

const rewindUsage = "usage: /rewind N [files|conversation] [dry] [force] (/rewind lists the prompts)"

// parseRewind reads the words after /rewind.
func parseRewind(arg string) (RewindRequest, error) {
	words := strings.Fields(arg)
	var r RewindRequest
	if len(words) == 0 {
		return r, fmt.Errorf("%s", rewindUsage)
	}
	n, err := strconv.Atoi(words[0])
	if err != nil || n < 1 {
		return r, fmt.Errorf("%s", rewindUsage)
	}
	r.To = n
	for _, w := range words[1:] {
		switch w {
		case "files":
			r.FilesOnly = true
		case "conversation":
			r.ConversationOnly = true
		case "both":
		case "dry":
			r.DryRun = true
		case "force":
			r.Force = true
		default:
			return r, fmt.Errorf("unknown word %q: %s", w, rewindUsage)
		}
	}
	if r.FilesOnly && r.ConversationOnly {
		return r, fmt.Errorf("files and conversation exclude each other (neither: both)")
	}
	return r, nil
}

// rewind is /rewind: without a number, the session's prompts to pick
// from; with one, the rewind (a session change: the footer's usage
// follows the cut conversation).
func (m *Model) rewind(arg string) tea.Cmd {
	if strings.TrimSpace(arg) == "" {
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			rb, ok := b.(rewinder)
			if !ok {
				return "", fmt.Errorf("/rewind is not available here")
			}
			points, err := rb.RewindPoints(ctx)
			return formatRewindPoints(points), err
		})
	}
	req, err := parseRewind(arg)
	return m.sessionChange("rewinding", func(ctx context.Context, b Backend) (string, error) {
		if err != nil {
			return "", err
		}
		rb, ok := b.(rewinder)
		if !ok {
			return "", fmt.Errorf("/rewind is not available here")
		}
		return rb.Rewind(ctx, req)
	})
}

// formatRewindPoints is /rewind's list: number, time, files changed and
// prompt, then how to pick.
func formatRewindPoints(points []RewindPoint) string {
	if len(points) == 0 {
		return "no prompts to rewind to yet"
	}
	var b strings.Builder
	for _, p := range points {
		fmt.Fprintf(&b, "%3d  %s  %2d file(s)  %s\n", p.N, p.Time, p.Files, strings.ReplaceAll(p.Text, "\n", " "))
	}
	return b.String() + "rewind with /rewind N (files and conversation), /rewind N files, /rewind N conversation; add dry to preview, force to restore conflicts"
}

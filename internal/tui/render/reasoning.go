package render

import (
	"strings"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// ReasoningPreviewLines is how many trailing lines of reasoning the live
// preview shows while the model thinks.
const ReasoningPreviewLines = 3

// Reasoning renders the model's reasoning dim. Collapsed, it is a one-line
// header with the last ReasoningPreviewLines lines (while streaming) or a
// one-line summary (when done); expanded, every line.
func Reasoning(text string, width int, expanded, done bool) []string {
	clean := strings.TrimSpace(sanitize.ExpandTabs(sanitize.Text(text)))
	if clean == "" {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(clean, "\n") {
		lines = append(lines, cells.Wrap(l, width-2)...)
	}
	head := "∴ thinking…"
	if done {
		head = "∴ thought for " + Plural(len(lines), "line")
		if !expanded {
			head += " (ctrl+o shows it)"
		}
	}
	out := []string{style.Dim.Render(cells.Truncate(head, width, "…"))}
	switch {
	case expanded:
	case done:
		return out
	case len(lines) > ReasoningPreviewLines:
		lines = lines[len(lines)-ReasoningPreviewLines:]
	}
	for _, l := range lines {
		out = append(out, style.Dim.Render(style.Italic.Render("  "+l)))
	}
	return out
}

package agent

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// SystemPrompt returns Zero's default system prompt for a workspace. It is
// sent on every turn, so every byte counts against small context windows
// (the first request of a default run must stay under 8 KB with the tool
// schemas, issue 2). extra is appended as-is (project guidelines, already
// budgeted and sanitised by the caller).
func SystemPrompt(workspace string, now time.Time, extra string) string {
	var b strings.Builder
	b.WriteString(`You are Zero, a coding agent working in the user's repository through tools.
- Explore before editing: grep or glob to find code, then read_file the relevant line ranges.
- Edit with edit_file (exact unique old_string, include enough context); write_file only for new files.
- After changing code, run the project's tests or build with bash and fix what fails.
- Keep going until the task is done; do not ask for confirmation of routine steps.
- Never claim tests pass unless you ran them and they passed.
- Final answer: short, plain text: what you changed and how you verified it.
`)
	fmt.Fprintf(&b, "Workspace: %s\nOS: %s/%s\nDate: %s\n", workspace, runtime.GOOS, runtime.GOARCH, now.Format("2006-01-02"))
	if extra = strings.TrimSpace(extra); extra != "" {
		b.WriteString("\n")
		b.WriteString(extra)
		b.WriteString("\n")
	}
	return b.String()
}

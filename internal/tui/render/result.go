package render

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// MaxResultLines is how many lines of a tool's output a card shows under
// its headline before summarising the rest as "… +N lines".
const MaxResultLines = 4

// ToolResult renders the `↳` lines of a finished tool: a headline with its
// status, then the diff for an edit or the first lines of output.
func ToolResult(r event.ToolOutcome, width int) []string { return LabeledResult(r, "", width) }

// LabeledResult is ToolResult headed by its call's label (CallLabel) when
// label is not empty: parallel calls print all their cards first, and each
// result must say whose it is.
func LabeledResult(r event.ToolOutcome, label string, width int) []string {
	head, body := resultParts(r, label)
	out := []string{cells.Truncate(head, width, "…")}
	if r.Diff != "" {
		return append(out, Diff(r.Diff, width)...)
	}
	shown := len(body)
	if shown > MaxResultLines+1 { // one more line costs no more than its summary
		shown = MaxResultLines
	}
	for _, l := range body[:shown] {
		out = append(out, cells.Truncate("  "+l, width, "…"))
	}
	if rest := len(body) - shown; rest > 0 {
		out = append(out, style.Dim.Render(fmt.Sprintf("  … +%s · ctrl+t shows all", Plural(rest, "line"))))
	}
	return out
}

// FullResult renders a tool result whole, for ctrl+t: its headline, then
// every line of its output wrapped under a two-cell indent, and its whole
// diff.
func FullResult(r event.ToolOutcome, label string, width int) []string {
	head, body := resultParts(r, label)
	out := cells.Wrap(head, width)
	for _, l := range body {
		for _, w := range cells.Wrap(l, width-2) {
			out = append(out, "  "+w)
		}
	}
	if r.Diff != "" {
		out = append(out, Diff(r.Diff, width)...)
	}
	return out
}

// resultParts splits a result into its headline and the output lines
// shown under it. The headline keeps the status apart from the output:
// a shell tool's is `↳ exit 0 · 1.2s · 38 lines`; a one-line result (an
// edit's "edited a.go") is its own status; an error's first line is its
// status; other output is counted (`↳ 12 lines · 3ms`).
func resultParts(r event.ToolOutcome, label string) (head string, body []string) {
	var meta []string
	if r.ExitCode != nil {
		st := style.Good
		if *r.ExitCode != 0 {
			st = style.Bad
		}
		meta = append(meta, st.Render(fmt.Sprintf("exit %d", *r.ExitCode)))
	}
	if r.ElapsedMs > 0 || r.ExitCode != nil {
		meta = append(meta, Duration(r.ElapsedMs))
	}
	if r.KeptBytes > 0 && r.RawBytes > r.KeptBytes {
		meta = append(meta, fmt.Sprintf("%s kept of %s", Bytes(r.KeptBytes), Bytes(r.RawBytes)))
	}
	content := r.Content
	if r.ExitCode != nil {
		content = WithoutExitFooter(content, *r.ExitCode)
	}
	if text := strings.TrimRight(sanitize.ExpandTabs(sanitize.Text(content)), "\n"); text != "" {
		body = strings.Split(text, "\n")
	}
	lead := style.Dim.Render("↳") + " "
	if label != "" {
		lead = style.Dim.Render("↳ "+label+":") + " "
	}
	var status string
	switch {
	case r.ExitCode != nil:
		n := "no output"
		if len(body) > 0 {
			n = Plural(len(body), "line")
		}
		return lead + joinMeta(meta, n), body
	case len(body) == 0:
		status = "(no output)"
	case len(body) == 1 || r.IsError:
		status, body = body[0], body[1:]
	default:
		return lead + style.Dim.Render(strings.Join(append([]string{Plural(len(body), "line")}, meta...), " · ")), body
	}
	if r.IsError {
		status = style.Bad.Render(status)
	}
	head = lead + status
	if len(meta) > 0 {
		head += style.Dim.Render("  · " + strings.Join(meta, " · "))
	}
	return head, body
}

// joinMeta is a shell headline: the styled exit code, then the rest dim.
func joinMeta(meta []string, count string) string {
	return meta[0] + style.Dim.Render(" · "+strings.Join(append(meta[1:], count), " · "))
}

// exitFooter is the line a shell tool ends its output with
// (internal/tools Bash.finish): the headline already says it.
var exitFooter = regexp.MustCompile(`(^|\n)\[exit code (-?\d+)\]\n?$`)

// WithoutExitFooter drops a trailing "[exit code N]" line from a shell
// tool's output when N is code, so the exit code is shown once.
func WithoutExitFooter(content string, code int) string {
	if m := exitFooter.FindStringSubmatchIndex(content); m != nil && content[m[4]:m[5]] == fmt.Sprint(code) {
		return content[:m[0]]
	}
	return content
}

// Plural is n and noun, with an s unless n is 1: "1 line", "2 lines".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

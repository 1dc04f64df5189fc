// Package render turns run events into transcript lines: the echoed user
// prompt, tool cards (`⚙ name(args)` then `↳ summary`), diffs with line
// numbers, shell exit codes and times, the reasoning preview and notices.
//
// Every function takes untrusted text and sanitises it before styling, and
// returns lines no wider than the given width in cells. The package owns
// presentation only: no terminal I/O, no Bubble Tea.
package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// Prompt renders a submitted user prompt as it appears in the transcript.
func Prompt(text string, width int) []string {
	var out []string
	for i, l := range strings.Split(sanitize.ExpandTabs(sanitize.Text(text)), "\n") {
		lead := "  "
		if i == 0 {
			lead = style.User.Render("›") + " "
		}
		for j, w := range cells.Wrap(l, width-2) {
			if j > 0 {
				lead = "  "
			}
			out = append(out, lead+w)
		}
	}
	return out
}

// ToolCall renders the header of a tool card: `⚙ name(args)` on one line
// of at most width cells. Line breaks show as ⏎ and long blank runs as
// ␣×N (CommandOneLine); a line still too wide keeps its head and its tail
// around a count of what is hidden (Middle), so padding cannot hide the
// end of a command.
func ToolCall(c llm.ToolCall, width int) []string {
	line := style.Accent.Render("⚙") + " " + style.Bold.Render(sanitize.Line(c.Name)) + "(" + CommandOneLine(sanitize.Text(Args(c.Arguments))) + ")"
	return []string{Middle(line, width)}
}

// CallLabel names a call in one short plain line, "name(args)", for a
// result printed away from its card.
func CallLabel(c llm.ToolCall) string {
	return cells.Truncate(sanitize.Line(c.Name)+"("+CommandOneLine(sanitize.Text(Args(c.Arguments)))+")", 40, "…")
}

// Args summarises raw tool-call arguments for a card: a command or a lone
// string argument is shown bare; a file tool shows its path first and
// leaves out the payload (old/new strings, content), which the result's
// diff shows; a plan (update_plan) is its step count; other arguments
// follow as key=value in key order. Invalid JSON is shown as is.
func Args(raw string) string {
	var m map[string]any
	if json.Unmarshal([]byte(raw), &m) != nil {
		return strings.TrimSpace(raw)
	}
	for _, k := range []string{"command", "cmd"} {
		if v, ok := m[k].(string); ok {
			return v
		}
	}
	var parts []string
	for _, k := range []string{"path", "file_path", "filename"} {
		if v, ok := m[k].(string); ok {
			parts = append(parts, v)
			delete(m, k)
			for _, bulky := range []string{"content", "old_string", "new_string", "patch", "replace_all"} {
				delete(m, bulky)
			}
			break
		}
	}
	if steps, ok := m["plan"].([]any); ok { // update_plan: the panel shows the steps
		parts = append(parts, Plural(len(steps), "step"))
		delete(m, "plan")
		delete(m, "explanation")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 1 && len(parts) == 0 {
		if v, ok := m[keys[0]].(string); ok {
			return v
		}
	}
	for _, k := range keys {
		v := m[k]
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		} else if len(s) > 60 || strings.Contains(s, "\n") {
			s = fmt.Sprintf("…%d bytes", len(s))
		}
		parts = append(parts, k+"="+s)
	}
	return strings.Join(parts, ", ")
}

// Duration formats milliseconds as "850ms", "1.2s" or "2m05s".
func Duration(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	}
	return fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
}

// Bytes formats a byte count as "512B", "3.4KB", "1.2MB".
func Bytes(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1fKB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1fMB", float64(n)/(1024*1024))
}

// Tokens formats a token count as "950", "1.2k" or "33k".
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}

// Notice renders a one-off status line (warning, error, info) wrapped to
// width.
func Notice(kind event.Type, text string, width int) []string {
	st, mark := style.Dim, "·"
	switch kind {
	case event.Warning:
		st, mark = style.Warn, "!"
	case event.Error:
		st, mark = style.Bad, "✗"
	}
	var out []string
	for _, l := range cells.Wrap(sanitize.ExpandTabs(sanitize.Text(text)), width-2) {
		out = append(out, st.Render(mark+" "+l))
		mark = " "
	}
	return out
}

// Report is Block for a command's report, except that a line holding one
// token after its indent (a path, a URL) is left whole, even wider than
// width: the terminal wraps it for display and a copy of it is not broken
// by a newline (QA: /logs paths).
func Report(text string, width int) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		clean := sanitize.ExpandTabs(sanitize.Text(line))
		if t := strings.TrimSpace(clean); t != "" && !strings.Contains(t, " ") {
			out = append(out, clean)
			continue
		}
		out = append(out, cells.Wrap(clean, width)...)
	}
	return out
}

// Block renders multi-line informational text (slash-command output) dim
// or plain, wrapped to width.
func Block(text string, width int) []string {
	return cells.Wrap(sanitize.ExpandTabs(sanitize.Text(strings.TrimRight(text, "\n"))), width)
}

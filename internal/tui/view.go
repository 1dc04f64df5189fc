package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// View implements tea.Model: the live region at the bottom of the
// terminal. Everything above it is the terminal's own scrollback.
func (m *Model) View() tea.View {
	if m.quitting {
		return tea.NewView(strings.Join(m.toPrint, "\n"))
	}
	// Lines waiting for the scrollback (toPrint) are not drawn here: they
	// reach the terminal within a frame, and a live region that held them
	// could be scrolled into the scrollback and print them twice.
	var top []string
	top = append(top, m.liveReply()...)
	if m.turn.running {
		top = append(top, m.statusLine())
		top = append(top, m.childLines()...)
	}
	top = append(top, m.queueView()...)
	if m.hint != "" && m.perm == nil && m.quest == nil { // the prompt and the form show it
		top = append(top, cells.Truncate(style.Warn.Render(m.hint), m.width-1, "…"))
	}
	top = append(top, m.planView()...)

	var bottom []string
	var cursor *tea.Cursor
	switch {
	case m.perm != nil:
		var row, col int
		bottom, row, col = m.permView(m.height - 3)
		if row >= 0 {
			cursor = tea.NewCursor(col, row)
		}
	case m.quest != nil:
		var row, col int
		bottom, row, col = m.questView()
		cursor = tea.NewCursor(col, row)
	default:
		var row, col int
		bottom, row, col = m.inputView()
		cursor = tea.NewCursor(col, row)
	}
	bottom = append(bottom, m.footer())

	// Keep the streaming part to half the screen and the whole region two
	// rows short of it, so printing above never scrolls live lines into
	// the scrollback (see flush): drop the oldest lines. (A long paragraph
	// hands its finished rows to the scrollback as it streams, so the
	// streaming part is a few rows: a terminal that gets narrower rewraps
	// every full-width row of the region onto more rows, and a region that
	// no longer fits the screen loses its top to the scrollback, where no
	// erase reaches.)
	if room := max(m.height/2-len(bottom), 0); len(top) > room {
		top = top[len(top)-room:]
	}
	if over := len(top) + len(bottom) - (m.height - 2); over > 0 {
		cut := min(over, len(bottom)-1)
		bottom = bottom[cut:]
		if cursor != nil {
			cursor.Y -= cut
		}
	}
	if cursor != nil {
		cursor.Y += len(top)
		if cursor.Y < 0 {
			cursor = nil
		}
	}
	lines := append(top, bottom...)
	if cursor != nil && cursor.Y < len(lines) {
		lines[cursor.Y] = drawCursor(lines[cursor.Y], cursor.X)
	}
	m.cursor = cursor
	m.viewHeight = len(lines)
	m.noteFrame(lines)
	v := tea.NewView(strings.Join(lines, "\n"))
	// The terminal's cursor stays hidden on the region's first cell
	// (reflow.go says why); the one the user sees is drawn in the text.
	v.Cursor = tea.NewCursor(0, 0)
	return v
}

// drawCursor shows a cursor on the cell at col of line (in reverse video;
// a space past the end of the text).
func drawCursor(line string, col int) string {
	if w := cells.Width(line); col >= w {
		return line + strings.Repeat(" ", col-w) + ansi.SGR(ansi.ReverseAttr) + " " + ansi.SGR(ansi.NoReverseAttr)
	}
	rest := ansi.TruncateLeft(line, col, "")
	g, w := ansi.FirstGraphemeCluster(ansi.Strip(rest), ansi.GraphemeWidth)
	return ansi.Truncate(line, col, "") + ansi.SGR(ansi.ReverseAttr) + g + ansi.SGR(ansi.NoReverseAttr) + ansi.TruncateLeft(rest, w, "")
}

// statusLine shows that a turn is running and how to interrupt it.
func (m *Model) statusLine() string {
	what := "working"
	switch {
	case m.turn.interrupted:
		return style.Warn.Render("●") + " " + style.Dim.Render("interrupting…")
	case m.perm != nil || m.quest != nil:
		return style.Warn.Render("●") + " " + style.Dim.Render("waiting for your answer")
	case m.turn.busy != "":
		what = m.turn.busy
	}
	if d := m.opts.Now().Sub(m.turn.started); d >= time.Second {
		what += " " + elapsed(d)
	}
	return cells.Truncate(style.Accent.Render("●")+" "+style.Dim.Render(what+" · esc esc to interrupt · enter queues"), m.width-1, "…")
}

// elapsed formats a running time in whole seconds: "12s", "2m05s".
func elapsed(d time.Duration) string {
	s := int(d / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// inputView draws the input box (or the ^R search line in its place) and
// returns the cursor's row and column within the returned lines.
func (m *Model) inputView() (lines []string, row, col int) {
	rule := style.Dim.Render(strings.Repeat("─", max(m.width-1, 1)))
	lines = []string{rule}
	if s := m.search; s != nil {
		match := ""
		if s.found >= 0 {
			match = sanitize.Line(m.hist.Entry(s.found))
		} else if s.query != "" {
			match = style.Bad.Render("no match")
		}
		head := "(reverse-i-search)`" + sanitize.Line(s.query) + "': "
		lines = append(lines, cells.Truncate(head+match, m.width-1, "…"), rule)
		return lines, 1, min(cells.Width(head), m.width-1)
	}
	prompt := style.User.Render("›") + " "
	l := m.ed.Layout(max(m.width-3, 2))
	// A long input (a big paste) shows a window of rows around the cursor.
	first, last := 0, len(l.Rows)
	if maxRows := max(m.height/3, 3); len(l.Rows) > maxRows {
		first = min(max(l.Row-maxRows/2, 0), len(l.Rows)-maxRows)
		last = first + maxRows
	}
	for i, r := range l.Rows[first:last] {
		lead := "  "
		if i+first == 0 {
			lead = prompt
		}
		lines = append(lines, lead+r)
	}
	if m.ed.Empty() && len(l.Rows) == 1 {
		lines[1] = cells.Truncate(prompt+style.Dim.Render(m.placeholder()), m.width-1, "…")
	}
	if hidden := len(l.Rows) - (last - first); hidden > 0 {
		rule = style.Dim.Render(cells.Truncate(fmt.Sprintf("── %d more lines ", hidden)+strings.Repeat("─", m.width), m.width-1, ""))
	}
	lines = append(lines, rule)
	return lines, 1 + l.Row - first, 2 + l.Col
}

func (m *Model) placeholder() string {
	if m.turn.running {
		return "type ahead; enter queues"
	}
	return "ask anything · / for commands · ! for shell"
}

// footer renders `model · host · used/window ctx (pct) · mode`, dropping
// the host, then the model, when the terminal is too narrow; the mode is
// always shown. Token counts carry "~" while they are estimates.
func (m *Model) footer() string {
	modeText := string(m.mode)
	switch m.mode {
	case ModeAutoAccept:
		modeText = style.Warn.Render(modeText)
	case ModePlan:
		modeText = style.Accent.Render(modeText)
	}
	model, host := sanitize.Line(m.info.Model), sanitize.Line(m.info.Host)
	ctx := contextSegment(m.info)
	cost := costSegment(m.info.CostUSD)
	w := m.width - 1
	var line string
	for _, parts := range [][]string{{model, host, ctx, cost}, {model, ctx, cost}, {ctx, cost}, {ctx}, nil} {
		var kept []string
		for _, p := range parts {
			if p != "" {
				kept = append(kept, p)
			}
		}
		line = modeText
		if len(kept) > 0 {
			line = style.Dim.Render(strings.Join(kept, " · ")+" · ") + modeText
		}
		if cells.Width(line) <= w {
			return line
		}
	}
	return cells.Truncate(line, w, "…")
}

// costSegment formats the session's estimated cost ("$0.042"; "" when
// nothing was priced: a local model).
func costSegment(usd float64) string {
	switch {
	case usd <= 0:
		return ""
	case usd < 0.01:
		return fmt.Sprintf("$%.4f", usd)
	case usd < 10:
		return fmt.Sprintf("$%.3f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// contextSegment formats "used/window ctx (pct)"; "~" marks an estimate.
func contextSegment(i Info) string {
	if i.UsedTokens == 0 && i.ContextWindow == 0 {
		return ""
	}
	used := render.Tokens(i.UsedTokens)
	if i.Estimated {
		used = "~" + used
	}
	if i.ContextWindow == 0 {
		return used + " ctx"
	}
	pct := i.UsedTokens * 100 / i.ContextWindow
	return fmt.Sprintf("%s/%s ctx (%d%%)", used, render.Tokens(i.ContextWindow), pct)
}

package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// pickerRows is how many sessions the --resume picker shows at once.
const pickerRows = 10

// PickSession runs the `zero --resume` picker over list (newest first,
// as ProjectSessions gives it): ↑/↓ move, Enter resumes, Esc or Ctrl-C
// cancels (""). Each row is the session's time, prompts and first prompt.
func PickSession(ctx context.Context, list []Session) (string, error) {
	return pickSession(ctx, list, os.Stdout)
}

// pickSession runs the picker on out with extra program options (a
// test's terminal).
func pickSession(ctx context.Context, list []Session, out io.Writer, opts ...tea.ProgramOption) (string, error) {
	m := &pickerModel{items: list, width: 100}
	if err := runErasing(ctx, m, &m.erase, out, opts...); err != nil {
		return "", err
	}
	return m.picked, nil
}

// erasing is a screen (the picker, the setup) that leaves no row behind
// when it closes: its last frame stays as it was while Bubble Tea shuts
// down, then each of its rows is cleared (EL) from the last up, and the
// cursor rests on the first, where the app then starts. (A blanked last
// frame makes Bubble Tea redraw with an erase from the frame's first cell,
// ED; when that cell is the screen's first, tmux's scroll-on-clear moves
// the rows into the scrollback instead of erasing them.)
type erasing struct {
	last   string
	closed bool
}

// view returns content, or once closed the last frame unchanged.
func (e *erasing) view(content string) tea.View {
	if !e.closed {
		e.last = content
	}
	return tea.NewView(e.last)
}

// runErasing runs m on out and then clears the rows of its last frame.
func runErasing(ctx context.Context, m tea.Model, e *erasing, out io.Writer, opts ...tea.ProgramOption) error {
	opts = append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out)}, opts...)
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		return err
	}
	if e.closed {
		// Bubble Tea leaves the cursor on the frame's last row.
		rows := strings.Count(e.last, "\n") + 1
		io.WriteString(out, "\r"+strings.Repeat("\x1b[2K\x1b[A", rows-1)+"\x1b[2K")
	}
	return nil
}

// pickerModel is the picker's screen.
type pickerModel struct {
	items  []Session
	cur    int
	width  int
	height int // 0 until Bubble Tea says
	picked string
	erase  erasing
}

func (m *pickerModel) Init() tea.Cmd { return nil }

func (m *pickerModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "ctrl+c", "q":
			m.erase.closed = true
			return m, tea.Quit
		case "up", "k":
			m.cur = max(m.cur-1, 0)
		case "down", "j":
			m.cur = min(m.cur+1, len(m.items)-1)
		case "home":
			m.cur = 0
		case "end":
			m.cur = len(m.items) - 1
		case "enter":
			if len(m.items) > 0 {
				m.picked = m.items[m.cur].ID
			}
			m.erase.closed = true
			return m, tea.Quit
		}
	}
	return m, nil
}

// rows renders the window of sessions around the cursor.
// It fits a short terminal too (with the heading, one row each): a
// frame taller than the screen would scroll rows out of the erase's reach.
func (m *pickerModel) rows() []string {
	n := pickerRows
	if m.height > 1 {
		n = min(n, m.height-1)
	}
	first := min(max(m.cur-n/2, 0), max(len(m.items)-n, 0))
	var out []string
	for i := first; i < min(first+n, len(m.items)); i++ {
		s := m.items[i]
		prompt := sanitize.Line(strings.ReplaceAll(s.Preview, "\n", " "))
		row := fmt.Sprintf("%s  %s  %s", s.Updated, plural(s.Turns, "prompt"), prompt)
		row = cells.Truncate(row, max(m.width-3, 20), "…")
		if i == m.cur {
			out = append(out, style.Accent.Render("› "+row))
		} else {
			out = append(out, "  "+row)
		}
	}
	return out
}

func (m *pickerModel) View() tea.View {
	head := fmt.Sprintf("resume which session of this project? (%d; ↑/↓, Enter resumes, Esc cancels)", len(m.items))
	head = cells.Truncate(head, max(m.width-1, 20), "…")
	return m.erase.view(strings.Join(append([]string{head}, m.rows()...), "\n"))
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

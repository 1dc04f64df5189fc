package tui

import (
	"context"
	"fmt"
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
	m := &pickerModel{items: list, width: 100}
	if _, err := tea.NewProgram(m, tea.WithContext(ctx)).Run(); err != nil {
		return "", err
	}
	return m.picked, nil
}

// pickerModel is the picker's screen.
type pickerModel struct {
	items  []Session
	cur    int
	width  int
	picked string
	// closed: the picker quit; its last frame is erased.
	closed bool
}

func (m *pickerModel) Init() tea.Cmd { return nil }

func (m *pickerModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "ctrl+c", "q":
			m.closed = true
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
			m.closed = true
			return m, tea.Quit
		}
	}
	return m, nil
}

// rows renders the window of sessions around the cursor.
func (m *pickerModel) rows() []string {
	first := min(max(m.cur-pickerRows/2, 0), max(len(m.items)-pickerRows, 0))
	var out []string
	for i := first; i < min(first+pickerRows, len(m.items)); i++ {
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
	if m.closed {
		return tea.NewView("")
	}
	head := fmt.Sprintf("resume which session of this project? (%d; ↑/↓, Enter resumes, Esc cancels)", len(m.items))
	return tea.NewView(strings.Join(append([]string{head}, m.rows()...), "\n"))
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

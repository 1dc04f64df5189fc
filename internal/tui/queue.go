package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// queueState holds messages typed while a reply runs. They run in order
// when it finishes. ^Q edits them in place; sending pauses meanwhile.
type queueState struct {
	items   []string
	editing bool
	at      int    // the item being edited
	draft   string // the input box's text before ^Q
}

// editQueue enters queue editing at the newest item.
func (m *Model) editQueue() {
	if len(m.queue.items) == 0 {
		m.hint = "the queue is empty"
		return
	}
	m.queue.editing = true
	m.queue.draft = m.ed.Value()
	m.queue.at = len(m.queue.items) - 1
	m.ed.SetValue(m.queue.items[m.queue.at])
}

// queueKey edits the selected item: ↑/↓ or ^Q move, Enter/Esc finish,
// other keys edit. An emptied item is dropped.
func (m *Model) queueKey(k tea.Key) tea.Cmd {
	q := &m.queue
	q.items[q.at] = m.ed.Value()
	switch k.String() {
	case "up", "ctrl+q":
		if q.at > 0 {
			q.at--
		} else if k.String() == "ctrl+q" {
			q.at = len(q.items) - 1
		}
		m.ed.SetValue(q.items[q.at])
	case "down":
		if q.at < len(q.items)-1 {
			q.at++
		}
		m.ed.SetValue(q.items[q.at])
	case "enter", "esc", "ctrl+c":
		var kept []string
		for _, it := range q.items {
			if strings.TrimSpace(it) != "" {
				kept = append(kept, it)
			}
		}
		q.items, q.editing = kept, false
		m.ed.SetValue(q.draft)
		if !m.turn.running {
			return m.nextQueued()
		}
	default:
		m.ed.HandleKey(k)
		q.items[q.at] = m.ed.Value()
	}
	return nil
}

// nextQueued starts the oldest queued message when idle and not editing.
func (m *Model) nextQueued() tea.Cmd {
	if m.turn.running || m.queue.editing || len(m.queue.items) == 0 || m.quitting {
		return nil
	}
	next := m.queue.items[0]
	m.queue.items = m.queue.items[1:]
	m.remember(next)
	cmd := m.submit(next)
	if !m.turn.running { // a quick slash command: go on with the queue
		return tea.Batch(cmd, m.nextQueued())
	}
	return cmd
}

// queueView renders the queue above the input box.
func (m *Model) queueView() []string {
	var out []string
	for i, it := range m.queue.items {
		mark := style.Dim.Render("⏎ queued: ")
		text := sanitize.Line(it)
		if m.queue.editing && i == m.queue.at {
			mark = style.Accent.Render("✎ editing: ")
			text = style.Dim.Render("(below)")
		}
		out = append(out, cells.Truncate(mark+text, m.width-1, "…"))
	}
	if m.queue.editing {
		out = append(out, style.Dim.Render("↑/↓ move · enter/esc done · sending paused"))
	}
	return out
}

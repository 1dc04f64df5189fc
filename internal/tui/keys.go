package tui

import (
	"os"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/render"
)

// key routes one key press. Modal states (permission prompt, reverse
// search, queue editing) see keys first; then the app's own keys; the rest
// go to the line editor.
func (m *Model) key(k tea.Key) tea.Cmd {
	m.noteInput()
	name := k.String()
	wasEsc := m.escArmed
	m.escArmed = false
	m.hint = ""
	if name != "ctrl+c" {
		m.ctrlCArmed = false
	}
	switch {
	case m.perm != nil:
		return m.permKey(k)
	case m.quest != nil:
		return m.questKey(k)
	case m.search != nil:
		return m.searchKey(k)
	case m.queue.editing:
		return m.queueKey(k)
	}
	switch name {
	case "enter":
		return m.enter()
	case "ctrl+c":
		return m.ctrlC()
	case "ctrl+d":
		if m.ed.Empty() && !m.turn.running {
			return m.quit()
		}
		m.ed.DeleteForward()
	case "esc", "alt+esc": // two quick Escs can arrive in one read as alt+esc
		if !wasEsc && name == "esc" {
			m.escArmed = true
			return nil
		}
		if m.turn.running {
			m.interrupt()
		} else {
			m.ed.Reset()
		}
	case "shift+tab":
		m.mode = m.mode.Next()
		if ms, ok := m.backend.(modeSetter); ok && !m.turn.running {
			ms.SetMode(m.mode) // /context and /tools show the new mode at once
		}
	case "tab":
		return m.complete()
	case "up":
		if !m.ed.Up() {
			if h, ok := m.hist.Prev(m.ed.Value()); ok {
				m.ed.SetValue(h)
			}
		}
	case "down":
		if !m.ed.Down() {
			if h, ok := m.hist.Next(); ok {
				m.ed.SetValue(h)
			}
		}
	case "ctrl+r":
		m.search = &searchState{at: m.hist.Len(), found: -1, draft: m.ed.Value()}
	case "ctrl+q":
		m.editQueue()
	case "ctrl+l":
		m.clearScreen()
	case "ctrl+o":
		if m.turn.reasoning.Len() == 0 && m.lastReasoning != "" {
			// Nothing streaming: show the summarised reasoning in full,
			// and later reasoning expanded.
			m.commit(render.Reasoning(m.lastReasoning, m.contentWidth(), true, true)...)
			m.lastReasoning = ""
			m.expandReasoning = true
			break
		}
		m.expandReasoning = !m.expandReasoning
	case "ctrl+t":
		m.showLastResult()
	default:
		m.ed.HandleKey(k)
	}
	return nil
}

// lastResult is a tool result and its call's label (render.CallLabel).
type lastResult struct {
	outcome event.ToolOutcome
	label   string
}

// showLastResult prints the last tool result in full (ctrl+t): the
// transcript's card shows only its first lines.
func (m *Model) showLastResult() {
	r := m.lastResult
	if r == nil {
		m.hint = "no tool result yet"
		return
	}
	// A reply streaming meanwhile goes on below it: its unfinished lines
	// are in the live region, not yet in the scrollback.
	m.commit(render.FullResult(r.outcome, r.label, m.contentWidth())...)
}

// noteInput records the arrival of a key or a paste for the typing-burst
// rule: input closer than typingBurstGap to the previous input continues
// its burst.
func (m *Model) noteInput() {
	now := m.opts.Now()
	if now.Sub(m.lastKey) >= typingBurstGap {
		m.burstStart = now
	}
	m.lastKey = now
}

// typingBurstGap separates bursts of typing: keys closer together than this
// belong to one burst. A burst that began before a permission prompt opened
// is type-ahead, not an answer to it.
const typingBurstGap = 500 * time.Millisecond

// historian is a backend that keeps what the user enters for later
// sessions (RunBackend: the store's prompt history).
type historian interface{ AddHistory(text string) }

// enter submits the input, completes a partial slash command, or queues
// the message while a reply runs.
func (m *Model) enter() tea.Cmd {
	text := m.ed.Value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if m.completeOnEnter() {
		return nil
	}
	m.ed.Reset()
	if m.turn.running {
		// recalled as sent: a queued message may still be edited (^Q)
		m.queue.items = append(m.queue.items, text)
		return nil
	}
	m.remember(text)
	return m.submit(text)
}

// remember adds text to ↑/↓ recall and to the backend's history.
func (m *Model) remember(text string) {
	m.hist.Add(text)
	if h, ok := m.backend.(historian); ok {
		h.AddHistory(text)
	}
}

// submit runs text: a slash command, a `!cmd`, or a prompt.
func (m *Model) submit(text string) tea.Cmd {
	trimmed := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(trimmed, "/mcp__"):
		return m.startRun(text) // an MCP server's prompt: the run layer renders it
	case strings.HasPrefix(trimmed, "/") && m.isCustom(trimmed):
		return m.startRun(text) // a skill or a command file: the run layer expands it
	case startsWithPath(trimmed, commandNames()):
		return m.startRun(text) // "/usr/bin/ls is a path, explain"
	case strings.HasPrefix(trimmed, "/"):
		return m.slash(trimmed)
	case strings.HasPrefix(trimmed, "!"):
		return m.shell(strings.TrimSpace(trimmed[1:]))
	}
	return m.startRun(text)
}

// startsWithPath: the prompt's first word is a path, not a command: it
// has a slash after the first (/usr/bin/ls, /tmp/x.log), or it is no
// command of names and names a file or folder that exists (/etc).
// Commands never hold a slash (namespaces use ':').
func startsWithPath(prompt string, names []string) bool {
	word, _, _ := strings.Cut(prompt, " ")
	word, _, _ = strings.Cut(word, "\n")
	if len(word) < 2 || word[0] != '/' {
		return false
	}
	if strings.Contains(word[1:], "/") {
		return true
	}
	if slices.Contains(names, word) {
		return false
	}
	_, err := os.Stat(word)
	return err == nil
}

// ctrlC interrupts a turn, else clears the line, else (on an empty line,
// pressed twice) exits.
func (m *Model) ctrlC() tea.Cmd {
	switch {
	case m.turn.running && m.turn.interrupted: // the backend is slow to stop
		if m.ctrlCArmed {
			return m.quit()
		}
		m.ctrlCArmed = true
		m.hint = "still stopping; press ctrl+c again to exit"
	case m.turn.running:
		m.interrupt()
	case !m.ed.Empty():
		m.ed.Reset()
	case m.ctrlCArmed:
		return m.quit()
	default:
		m.ctrlCArmed = true
		m.hint = "press ctrl+c again to exit"
	}
	return nil
}

// interrupt cancels the turn in flight. The partial reply stays; queued
// messages go back into the input box so nothing typed is lost.
func (m *Model) interrupt() {
	m.turn.interrupt()
	if len(m.queue.items) > 0 {
		pending := strings.Join(m.queue.items, "\n")
		if !m.ed.Empty() {
			pending += "\n" + m.ed.Value()
		}
		m.ed.SetValue(pending)
		m.queue = queueState{}
	}
}

// searchState is ^R reverse history search.
type searchState struct {
	query string
	at    int // search entries older than this index
	found int // index of the match, -1 none
	draft string
}

func (m *Model) searchKey(k tea.Key) tea.Cmd {
	s := m.search
	switch k.String() {
	case "ctrl+r":
		if s.found >= 0 {
			s.at = s.found
		}
		m.searchUpdate(true)
	case "enter", "tab", "right", "left", "ctrl+a", "ctrl+e":
		m.search = nil
		if s.found >= 0 {
			m.ed.SetValue(m.hist.Entry(s.found))
		}
	case "esc", "ctrl+c", "ctrl+g":
		m.search = nil
		m.ed.SetValue(s.draft)
	case "backspace":
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
		}
		s.at = m.hist.Len()
		m.searchUpdate(false)
	default:
		if k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			s.query += k.Text
			m.searchUpdate(false)
		}
	}
	return nil
}

// searchUpdate finds the newest match older than the search position;
// older looks strictly past the current match.
func (m *Model) searchUpdate(older bool) {
	s := m.search
	from := s.at
	if !older && s.found >= 0 && s.found < from {
		from = s.found + 1
	}
	if i := m.hist.Search(s.query, from); i >= 0 {
		s.found = i
	} else if !older {
		s.found = -1
	}
}

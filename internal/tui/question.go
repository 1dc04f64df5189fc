package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/editor"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// questState is an open question form: the model's ask_user or an MCP
// server's elicitation, one field at a time (internal/ask types and
// checks each answer).
type questState struct {
	opened time.Time
	q      event.Question
	reply  chan event.QuestionAnswer
	field  int
	values map[string]any
	ed     editor.Editor
	err    string
}

// questAskMsg puts a question to the user; the answer goes to reply.
type questAskMsg struct {
	id    int
	q     event.Question
	reply chan event.QuestionAnswer
}

// asker returns the question asker for turn id: it opens the form and
// blocks until the user answers or ctx ends (then: cancel).
func (m *Model) asker(id int) ask.Asker {
	send := m.send
	return func(ctx context.Context, q event.Question) event.QuestionAnswer {
		reply := make(chan event.QuestionAnswer, 1)
		send(questAskMsg{id: id, q: q, reply: reply})
		select {
		case a := <-reply:
			return a
		case <-ctx.Done():
			return event.QuestionAnswer{Action: ask.Cancel}
		}
	}
}

func (m *Model) askQuestion(msg questAskMsg) tea.Cmd {
	if msg.id != m.turn.id || !m.turn.running {
		msg.reply <- event.QuestionAnswer{Action: ask.Cancel}
		return nil
	}
	if m.quest != nil || m.perm != nil { // one form at a time
		m.questWaiting = append(m.questWaiting, msg)
		return nil
	}
	m.endStep()
	m.quest = &questState{q: msg.q, reply: msg.reply, opened: m.opts.Now(), values: map[string]any{}}
	return m.waiting("question")
}

// questKey edits the current field's answer: Enter takes it (typed by
// the field's kind; a wrong one says why and stays), Esc declines the
// whole question, ^C cancels it and interrupts. An Enter within
// permGrace of the form opening was meant for the input box and is
// ignored, as at the permission prompt.
func (m *Model) questKey(k tea.Key) tea.Cmd {
	q := m.quest
	switch k.String() {
	case "enter":
		if m.lastKey.Sub(q.opened) < permGrace {
			m.hint = "typed before the question (pause, then answer)"
			return nil
		}
		m.questEnter()
	case "esc":
		m.answerQuestion(event.QuestionAnswer{Action: ask.Decline})
	case "ctrl+c":
		m.answerQuestion(event.QuestionAnswer{Action: ask.Cancel})
		m.interrupt()
	default:
		q.ed.HandleKey(k)
		q.err = ""
	}
	return nil
}

// questEnter takes the current field's text and moves on; after the last
// field it answers.
func (m *Model) questEnter() {
	q := m.quest
	f := q.q.Fields[q.field]
	text := strings.TrimSpace(q.ed.Value())
	switch {
	case text == "" && f.Default != nil:
		q.values[f.Name] = f.Default
	case text == "" && f.Required:
		q.err = fieldLabel(f) + " is required"
		return
	case text == "":
	default:
		v, err := ask.Value(f, text)
		if err != nil {
			q.err = err.Error()
			return
		}
		q.values[f.Name] = v
	}
	q.ed.Reset()
	q.err = ""
	if q.field++; q.field < len(q.q.Fields) {
		return
	}
	m.answerQuestion(event.QuestionAnswer{Action: ask.Accept, Values: q.values})
}

// answerQuestion answers the open form, notes the answer in the
// transcript, and opens what waits: a question, else a permission prompt.
func (m *Model) answerQuestion(a event.QuestionAnswer) {
	q := m.quest
	m.quest = nil
	q.reply <- a
	w := m.contentWidth()
	m.commit(cells.Wrap(style.Accent.Render("? ")+style.Dim.Render(sanitize.Line(q.q.Message)), w)...)
	m.commit(cells.Wrap(style.Dim.Render("  ↳ "+answerSummary(q.q, a)), w)...)
	m.openWaiting()
}

// answerSummary is one line saying what the user answered.
func answerSummary(q event.Question, a event.QuestionAnswer) string {
	if a.Action != ask.Accept {
		return "question " + a.Action + "d"
	}
	var parts []string
	for _, f := range q.Fields {
		if v, ok := a.Values[f.Name]; ok {
			if len(q.Fields) == 1 {
				parts = append(parts, fmt.Sprint(v))
			} else {
				parts = append(parts, fieldLabel(f)+": "+fmt.Sprint(v))
			}
		}
	}
	return "answered " + sanitize.Line(strings.Join(parts, " · "))
}

// cancelQuestions answers the open and waiting forms with cancel (the
// turn ended).
func (m *Model) cancelQuestions() {
	if m.quest != nil {
		m.quest.reply <- event.QuestionAnswer{Action: ask.Cancel}
		m.quest = nil
	}
	for _, w := range m.questWaiting {
		w.reply <- event.QuestionAnswer{Action: ask.Cancel}
	}
	m.questWaiting = nil
}

func fieldLabel(f event.QuestionField) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// questView renders the form in place of the input box and returns where
// the cursor goes.
func (m *Model) questView() (lines []string, row, col int) {
	q := m.quest
	w := m.width - 1
	rule := style.Accent.Render(strings.Repeat("─", max(w, 1)))
	who := "the model asks"
	if s, ok := strings.CutPrefix(q.q.From, "mcp:"); ok {
		who = "MCP server " + sanitize.Line(s) + " asks"
	}
	lines = append(lines, rule)
	lines = append(lines, cells.Wrap(style.Accent.Render("? ")+style.Dim.Render(who+": ")+style.Bold.Render(sanitize.Line(q.q.Message)), w)...)
	f := q.q.Fields[q.field]
	if len(q.q.Fields) > 1 || f.Name != "answer" {
		head := fieldLabel(f)
		if len(q.q.Fields) > 1 {
			head = fmt.Sprintf("(%d/%d) %s", q.field+1, len(q.q.Fields), head)
		}
		if f.Description != "" {
			head += style.Dim.Render(" — " + f.Description)
		}
		lines = append(lines, cells.Wrap("  "+sanitize.Line(head), w)...)
	}
	if hint := fieldHint(f); hint != "" {
		lines = append(lines, cells.Wrap(style.Dim.Render("  "+hint), w)...)
	}
	if q.err != "" {
		lines = append(lines, cells.Truncate(style.Warn.Render("  "+sanitize.Line(q.err)), w, "…"))
	}
	lead := "  › "
	l := q.ed.Layout(max(w-cells.Width(lead), 4))
	for i, r := range l.Rows {
		if i == 0 {
			lines = append(lines, style.Accent.Render(lead)+r)
		} else {
			lines = append(lines, strings.Repeat(" ", cells.Width(lead))+r)
		}
	}
	row, col = len(lines)-len(l.Rows)+l.Row, cells.Width(lead)+l.Col
	keys := "enter answers · esc declines · ctrl+c cancels"
	if m.hint != "" {
		keys = m.hint
	}
	lines = append(lines, cells.Truncate(style.Dim.Render("  "+keys), w, "…"), rule)
	return lines, row, col
}

// fieldHint says what a field takes: its choices (numbered), yes/no, a
// number and its bounds, the default.
func fieldHint(f event.QuestionField) string {
	var parts []string
	switch f.Kind {
	case ask.KindChoice, ask.KindChoices:
		var cs []string
		for i, c := range f.Choices {
			label := c
			if i < len(f.Labels) && f.Labels[i] != "" {
				label = f.Labels[i]
			}
			cs = append(cs, strconv.Itoa(i+1)+" "+sanitize.Line(label))
		}
		parts = append(parts, strings.Join(cs, "  "))
		switch {
		case f.Kind == ask.KindChoices:
			parts = append(parts, "several, separated by commas")
		case f.Other:
			parts = append(parts, "or type your own")
		}
	case ask.KindBoolean:
		parts = append(parts, "yes or no")
	case ask.KindNumber, ask.KindInteger:
		b := "a number"
		if f.Kind == ask.KindInteger {
			b = "a whole number"
		}
		if f.Min != nil || f.Max != nil {
			b += " (" + boundsText(f) + ")"
		}
		parts = append(parts, b)
	default:
		if f.Format != "" {
			parts = append(parts, f.Format)
		}
	}
	if f.Default != nil {
		parts = append(parts, "enter for "+sanitize.Line(fmt.Sprint(f.Default)))
	} else if !f.Required {
		parts = append(parts, "optional")
	}
	return strings.Join(parts, " · ")
}

func boundsText(f event.QuestionField) string {
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
	switch {
	case f.Min != nil && f.Max != nil:
		return num(f.Min) + " to " + num(f.Max)
	case f.Min != nil:
		return "at least " + num(f.Min)
	}
	return "at most " + num(f.Max)
}

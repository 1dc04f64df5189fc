package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/editor"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// permState is an open permission prompt.
type permState struct {
	opened time.Time
	req    PermissionRequest
	reply  chan Decision
	choice int // -1 none yet (no default), 0 allow once, 1 allow for session, 2 deny
	// arrowed: the previous key moved the choice; only then does Enter pick.
	arrowed bool
	typing  bool // typing the deny reason
	reason  editor.Editor
}

var permChoices = []string{"allow once", "allow for this session", "deny"}

// maxPromptDiffLines bounds how much of a diff the prompt shows before
// summarising; the full diff is in the session log.
const maxPromptDiffLines = 40

// approver returns the Approver for turn id: it asks the UI and blocks
// until the user answers or ctx ends.
func (m *Model) approver(id int) Approver {
	send := m.send
	return func(ctx context.Context, req PermissionRequest) Decision {
		reply := make(chan Decision, 1)
		send(permAskMsg{id: id, req: req, reply: reply})
		select {
		case d := <-reply:
			return d
		case <-ctx.Done():
			return Decision{Decision: Deny, Reason: "interrupted"}
		}
	}
}

func (m *Model) askPermission(msg permAskMsg) tea.Cmd {
	if msg.id != m.turn.id || !m.turn.running {
		msg.reply <- Decision{Decision: Deny, Reason: "turn ended"}
		return nil
	}
	if m.perm != nil { // one prompt at a time; later requests wait
		m.permWaiting = append(m.permWaiting, msg)
		return nil
	}
	m.endStep()
	m.perm = &permState{req: msg.req, reply: msg.reply, opened: m.opts.Now(), choice: -1}
	return nil
}

// permGrace is how long after a prompt opens its keys are ignored: a key
// pressed that soon was meant for what was on screen before.
const permGrace = 400 * time.Millisecond

// permKey answers the prompt: y/1 allow once, a/2 allow for the session,
// n/3 deny (then type a reason, Enter sends), arrows choose and Enter
// picks the choice they moved to, v prints the whole command to the
// scrollback, Esc denies without a reason, ^C denies and interrupts.
//
// Enter answers only right after an arrow key: there is no default
// choice. Keys that arrive within permGrace of the prompt opening, or that
// belong to a typing burst (keys or pastes less than typingBurstGap apart)
// that began before it opened, are not answers, and neither is a letter
// that does not begin a burst of its own (a word typed at the prompt):
// printable ones go to the (hidden) input box, the rest are dropped.
// Someone typing ahead must not approve a command by accident.
func (m *Model) permKey(k tea.Key) tea.Cmd {
	p := m.perm
	name := k.String()
	now := m.lastKey // when this key arrived (noteInput)
	printable := k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0
	arrowed := p.arrowed
	p.arrowed = false
	if name != "ctrl+c" && !p.typing {
		var why string
		switch {
		case !m.burstStart.After(p.opened) || now.Sub(p.opened) < permGrace:
			why = "typed before the prompt"
		case printable && !m.burstStart.Equal(now):
			// A letter in the middle of a burst is a word being typed
			// ("check all" must not answer "a").
			why = "typing at the prompt"
		}
		if why != "" {
			if printable || name == "backspace" {
				m.ed.HandleKey(k)
			}
			m.hint = why + " (kept in the input): pause, then answer y, a or n"
			return nil
		}
	}
	if p.typing {
		switch name {
		case "enter":
			m.decide(Deny, strings.TrimSpace(p.reason.Value()))
		case "esc":
			p.typing = false
		case "ctrl+c":
			m.decide(Deny, "")
			m.interrupt()
		default:
			p.reason.HandleKey(k)
		}
		return nil
	}
	switch name {
	case "y", "1":
		m.decide(AllowOnce, "")
	case "a", "2":
		m.decide(AllowSession, "")
	case "n", "3":
		p.choice, p.typing = 2, true
	case "up", "left", "shift+tab":
		if p.choice <= 0 {
			p.choice = len(permChoices)
		}
		p.choice--
		p.arrowed = true
	case "down", "right", "tab":
		p.choice = (p.choice + 1) % len(permChoices)
		p.arrowed = true
	case "enter":
		if p.choice < 0 || !arrowed {
			m.hint = "press y to allow once, a for this session, n to deny"
			return nil
		}
		switch p.choice {
		case 0:
			m.decide(AllowOnce, "")
		case 1:
			m.decide(AllowSession, "")
		default:
			p.typing = true
		}
	case "v":
		m.showWholeCommand()
	case "esc":
		m.decide(Deny, "")
	case "ctrl+c":
		m.decide(Deny, "")
		m.interrupt()
	default:
		if printable { // the start of a word typed at the prompt
			m.ed.HandleKey(k)
			m.hint = "typing at the prompt (kept in the input): pause, then answer y, a or n"
		}
	}
	return nil
}

func (m *Model) decide(decision, reason string) {
	p := m.perm
	m.perm = nil
	p.reply <- Decision{Decision: decision, Reason: reason}
	if len(m.permWaiting) > 0 {
		next := m.permWaiting[0]
		m.permWaiting = m.permWaiting[1:]
		m.askPermission(next)
	}
}

// denyWaiting answers every open and waiting prompt with a deny (the turn
// ended or was interrupted).
func (m *Model) denyWaiting(reason string) {
	if m.perm != nil {
		m.perm.reply <- Decision{Decision: Deny, Reason: reason}
		m.perm = nil
	}
	for _, w := range m.permWaiting {
		w.reply <- Decision{Decision: Deny, Reason: reason}
	}
	m.permWaiting = nil
}

// permView renders the prompt in place of the input box and returns where
// the cursor goes (row -1: hidden). It fits in the rows the live region
// has (height minus the footer and two spare rows) so the title, the
// reason and the options are always on screen; a command too tall for the
// rest shows its head and tail and says how much is hidden (v prints it
// all to the scrollback).
func (m *Model) permView() (lines []string, row, col int) {
	p := m.perm
	w := m.width - 1
	rule := style.Warn.Render(strings.Repeat("─", max(w, 1)))
	title := style.Warn.Render("? ") + style.Bold.Render("allow "+sanitize.Line(p.req.Tool)+"?")
	if p.req.Why != "" {
		title += style.Dim.Render("  " + sanitize.Line(p.req.Why))
	}
	head := append([]string{rule}, cells.Wrap(title, w)...)
	if len(head) > 3 { // a long reason: keep two rows of it, marked as cut
		head = append(head[:2], cells.Truncate(head[2], w-2, "")+style.Dim.Render(" …"))
	}

	var body []string
	if p.req.Path != "" {
		body = append(body, cells.Truncate("  "+style.Bold.Render(sanitize.Visible(p.req.Path)), w, "…"))
	}
	if p.req.Diff != "" {
		d := render.Diff(p.req.Diff, w-2)
		room := min(maxPromptDiffLines, max(m.height-12, 4))
		if len(d) > room {
			extra := len(d) - room
			d = append(d[:room], style.Dim.Render("  … +"+strconv.Itoa(extra)+" more diff lines"))
		}
		for _, l := range d {
			body = append(body, "  "+l)
		}
	}
	var summary []string
	if p.req.Command == "" && p.req.Diff == "" && p.req.Summary != "" {
		summary = cells.Wrap(sanitize.Visible(p.req.Summary), w-2)
	}

	var tail []string
	if m.hint != "" { // in the prompt, where a tall command cannot push it off
		tail = append(tail, cells.Truncate(style.Warn.Render(m.hint), w, "…"))
	}
	var opts []string
	for i, c := range permChoices {
		if i == 1 && p.req.Command != "" {
			c = "allow this command for the session" // a session grant is for the exact command
		}
		label := "[" + string("yan"[i]) + "] " + c
		if i == p.choice {
			label = style.Accent.Render("› " + label)
		} else {
			label = style.Dim.Render("  " + label)
		}
		opts = append(opts, label)
	}
	if line := strings.Join(opts, " "); cells.Width(line) <= w {
		tail = append(tail, line)
	} else { // never cut a choice off, deny least of all
		for _, o := range opts {
			tail = append(tail, cells.Truncate(o, w, "…"))
		}
	}
	// The cursor sits at the start of the choices' last row: a frame
	// without a cursor leaves it wherever the renderer last painted, and
	// the writer must know its row to line up a resize (reflow.go).
	row, col = len(tail)-1, 0
	if p.typing {
		lead := "  reason (enter sends, empty for none): "
		l := p.reason.Layout(max(w-cells.Width(lead), 4))
		for i, r := range l.Rows {
			if i == 0 {
				tail = append(tail, style.Dim.Render(lead)+r)
			} else {
				tail = append(tail, strings.Repeat(" ", cells.Width(lead))+r)
			}
		}
		row, col = len(tail)-len(l.Rows)+l.Row, cells.Width(lead)+l.Col
	}
	tail = append(tail, rule)

	var cmd []string
	if p.req.Command != "" {
		room := m.height - 3 - len(head) - len(body) - len(tail)
		rows, hidden := render.CommandBlock(m.promptCommand(), w-2, room)
		for _, r := range rows {
			if hidden > 0 && strings.HasPrefix(r, "… ") {
				cmd = append(cmd, "  "+style.Warn.Render(r))
				hidden = 0
				continue
			}
			cmd = append(cmd, "  "+style.Bold.Render(r))
		}
	}
	if len(summary) > 0 {
		room := max(m.height-3-len(head)-len(body)-len(tail), 3)
		if len(summary) > room {
			extra := len(summary) - room + 1
			summary = append(summary[:room-1], style.Warn.Render("… "+strconv.Itoa(extra)+" more lines hidden"))
		}
		for _, l := range summary {
			body = append(body, "  "+l)
		}
	}
	lines = append(append(append(head, cmd...), body...), tail...)
	if row >= 0 {
		row += len(lines) - len(tail)
	}
	return lines, row, col
}

// promptCommand is the prompt's command with hidden characters made
// visible and tabs kept for CommandBlock to collapse.
func (m *Model) promptCommand() string { return sanitize.Visible(m.perm.req.Command) }

// showWholeCommand prints the open prompt's whole command, every line
// numbered and every blank run counted, to the scrollback (key v).
func (m *Model) showWholeCommand() {
	if m.perm.req.Command == "" {
		return
	}
	rows, _ := render.CommandBlock(m.promptCommand(), m.contentWidth()-2, 1<<30)
	m.commit(style.Dim.Render("  command awaiting approval (" + sanitize.Line(m.perm.req.Tool) + "):"))
	for _, r := range rows {
		m.commit("  " + r)
	}
}

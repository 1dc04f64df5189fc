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
	opened  time.Time
	req     PermissionRequest
	reply   chan Decision
	choices []permChoice // what the prompt offers, deny last
	choice  int          // index into choices; -1 none yet (no default)
	// arrowed: the previous key moved the choice; only then does Enter pick.
	arrowed bool
	typing  bool // typing the deny reason
	reason  editor.Editor
}

// permChoice is one answer the prompt offers: its letter (its number is
// its row; an "always" row's number answers nothing: see choiceFor), what
// it says (and in a few words, for a low terminal), and the decision it
// returns (a denial first asks for a reason).
type permChoice struct {
	key   string
	label string
	d     Decision
	short string
}

// permChoices lists the answers to req in the order the prompt shows and
// numbers them: allow once (y), for the session (a: a shell call's exact
// command, another tool's every call, as the gate grants it), a command
// prefix for the session (p) when req.Prefix is set, always (A, saved in
// grants.json: the prefix when there is one, else what a session grant
// covers), deny (n). The letters are those of Codex's approval prompt (y,
// a, p, n: codex-rs/tui/src/bottom_pane/approval_overlay.rs in
// github.com/openai/codex; its p is persistent, ours holds for the
// session), and A is "a, for good". The prefix comes from the model's
// command and is sanitised for display; the decision carries it as it
// came.
func permChoices(req PermissionRequest) []permChoice {
	session, always := "allow for this session", "allow always"
	if req.Command != "" {
		session, always = "allow this command for the session", "allow this command always"
	}
	cs := []permChoice{
		{"y", "allow once", Decision{Choice: AllowOnce}, "once"},
		{"a", session, Decision{Choice: AllowSession}, "session"},
	}
	switch {
	case req.Prefix != "" && req.Command == "":
		// an MCP tool: the prefix is its server's, "mcp__github__"
		shown := "`" + sanitize.Line(req.Prefix) + "*`"
		cs = append(cs, permChoice{"p", "allow every " + shown + " tool for the session", Decision{Choice: AllowSession, Prefix: req.Prefix}, shown + " session"})
		cs = append(cs, permChoice{"A", always, Decision{Choice: AllowAlways}, "always"})
	case req.Prefix != "":
		shown := "`" + sanitize.Line(req.Prefix) + " …`"
		cs = append(cs, permChoice{"p", "allow " + shown + " commands for the session", Decision{Choice: AllowSession, Prefix: req.Prefix}, shown + " session"})
		cs = append(cs, permChoice{"A", "allow " + shown + " commands always", Decision{Choice: AllowAlways, Prefix: req.Prefix}, shown + " always"})
	default:
		cs = append(cs, permChoice{"A", always, Decision{Choice: AllowAlways}, "always"})
	}
	return append(cs, permChoice{"n", "deny", Decision{Choice: Deny}, "deny"})
}

// permKeys names the prompt's answer keys for a hint: "y, a, A or n".
func permKeys(cs []permChoice) string {
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.key
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}

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
			return Decision{Choice: Deny, Reason: "interrupted"}
		}
	}
}

func (m *Model) askPermission(msg permAskMsg) tea.Cmd {
	if msg.id != m.turn.id || !m.turn.running {
		msg.reply <- Decision{Choice: Deny, Reason: "turn ended"}
		return nil
	}
	if m.perm != nil || m.quest != nil { // one prompt at a time; later requests wait
		m.permWaiting = append(m.permWaiting, msg)
		return nil
	}
	m.endStep()
	m.perm = &permState{req: msg.req, reply: msg.reply, opened: m.opts.Now(), choices: permChoices(msg.req), choice: -1}
	return m.waiting("permission")
}

// permGrace is how long after a prompt opens its keys are ignored: a key
// pressed that soon was meant for what was on screen before.
const permGrace = 400 * time.Millisecond

// permKey answers the prompt: each choice's letter or number (y/1 allow
// once, a/2 for the session, p for a command prefix, A always, n deny;
// see permChoices), a denial then asks for a reason (Enter sends), arrows
// choose and Enter picks the choice they moved to, v prints the whole
// command to the scrollback, Esc denies without a reason, ^C denies and
// interrupts.
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
			m.hint = why + " (kept in the input): pause, then answer " + permKeys(p.choices)
			return nil
		}
	}
	if p.typing {
		m.reasonKey(k)
		return nil
	}
	if i := p.choiceFor(name); i >= 0 {
		m.pick(i)
		return nil
	}
	switch name {
	case "up", "left", "shift+tab":
		if p.choice <= 0 {
			p.choice = len(p.choices)
		}
		p.choice--
		p.arrowed = true
	case "down", "right", "tab":
		p.choice = (p.choice + 1) % len(p.choices)
		p.arrowed = true
	case "enter":
		if p.choice < 0 || !arrowed {
			m.hint = "answer " + permKeys(p.choices) + ", or move with the arrows and press enter"
			return nil
		}
		m.pick(p.choice)
	case "v":
		m.showWholeCommand()
	case "esc":
		m.decide(Decision{Choice: Deny})
	case "ctrl+c":
		m.decide(Decision{Choice: Deny})
		m.interrupt()
	default:
		if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(p.choices) && p.choices[n-1].d.Choice == AllowAlways {
			m.hint = "press A to allow always (a number never does)"
			return nil
		}
		if printable { // the start of a word typed at the prompt
			m.ed.HandleKey(k)
			m.hint = "typing at the prompt (kept in the input): pause, then answer " + permKeys(p.choices)
		}
	}
	return nil
}

// choiceFor returns the choice key name answers (its letter or its
// number: its row), or -1. A capital letter may come as "shift+a". The
// number of an "always" row answers nothing: a grant that outlives the
// session takes its letter, so a number typed from habit (3 was deny
// before "always" existed) cannot grant one.
func (p *permState) choiceFor(name string) int {
	for i, c := range p.choices {
		upper := c.key != strings.ToLower(c.key)
		if name == c.key || (upper && name == "shift+"+strings.ToLower(c.key)) {
			return i
		}
		if name == strconv.Itoa(i+1) && c.d.Choice != AllowAlways {
			return i
		}
	}
	return -1
}

// pick answers with choice i; a denial first asks for a reason.
func (m *Model) pick(i int) {
	p := m.perm
	if c := p.choices[i]; c.d.Allowed() {
		m.decide(c.d)
		return
	}
	p.choice, p.typing = i, true
}

// reasonKey edits the reason of a denial: Enter sends it (empty for
// none), Esc goes back to the choices, ^C denies and interrupts.
func (m *Model) reasonKey(k tea.Key) {
	p := m.perm
	switch k.String() {
	case "enter":
		m.decide(Decision{Choice: Deny, Reason: strings.TrimSpace(p.reason.Value())})
	case "esc":
		p.typing = false
	case "ctrl+c":
		m.decide(Decision{Choice: Deny})
		m.interrupt()
	default:
		p.reason.HandleKey(k)
	}
}

// decide answers the open prompt with d and opens the next waiting one.
// An approved edit's whole diff goes to the transcript: the prompt may
// have shown only its head.
func (m *Model) decide(d Decision) {
	p := m.perm
	m.perm = nil
	p.reply <- d
	if d.Allowed() && p.req.Diff != "" {
		m.commitDiff("approved change", p.req)
		if m.turn.approved == nil {
			m.turn.approved = map[string]string{}
		}
		m.turn.approved[p.req.ID] = p.req.Diff
	}
	m.openWaiting()
}

// openWaiting opens the next prompt or question form that waited for the
// one just answered: permission requests first.
func (m *Model) openWaiting() {
	switch {
	case len(m.permWaiting) > 0:
		next := m.permWaiting[0]
		m.permWaiting = m.permWaiting[1:]
		m.askPermission(next)
	case len(m.questWaiting) > 0:
		next := m.questWaiting[0]
		m.questWaiting = m.questWaiting[1:]
		m.askQuestion(next)
	}
}

// denyWaiting answers every open and waiting prompt with a deny (the turn
// ended or was interrupted).
func (m *Model) denyWaiting(reason string) {
	if m.perm != nil {
		m.perm.reply <- Decision{Choice: Deny, Reason: reason}
		m.perm = nil
	}
	for _, w := range m.permWaiting {
		w.reply <- Decision{Choice: Deny, Reason: reason}
	}
	m.permWaiting = nil
}

// permView renders the prompt in place of the input box in at most
// budget rows and returns where the cursor goes (row -1: hidden). The
// question and the choices always fit (a low terminal cut the prompt
// from the top, the question first); what is asked about gets the rows
// left: a diff or command too tall shows its head (and a command its
// tail) and says how much is hidden (v prints it all to the scrollback);
// the rules around the prompt go first when rows are short.
func (m *Model) permView(budget int) (lines []string, row, col int) {
	p := m.perm
	w := m.width - 1
	head := m.permTitle(w)
	need := btoi(p.req.Path != "") + btoi(p.req.Diff != "" || p.req.Summary != "")
	if p.req.Command != "" {
		rows, _ := render.CommandBlock(m.promptCommand(), w-2, 3) // its least
		need = len(rows)
	}
	tail, row, col := m.permTail(w, budget-len(head)-need)
	extra := budget - len(head) - len(tail)
	var path []string
	if p.req.Path != "" && extra > 0 {
		path = []string{cells.Truncate("  "+style.Bold.Render(sanitize.Visible(p.req.Path)), w, "…")}
	}
	rules := min(max(extra-need, 0), 2)
	body := m.permBody(w, extra-len(path)-rules)
	rule := style.Warn.Render(strings.Repeat("─", max(w, 1)))
	if rules > 0 {
		head = append([]string{rule}, head...)
	}
	if rules > 1 {
		tail = append(tail, rule)
	}
	lines = append(append(append(head, path...), body...), tail...)
	if row >= 0 {
		row += len(head) + len(path) + len(body)
	}
	return lines, row, col
}

// permTitle is the prompt's question and its reason, two rows at most.
func (m *Model) permTitle(w int) []string {
	p := m.perm
	ask := "allow " + sanitize.Line(p.req.Tool) + "?"
	if p.req.Network {
		ask = "allow " + sanitize.Line(p.req.Tool) + " with network?" // sandbox.network "ask": it runs online
	}
	title := style.Warn.Render("? ") + style.Bold.Render(ask)
	if p.req.Why != "" {
		title += style.Dim.Render("  " + sanitize.Line(p.req.Why))
	}
	head := cells.Wrap(title, w)
	if len(head) > 2 { // a long reason: keep two rows of it, marked as cut
		head = append(head[:1], cells.Truncate(head[1], w-2, "")+style.Dim.Render(" …"))
	}
	return head
}

// permTail is the prompt's hint, choices (in room rows if they can) and
// the reason being typed, and the cursor's row among them and column.
func (m *Model) permTail(w, room int) (tail []string, row, col int) {
	p := m.perm
	if m.hint != "" { // in the prompt, where a tall command cannot push it off
		tail = append(tail, cells.Truncate(style.Warn.Render(m.hint), w, "…"))
	}
	tail = append(tail, p.choiceRows(w, room-len(tail))...)
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
	return tail, row, col
}

// permBody is what the prompt asks about, a command, a diff or the
// call's arguments, in at most room rows (a command takes 3 at least).
func (m *Model) permBody(w, room int) []string {
	p := m.perm
	var body []string
	switch {
	case p.req.Command != "":
		rows, hidden := render.CommandBlock(m.promptCommand(), w-2, room)
		for _, r := range rows {
			if hidden > 0 && strings.HasPrefix(r, "… ") {
				body = append(body, "  "+style.Warn.Render(r))
				hidden = 0
				continue
			}
			body = append(body, "  "+style.Bold.Render(r))
		}
	case p.req.Diff != "":
		if room < 1 {
			return nil
		}
		d := render.Diff(p.req.Diff, w-2)
		// a tall terminal leaves rows for the reply and status above
		if n := min(maxPromptDiffLines, max(m.height-12, 4), room); len(d) > n {
			d = append(d[:max(n-1, 0)], style.Dim.Render("  … +"+render.Plural(len(d)-max(n-1, 0), "more diff line")+" (v shows them)"))
		}
		for _, l := range d {
			body = append(body, "  "+l)
		}
	case p.req.Summary != "":
		summary := cells.Wrap(sanitize.Visible(p.req.Summary), w-2)
		if n := room; n < 1 {
			return nil
		} else if len(summary) > n {
			extra := len(summary) - n + 1
			summary = append(summary[:n-1], style.Warn.Render("… "+strconv.Itoa(extra)+" more lines hidden"))
		}
		for _, l := range summary {
			body = append(body, "  "+l)
		}
	}
	return body
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// choiceRows lays the choices out in w cells: on one row when they fit,
// else one per row, a label too long for its row wrapped under itself so
// no choice is cut off (not a long prefix, and deny, last, least of all);
// when that takes more than room rows, in their few words as many to a
// row as fit.
func (p *permState) choiceRows(w, room int) []string {
	var one []string
	for i, c := range p.choices {
		lead, st := "  ", style.Dim
		if i == p.choice {
			lead, st = "› ", style.Accent
		}
		one = append(one, st.Render(lead+"["+c.key+"] "+c.label))
	}
	if line := strings.Join(one, " "); cells.Width(line) <= w {
		return []string{line}
	}
	var rows []string
	for i, c := range p.choices {
		lead, st := "  ", style.Dim
		if i == p.choice {
			lead, st = "› ", style.Accent
		}
		key := "[" + c.key + "] "
		indent := strings.Repeat(" ", cells.Width(lead+key))
		for j, r := range cells.Wrap(c.label, max(w-len(indent), 1)) {
			if j == 0 {
				r = lead + key + r
			} else {
				r = indent + r
			}
			rows = append(rows, st.Render(cells.Truncate(r, w, "…")))
		}
	}
	if len(rows) > room {
		return p.shortChoiceRows(w)
	}
	return rows
}

// shortChoiceRows is choiceRows for a low terminal: each choice in its
// few words, as many to a row as fit.
func (p *permState) shortChoiceRows(w int) []string {
	var rows []string
	row, used := "", 0
	for i, c := range p.choices {
		lead, st := "  ", style.Dim
		if i == p.choice {
			lead, st = "› ", style.Accent
		}
		piece := lead + "[" + c.key + "] " + c.short
		if n := cells.Width(piece); used > 0 && used+1+n > w {
			rows, row, used = append(rows, row), "", 0
		} else if used > 0 {
			row, used = row+" ", used+1
		}
		row, used = row+st.Render(cells.Truncate(piece, w, "…")), used+cells.Width(piece)
	}
	return append(rows, row)
}

// promptCommand is the prompt's command with hidden characters made
// visible and tabs kept for CommandBlock to collapse.
func (m *Model) promptCommand() string { return sanitize.Visible(m.perm.req.Command) }

// commitDiff prints req's whole diff, wrapped, under a dim title.
func (m *Model) commitDiff(title string, req PermissionRequest) {
	w := m.contentWidth()
	head := "  " + title + " (" + sanitize.Line(req.Tool)
	if req.Path != "" {
		head += ": " + sanitize.Visible(req.Path)
	}
	m.commit(cells.Wrap(style.Dim.Render(head+"):"), w)...)
	for _, l := range render.Diff(req.Diff, w-2) {
		m.commit("  " + l)
	}
}

// showWholeCommand prints the open prompt's whole command, every line
// numbered and every blank run counted, or its whole diff, to the
// scrollback (key v).
func (m *Model) showWholeCommand() {
	if m.perm.req.Command == "" {
		if m.perm.req.Diff != "" {
			m.commitDiff("change awaiting approval", m.perm.req)
		}
		return
	}
	rows, _ := render.CommandBlock(m.promptCommand(), m.contentWidth()-2, 1<<30)
	m.commit(style.Dim.Render("  command awaiting approval (" + sanitize.Line(m.perm.req.Tool) + "):"))
	for _, r := range rows {
		m.commit("  " + r)
	}
}

// Package tui is Zero's interactive terminal app (`zero` with no
// arguments): an inline Bubble Tea v2 program that renders the agent loop's
// events. Finished transcript lines go to the terminal's own scrollback
// (tea.Println); only a small live region at the bottom is repainted: the
// unfinished reply, the reasoning preview, the queue, a permission prompt,
// the input box and the footer `model · host · used/window ctx (pct) ·
// mode`. There is no alternate screen.
//
// The app talks to the rest of Zero only through Backend (backend.go);
// RunBackend (backend_run.go) is the Backend over the run layer
// (internal/run), and tests use fakes of it. It must not build providers,
// tools or gates, nor decide permissions: it shows a run's events and asks
// the user what internal/permission asks. Its pure cores live in subpackages: editor (line editing, history, layout in
// cells), markdown (incremental rendering), render (tool cards, diffs,
// reasoning), sanitize (neutralising untrusted text), cells (one width
// implementation), input (unbracketed-paste detection on raw reads) and
// style.
//
// Hard lessons encoded here: print finished lines in batches no taller than
// the room above the live region (Bubble Tea scrolls by the batch height,
// and a taller batch pushes the live frame into the scrollback); keep the
// live region small for the same reason; never print before the first frame
// (the renderer misplaces such lines, so the opening lines are written
// before the program starts); tea.ClearScreen only repaints an inline
// program's own region; sanitise every string that did not come from this
// package before it is styled; a permission prompt has no default answer
// and ignores type-ahead. Files here split the app by concern: app.go
// (model and message routing), keys.go (the key table), run.go (turns and
// events), view.go (live region and footer), slash.go (slash commands),
// permission.go (approval prompts), queue.go (type-ahead queue), notify.go
// (the bell after a long turn), program.go
// (starting Bubble Tea), reflow.go (undoing a terminal's rewrap of the live
// region when it gets narrower).
//
// It must not import the agent loop, providers or stores: the CLI wires
// those behind Backend.
package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/editor"
	"github.com/zero-agent/zero/internal/tui/markdown"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// Model is the app's state. It is driven by Bubble Tea; create it with
// New. All methods run on Bubble Tea's event goroutine.
type Model struct {
	backend Backend
	opts    Options
	send    func(tea.Msg) // delivers messages from backend goroutines

	width, height int
	mode          Mode
	info          Info

	ed   editor.Editor
	hist editor.History
	// images wait for the next prompt (/image, a pasted path);
	// imageNames are their file names, shown with the prompt.
	images     []llm.Image
	imageNames []string

	// Key-sequence state.
	lastKey    time.Time // when the previous key arrived
	burstStart time.Time // when the current burst of typing began
	escArmed   bool      // the previous key was a lone Esc
	ctrlCArmed bool      // ^C on an empty line once; again exits
	hint       string

	search *searchState
	queue  queueState
	perm   *permState
	// permWaiting holds requests that arrived while a prompt was open.
	permWaiting []permAskMsg
	// quest is an open question form (question.go); questWaiting the
	// questions that arrived while a form or prompt was open.
	quest        *questState
	questWaiting []questAskMsg
	// pastes are the multi-line pastes into the input box since the last
	// submit: the transcript shows each as [pasted N lines] (the model
	// gets the text whole).
	pastes []string

	turn turnState

	// Transcript printing: lines wait in toPrint until the previous
	// tea.Println has been handed to the renderer, so order is kept.
	toPrint  []string
	printing bool
	// blankLast: the last line committed was empty.
	blankLast bool
	// viewHeight is the height of the last frame drawn, for flush;
	// cursor is where View drew the cursor in it (nil: none).
	viewHeight int
	cursor     *tea.Cursor
	// output is the program's output when newProgram built it: View
	// tells it each frame, for the prints it rewrites (reflow.go).
	output *lockedWriter

	ticking bool // a refresh tick is pending

	expandReasoning bool
	// lastReasoning is the last reasoning committed as a one-line summary,
	// which ctrl+o prints in full once no reasoning is streaming.
	lastReasoning string
	// lastResult is the last tool result, which ctrl+t prints in full.
	lastResult *lastResult
	lastReply  string
	lastBlocks []markdown.CodeBlock
	quitting   bool
	// openingPrinted: the greeting and resumed history were written to the
	// terminal before Bubble Tea started (newProgram), not by Init.
	openingPrinted bool
	// plan is the model's latest unfinished plan, shown above the input
	// (plan.go).
	plan *event.TaskPlan
}

// Options configures New and Run. The zero value works.
type Options struct {
	// History seeds ↑/↓ recall, oldest first.
	History []string
	// Mode is the starting mode (default ModeNormal).
	Mode Mode
	// Width and Height are used until the terminal reports its size
	// (default 80×24).
	Width, Height int
	// Copy puts text on the system clipboard for /clip; nil uses
	// pbcopy, wl-copy or xclip when present, else OSC 52 only.
	Copy func(text string) error
	// Greeting is printed once at start (e.g. the version line).
	Greeting string
	// Resumed, when set, is a session resumed at start (`zero --resume`):
	// its prompts, replies and tool cards are shown after the greeting,
	// as /resume shows them (resumedLines).
	Resumed *Resumed
	// Now is the clock for the running turn's elapsed time (nil: time.Now).
	Now func() time.Time
	// Tick is how often the status line's elapsed time refreshes while a
	// turn runs (0: every second; negative: never, for tests).
	Tick time.Duration
	// Notify is how the app calls the user back when it starts waiting
	// for them after a long turn (notify.go): NotifyBell (the default),
	// NotifyOSC9 or NotifyOff. Run reads ZERO_NOTIFY when it is empty.
	Notify string
	// NotifyAfter is how long a turn must run without a key from the user
	// for that (0: 10 s; Run reads ZERO_NOTIFY_AFTER).
	NotifyAfter time.Duration
	// Prompt, when set, is sent as the first prompt as the app starts
	// (`zero "task"`), as if typed and sent with Enter.
	Prompt string
}

// New returns the app model for backend.
func New(backend Backend, opts Options) *Model {
	m := &Model{backend: backend, opts: opts, width: opts.Width, height: opts.Height, mode: opts.Mode}
	if m.width <= 0 {
		m.width = 80
	}
	if m.height <= 0 {
		m.height = 24
	}
	if m.mode == "" {
		m.mode = ModeNormal
	}
	if m.opts.Now == nil {
		m.opts.Now = time.Now
	}
	if m.opts.Tick == 0 {
		m.opts.Tick = time.Second
	}
	for _, h := range opts.History {
		m.hist.Add(h)
	}
	m.info = backend.Info()
	m.send = func(tea.Msg) {}
	if r := opts.Resumed; r != nil {
		m.plan = r.Plan
	}
	return m
}

// SetSender sets how messages from backend goroutines reach the program
// (Program.Send). Run sets it; tests set their own.
func (m *Model) SetSender(send func(tea.Msg)) { m.send = send }

// Init implements tea.Model. It prints the opening lines unless the
// program printed them before starting (newProgram).
func (m *Model) Init() tea.Cmd {
	if !m.openingPrinted {
		m.commit(m.openingLines()...)
	}
	if p := m.opts.Prompt; strings.TrimSpace(p) != "" {
		m.hist.Add(p)
		return tea.Batch(m.flush(), m.startRun(p))
	}
	return m.flush()
}

// openingLines are the greeting and, for `zero --resume`, the resumed
// conversation exactly as /resume shows it (resumedLines).
func (m *Model) openingLines() []string {
	var lines []string
	if m.opts.Greeting != "" {
		lines = append(lines, strings.Split(sanitize.Text(m.opts.Greeting), "\n")...)
	}
	if r := m.opts.Resumed; r != nil && len(r.History) > 0 {
		lines = append(lines, resumedLines(*r, m.contentWidth())...)
		lines = append(lines, "") // as background output ends
	}
	return lines
}

// Messages the app sends itself.
type (
	// printedMsg says the previous batch of transcript lines reached the
	// renderer.
	printedMsg struct{}
	// eventMsg carries one agent-loop event of turn id.
	eventMsg struct {
		id int
		ev event.Event
	}
	// runDoneMsg says Backend.Run of turn id returned.
	runDoneMsg struct {
		id   int
		stop event.StopReason
	}
	// permAskMsg asks the user to approve a tool call; the answer goes to
	// reply.
	permAskMsg struct {
		id    int
		req   PermissionRequest
		reply chan Decision
	}
	// tickMsg refreshes the elapsed time of turn id.
	tickMsg struct{ id int }
	// outputMsg carries lines produced by a background command (slash
	// command, !cmd) for the transcript; when id is the busy turn, it ends
	// that turn.
	outputMsg struct {
		id    int
		lines []string
		info  bool // refresh the footer's Info
		// reset: the session changed; take Backend.Info as is (no usage
		// carried over).
		reset bool
		// planSet: the session changed to one whose plan is plan (nil:
		// none; /new, /resume).
		planSet bool
		plan    *event.TaskPlan
	}
)

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.quitting {
		return m, tea.Sequence(m.flush(), tea.Quit)
	}
	var tick tea.Cmd
	if m.turn.running && !m.ticking && m.opts.Tick > 0 {
		m.ticking = true
		id := m.turn.id
		tick = tea.Tick(m.opts.Tick, func(time.Time) tea.Msg { return tickMsg{id: id} })
	}
	return m, tea.Batch(cmd, m.flush(), tick)
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.CursorPositionMsg:
		if m.output != nil {
			m.output.pinAt(msg.Y) // pin.go
		}
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 10), max(msg.Height, 4)
		m.turn.resize(m.contentWidth())
	case tea.KeyPressMsg:
		return m.key(tea.Key(msg))
	case tea.PasteMsg:
		m.paste(msg.Content)
	case tickMsg:
		m.ticking = false // Update re-arms it while a turn runs
	case printedMsg:
		m.printing = false // flush (in Update) sends the next batch
	case argsMsg:
		m.completeArgs(msg)
	case eventMsg:
		if msg.id == m.turn.id {
			m.event(msg.ev)
		}
	case runDoneMsg:
		if msg.id == m.turn.id {
			return m.runDone(msg.stop)
		}
	case permAskMsg:
		return m.askPermission(msg)
	case questAskMsg:
		return m.askQuestion(msg)
	case outputMsg:
		m.commit(msg.lines...)
		switch {
		case msg.reset:
			m.info = m.backend.Info()
		case msg.info:
			m.info = mergeInfo(m.backend.Info(), m.info)
		}
		if msg.planSet {
			m.plan = msg.plan
		}
		if msg.id == m.turn.id && m.turn.busy != "" {
			return m.runDone("")
		}
	}
	return nil
}

// commit queues finished lines for the scrollback. An empty line right
// after another is dropped: one blank line separates turns and
// paragraphs, however many a reply or a report ends with. (A blank line
// of a code block is indented, so it stays.)
func (m *Model) commit(lines ...string) {
	for _, l := range lines {
		if l == "" && m.blankLast {
			continue
		}
		m.blankLast = l == ""
		m.toPrint = append(m.toPrint, l)
	}
}

// flush hands queued lines to the renderer, one batch at a time, so
// scrollback order matches commit order. A batch is at most as tall as the
// room above the live region: Bubble Tea prints above the frame by
// scrolling the screen up by the batch's height, and a taller batch would
// push the frame itself into the scrollback (duplicated status lines).
// Lines are already wrapped to the width, so one line is one row.
func (m *Model) flush() tea.Cmd {
	if m.printing || len(m.toPrint) == 0 {
		return nil
	}
	n := min(len(m.toPrint), max(m.height-max(m.viewHeight, m.height/2)-2, 1))
	batch := strings.Join(m.toPrint[:n], "\n")
	m.toPrint = m.toPrint[n:]
	m.printing = true
	return tea.Sequence(tea.Println(batch), func() tea.Msg { return printedMsg{} })
}

// contentWidth is the width transcript lines wrap to.
func (m *Model) contentWidth() int { return max(m.width-1, 10) }

// paste inserts pasted text whole: escape sequences and controls are
// removed, "\r\n" and "\r" become "\n", and nothing is submitted (B33).
func (m *Model) paste(s string) {
	// A paste is typing too: a key right after it continues its burst (an
	// unbracketed paste of type-ahead arrives as one PasteMsg, input pkg).
	m.noteInput()
	clean := sanitize.Text(s)
	switch {
	case m.perm != nil:
		if m.perm.typing {
			m.perm.reason.Insert(sanitize.Line(clean))
		}
	case m.quest != nil:
		m.quest.ed.Insert(sanitize.Line(clean))
	case m.search != nil:
		m.search.query += sanitize.Line(clean)
		m.searchUpdate(false)
	default:
		if p, ok := pastedImage(clean); ok {
			m.attachImage(p)
			return
		}
		m.ed.Insert(clean)
		if strings.Count(clean, "\n") >= pasteFoldLines {
			m.pastes = append(m.pastes, clean)
		}
	}
}

// pasteFoldLines is how many line breaks make a paste fold to one line
// in the transcript.
const pasteFoldLines = 4

// shownPrompt is prompt as the transcript shows it: each multi-line paste
// it still holds folded to [pasted N lines]; the pastes are then
// forgotten.
func (m *Model) shownPrompt(prompt string) string {
	for _, p := range m.pastes {
		if strings.Contains(prompt, p) {
			n := strings.Count(strings.TrimRight(p, "\n"), "\n") + 1
			prompt = strings.Replace(prompt, p, fmt.Sprintf("[pasted %d lines]", n), 1)
		}
	}
	m.pastes = nil
	return prompt
}

// quit ends the program, interrupting a running turn.
func (m *Model) quit() tea.Cmd {
	m.turn.interrupt()
	m.quitting = true
	return nil
}

// Value returns the input box's text (for tests and the CLI).
func (m *Model) Value() string { return m.ed.Value() }

// CurrentMode returns the input mode.
func (m *Model) CurrentMode() Mode { return m.mode }

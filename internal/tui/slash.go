package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// command is one slash command.
type command struct {
	name, args, help string
}

// commands lists the slash commands in /help order.
var commands = []command{
	{"help", "", "show keys and commands"},
	{"model", "[[provider/]name]", "show or switch the model (provider/model switches the profile, as zero -m does)"},
	{"provider", "[name]", "list the provider profiles, or switch this session to one"},
	{"config", "", "show the active configuration"},
	{"context", "", "show what fills the context window"},
	{"status", "", "show the model, endpoint, window, mode, session and MCP servers"},
	{"cost", "", "show this session's tokens and estimated cost"},
	{"clear", "", "new session; old conversation scrolled off the screen"},
	{"new", "", "new session; the screen stays as it is"},
	{"sessions", "", "list this project's sessions"},
	{"resume", "<id|prefix>", "resume a session"},
	{"rewind", "[N [files|conversation]]", "put the files and/or conversation back to before prompt N"},
	{"logs", "", "show where the session log and spilled outputs live"},
	{"tools", "", "list the tools the model can use"},
	{"memory", "", "list the instruction files loaded (AGENTS.md, CLAUDE.md…)"},
	{"skills", "", "list the skills (/<skill> [args] runs one)"},
	{"agents", "", "list the sub-agents the model can hand jobs to"},
	{"compact", "", "compact the conversation now"},
	{"rules", "[why <id>]", "show the rules in force, or why one exists"},
	{"mcp", "[tools|prompts|reconnect NAME|remove NAME]", "MCP servers: state, tools, prompts (/mcp__server__prompt runs one), reconnect, remove"},
	{"clip", "[n]", "copy code block n (or the last reply) to the clipboard"},
	{"image", "<path>", "attach an image (PNG, JPEG, GIF, WebP) to the next prompt"},
	{"scan", "[--lan]", "find model servers on this machine (127.0.0.1; --lan: and its /24) and list their models"},
	{"servers", "", "list the servers the last scan remembered"},
	{"connect", "<n>", "switch to model n of the last scan (saved as the active profile)"},
	{"loops", "", "list the loops (read-only; zero loop run NAME drives one)"},
	{"ps", "", "list the processes the model started (exec_command)"},
	{"stop", "<id>", "end a process the model started, and its children"},
	{"exit", "", "quit"},
}

// keyHelp is the key table shown by /help.
var keyHelp = [][]string{
	{"enter", "submit (completes /commands)"},
	{"ctrl+j, shift+enter", "newline"},
	{"ctrl+a/e, home/end", "start/end of line"},
	{"alt+←/→, ctrl+←/→", "word back/forward"},
	{"ctrl+w", "delete word back"},
	{"ctrl+u/k", "kill to start/end of line"},
	{"ctrl+y", "yank"},
	{"↑/↓", "lines, then history"},
	{"ctrl+r", "reverse history search"},
	{"tab", "complete /command, session id, model"},
	{"shift+tab", "cycle mode (normal/auto-accept/plan)"},
	{"ctrl+q", "edit the queue"},
	{"esc esc, ctrl+c", "interrupt / clear the line"},
	{"ctrl+o", "show reasoning in full"},
	{"ctrl+t", "show the last tool result in full"},
	{"ctrl+d", "exit (empty line), else delete forward"},
	{"ctrl+l", "scroll the screen clear (the scrollback keeps it)"},
	{"!cmd", "run a shell command"},
	{"y a p A n", "answer a permission prompt (1, 2, … pick rows; ↑/↓ enter; esc denies)"},
	{"v", "in a permission prompt: the whole command or diff"},
}

// helpLines is /help: the commands, the custom commands and skills, and
// the keys, each in columns that wrap under themselves.
func (m *Model) helpLines(width int) []string {
	var rows [][]string
	for _, c := range commands {
		rows = append(rows, []string{strings.TrimSpace("/" + c.name + " " + c.args), c.help})
	}
	out := append([]string{"commands"}, render.Columns(rows, "  ", width)...)
	if cs := m.custom(); len(cs) > 0 {
		rows = rows[:0]
		for _, c := range cs {
			rows = append(rows, []string{strings.TrimSpace("/" + c.Name + " " + c.Hint), c.Help})
		}
		out = append(append(out, "custom commands and skills"), render.Columns(rows, "  ", width)...)
	}
	return append(append(out, "keys"), render.Columns(keyHelp, "  ", width)...)
}

// reportLines renders a report: tab-separated fields on every line are
// columns (/tools), anything else wraps as text.
func reportLines(text string, width int) []string {
	var rows [][]string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !strings.Contains(l, "\t") {
			return render.Report(text, width)
		}
		rows = append(rows, strings.Split(l, "\t"))
	}
	return render.Columns(rows, "", width)
}

func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = "/" + c.name
	}
	return names
}

// builtin reports whether name is one of the app's own commands (they win
// over a custom command of the same name).
func builtin(name string) bool {
	for _, c := range commands {
		if c.name == name || name == "quit" {
			return true
		}
	}
	return false
}

// custom is the backend's custom commands but those a built-in shadows.
func (m *Model) custom() []CustomCommand {
	l, ok := m.backend.(customLister)
	if !ok {
		return nil
	}
	var out []CustomCommand
	for _, c := range l.CustomCommands() {
		if !builtin(c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// allNames is every slash command's name: the built-ins, then the
// custom ones, for Tab completion and suggestions.
func (m *Model) allNames() []string {
	names := commandNames()
	for _, c := range m.custom() {
		names = append(names, "/"+c.Name)
	}
	return names
}

// isCustom reports whether line calls a custom command.
func (m *Model) isCustom(line string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	name, _, _ = strings.Cut(name, "\n")
	if builtin(name) {
		return false
	}
	for _, c := range m.custom() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// slash runs a slash command line such as "/resume 3f2a".
func (m *Model) slash(line string) tea.Cmd {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	arg = strings.TrimSpace(arg)
	w := m.contentWidth()
	m.commit(style.Dim.Render("› " + sanitize.Line(line)))
	switch name {
	case "help":
		m.commit(m.helpLines(w)...)
		m.commit("")
	case "exit", "quit":
		return m.quit()
	case "model":
		if arg == "" {
			current := m.info.Model
			return m.background("", func(ctx context.Context, b Backend) (string, error) {
				return formatModels(ctx, b, current), nil
			})
		}
		return m.background("switching model", func(ctx context.Context, b Backend) (string, error) {
			if err := b.SetModel(ctx, arg); err != nil {
				return "", err
			}
			i := b.Info()
			return "model: " + i.Model + " · " + i.Host + unlistedModel(ctx, b, arg, i.Model), nil
		})
	case "provider":
		return m.providerCmd(arg)
	case "scan", "servers", "connect":
		busy := ""
		if name == "connect" { // it may switch the session's provider: a turn
			busy = "connecting"
		}
		return m.background(busy, func(ctx context.Context, b Backend) (string, error) {
			lan := strings.TrimSpace(arg) == "--lan"
			if name == "scan" && strings.TrimSpace(arg) != "" && !lan {
				return "", fmt.Errorf("usage: /scan (this machine) or /scan --lan (also the other hosts of its /24)")
			}
			d, ok := b.(discoverer)
			if !ok {
				return "", fmt.Errorf("/%s is not available here", name)
			}
			switch {
			case name == "scan" && lan:
				return d.ScanLAN(ctx)
			case name == "scan":
				return d.Scan(ctx)
			case name == "servers":
				return d.Servers(ctx)
			}
			return d.Connect(ctx, arg)
		})
	case "loops":
		return m.background("", func(context.Context, Backend) (string, error) { return loopsList() })
	case "rules":
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			return b.Rules(ctx, arg)
		})
	case "mcp":
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			return b.MCP(ctx, arg)
		})
	case "config", "context", "logs", "tools", "memory", "skills", "agents", "status", "cost":
		kind := ReportKind(name)
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			return b.Report(ctx, kind)
		})
	case "clear", "new":
		if name == "clear" {
			m.clearScreen()
		}
		return withPlan(m.sessionChange("", func(ctx context.Context, b Backend) (string, error) {
			id, err := b.NewSession(ctx)
			return "new session " + id, err
		}), nil)
	case "sessions":
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			list, err := b.Sessions(ctx)
			return formatSessions(list), err
		})
	case "resume":
		if arg == "" {
			// which one? the list, with how to pick (Tab completes ids)
			return m.background("", func(ctx context.Context, b Backend) (string, error) {
				list, err := b.Sessions(ctx)
				return formatSessions(list), err
			})
		}
		var plan *event.TaskPlan
		return withPlan(resetInfo(m.backgroundLines("resuming", func(ctx context.Context, b Backend, w int) ([]string, error) {
			r, err := b.Resume(ctx, arg)
			plan = r.Plan
			return resumedLines(r, w), err
		})), &plan)
	case "rewind":
		return m.rewind(arg)
	case "compact":
		return m.sessionChange("compacting", func(ctx context.Context, b Backend) (string, error) {
			return b.Compact(ctx)
		})
	case "clip":
		return m.clip(arg)
	case "image":
		m.attachImage(arg)
	case "ps", "stop":
		return m.procs(name == "stop", arg)
	default:
		msg := "unknown command /" + name
		if s := suggest("/"+name, m.allNames()); s != "" {
			msg += " — did you mean " + s + "?"
		}
		m.commit(render.Notice(event.Warning, msg+" (/help lists them)", w)...)
	}
	return nil
}

// providerCmd is /provider: the profiles, or a switch to one (a turn:
// the input queues until the switch is done).
func (m *Model) providerCmd(arg string) tea.Cmd {
	if arg == "" {
		return m.background("", func(ctx context.Context, b Backend) (string, error) {
			p, ok := b.(providerSwitcher)
			if !ok {
				return "", fmt.Errorf("/provider is not available here")
			}
			return p.Providers(ctx)
		})
	}
	return m.background("switching provider", func(ctx context.Context, b Backend) (string, error) {
		p, ok := b.(providerSwitcher)
		if !ok {
			return "", fmt.Errorf("/provider is not available here")
		}
		return p.UseProvider(ctx, arg)
	})
}

// background runs f off the UI goroutine and prints its text. A non-empty
// busy label makes it a turn: the input queues and ^C cancels it.
func (m *Model) background(busy string, f func(context.Context, Backend) (string, error)) tea.Cmd {
	return m.backgroundLines(busy, func(ctx context.Context, b Backend, w int) ([]string, error) {
		text, err := f(ctx, b)
		if err != nil || text == "" {
			return nil, err
		}
		return reportLines(text, w), nil
	})
}

// backgroundLines is background for f that renders its own lines at the
// content width it is given.
func (m *Model) backgroundLines(busy string, f func(context.Context, Backend, int) ([]string, error)) tea.Cmd {
	ctx := context.Background()
	id := m.turn.id
	if busy != "" {
		ctx = m.begin(busy)
		id = m.turn.id
	}
	b, w := m.backend, m.contentWidth()
	return func() tea.Msg {
		lines, err := f(ctx, b, w)
		if err != nil {
			lines = render.Notice(event.Error, appWords(err.Error()), w)
		}
		return outputMsg{id: id, lines: append(lines, ""), info: true}
	}
}

// sessionChange is background for a command that replaces the session's
// contents (/new, /clear, /resume, /compact): afterwards the footer shows
// Backend.Info as it is, with no usage carried over from before.
func (m *Model) sessionChange(busy string, f func(context.Context, Backend) (string, error)) tea.Cmd {
	return resetInfo(m.background(busy, f))
}

// resetInfo marks the output of run as a session change's.
func resetInfo(run tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		msg := run().(outputMsg)
		msg.reset = true
		return msg
	}
}

// withPlan marks a session change's output as setting the plan panel:
// to *plan once cmd has run (cmd sets it), or none when plan is nil.
func withPlan(cmd tea.Cmd, plan **event.TaskPlan) tea.Cmd {
	return func() tea.Msg {
		msg := cmd().(outputMsg)
		msg.planSet = true
		if plan != nil {
			msg.plan = *plan
		}
		return msg
	}
}

// clearScreen scrolls everything on the screen into the terminal's
// scrollback by printing a screenful of empty lines. tea.ClearScreen cannot
// do it: in an inline program (Bubble Tea v2) it only erases and redraws
// the live region.
func (m *Model) clearScreen() {
	for range m.height {
		m.toPrint = append(m.toPrint, "") // not commit: it keeps one blank line
	}
	m.blankLast = true
}

// shell runs a `!cmd` through the backend's guard and prints its output,
// exit code and time.
func (m *Model) shell(cmd string) tea.Cmd {
	if cmd == "" {
		return nil
	}
	w := m.contentWidth()
	m.commit(style.Accent.Render("!") + " " + style.Bold.Render(sanitize.Line(cmd)))
	ctx := m.begin("running " + sanitize.Line(cmd))
	id, b, mode := m.turn.id, m.backend, m.mode
	return func() tea.Msg {
		start := time.Now()
		r := b.Shell(ctx, cmd, mode)
		if r.ElapsedMs == 0 {
			r.ElapsedMs = time.Since(start).Milliseconds()
		}
		return outputMsg{id: id, lines: append(shellLines(r, w), "")}
	}
}

// shellLines renders a !cmd result: output, then exit code and time.
func shellLines(r ShellResult, width int) []string {
	if r.Denied != "" {
		return render.Notice(event.Error, "refused: "+r.Denied, width)
	}
	if r.Err != nil {
		return render.Notice(event.Error, r.Err.Error(), width)
	}
	var out []string
	output := r.Output
	if !r.Interrupted {
		output = render.WithoutExitFooter(output, r.ExitCode) // the ↳ line says it
	}
	if body := strings.TrimRight(output, "\n"); body != "" {
		out = append(out, render.Block(body, width)...)
	}
	if r.Interrupted {
		return append(out, style.Dim.Render("↳ ")+style.Warn.Render("interrupted")+style.Dim.Render(" · "+render.Duration(r.ElapsedMs)))
	}
	st := style.Good
	if r.ExitCode != 0 {
		st = style.Bad
	}
	return append(out, style.Dim.Render("↳ ")+st.Render("exit "+strconv.Itoa(r.ExitCode))+style.Dim.Render(" · "+render.Duration(r.ElapsedMs)))
}

// formatModels lists the models the backend offers, marking the current
// one; a failed listing still says which model is in use.
func formatModels(ctx context.Context, b Backend, current string) string {
	names, err := b.Models(ctx)
	if err != nil {
		return "model: " + current + "\n(could not list models: " + err.Error() + ")"
	}
	var sb strings.Builder
	sb.WriteString("model: " + current + "\n")
	for _, n := range names {
		mark := "  "
		if n == current {
			mark = "● "
		}
		sb.WriteString(mark + n + "\n")
	}
	return sb.String() + "switch with /model <name> (tab completes), or /model <provider>/<name> (/provider lists them)"
}

func formatSessions(list []Session) string {
	if len(list) == 0 {
		return "no sessions yet"
	}
	var b strings.Builder
	for _, s := range list {
		noun := "prompts"
		if s.Turns == 1 {
			noun = "prompt" // padded: the columns after it stay in line
		}
		fmt.Fprintf(&b, "%s  %3d %-7s  %s  %s\n", s.ID, s.Turns, noun, s.Updated, strings.ReplaceAll(s.Preview, "\n", " "))
	}
	return b.String() + "resume with /resume <id|prefix>"
}

package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/render"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"github.com/zero-agent/zero/internal/tui/style"
)

// planRows caps the plan panel's step rows; a longer plan shows the rows
// around the step in progress.
const planRows = 8

// setPlan takes the model's latest plan (a plan event, or a resumed
// session's). A plan whose steps are all completed leaves the panel and
// is written to the transcript once.
func (m *Model) setPlan(p *event.TaskPlan) {
	m.plan = p
	if p != nil && len(p.Steps) > 0 && len(p.Unfinished()) == 0 {
		m.commit(m.planLines(p, len(p.Steps))...)
		m.plan = nil
	}
}

// planView is the plan panel above the input: the unfinished plan.
func (m *Model) planView() []string {
	if m.plan == nil || len(m.plan.Unfinished()) == 0 {
		return nil
	}
	return m.planLines(m.plan, planRows)
}

// planLines renders p: a heading with the progress, then up to rows steps
// (a window around the one in progress, or the first unfinished).
func (m *Model) planLines(p *event.TaskPlan, rows int) []string {
	w := m.width - 1
	done := len(p.Steps) - len(p.Unfinished())
	head := fmt.Sprintf("plan · %d/%d done", done, len(p.Steps))
	if p.Explanation != "" {
		head += " · " + sanitize.Line(p.Explanation)
	}
	lines := []string{cells.Truncate(style.Dim.Render(head), w, "…")}
	first, last := planWindow(p, rows)
	if first > 0 {
		lines = append(lines, style.Dim.Render(fmt.Sprintf("  … %d earlier", first)))
	}
	for _, s := range p.Steps[first:last] {
		var mark string
		text := sanitize.Line(s.Step)
		switch s.Status {
		case event.StepCompleted:
			mark, text = style.Good.Render("✓"), style.Dim.Render(text)
		case event.StepInProgress:
			mark, text = style.Accent.Render("▸"), style.Bold.Render(text)
		default:
			mark = style.Dim.Render("○")
		}
		lines = append(lines, cells.Truncate("  "+mark+" "+text, w, "…"))
	}
	if rest := len(p.Steps) - last; rest > 0 {
		lines = append(lines, style.Dim.Render(fmt.Sprintf("  … %d more", rest)))
	}
	return lines
}

// planWindow is the range of steps shown in rows rows: from a step
// before the current one (in progress, else the first unfinished).
func planWindow(p *event.TaskPlan, rows int) (first, last int) {
	if len(p.Steps) <= rows {
		return 0, len(p.Steps)
	}
	cur := 0
	for i, s := range p.Steps {
		if s.Status == event.StepInProgress {
			cur = i
			break
		}
		if s.Status == event.StepPending && cur == 0 {
			cur = i
		}
	}
	first = min(max(cur-1, 0), len(p.Steps)-rows)
	return first, first + rows
}

// procBackend is a Backend whose session runs processes for the model
// (exec_command): /ps lists them and /stop ends one.
type procBackend interface {
	Procs() []tools.ProcInfo
	StopProc(id int) error
}

// procs answers /ps (arg "") and /stop ID.
func (m *Model) procs(stop bool, arg string) tea.Cmd {
	now := m.opts.Now
	return m.background("", func(ctx context.Context, b Backend) (string, error) {
		pb, ok := b.(procBackend)
		if !ok {
			return "", fmt.Errorf("this session runs no processes")
		}
		if !stop {
			return formatProcs(pb.Procs(), now()), nil
		}
		id, err := strconv.Atoi(strings.TrimSpace(arg))
		if err != nil {
			return "", fmt.Errorf("usage: /stop ID (/ps lists them)")
		}
		if err := pb.StopProc(id); err != nil {
			return "", err
		}
		return fmt.Sprintf("stopped process %d (the model sees its end when it next polls)", id), nil
	})
}

// formatProcs is /ps: id, state, age and command of each process.
func formatProcs(list []tools.ProcInfo, now time.Time) string {
	if len(list) == 0 {
		return "no processes running (the model starts them with exec_command)"
	}
	var b strings.Builder
	for _, p := range list {
		state := "running"
		if !p.Running {
			state = fmt.Sprintf("exited %d", p.ExitCode)
		}
		fmt.Fprintf(&b, "%3d  %-10s  %-8s  %s\n", p.ID, state, render.Duration(now.Sub(p.Started).Milliseconds()), strings.ReplaceAll(p.Command, "\n", " "))
	}
	return b.String() + "end one with /stop ID"
}

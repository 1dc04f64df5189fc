package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/zero-agent/zero/internal/tui/input"
)

// RunOptions are the terminal settings for Run; the zero value uses the
// process's stdin and stdout.
type RunOptions struct {
	Options
	Input  io.Reader
	Output io.Writer
	// Env overrides the environment Bubble Tea reads (TERM, COLORTERM).
	Env []string
}

// Run starts the interactive app on the terminal and returns when the
// user exits (nil) or ctx ends (ctx.Err()). The terminal is restored
// (bracketed paste off, cursor shown) on return.
func Run(ctx context.Context, backend Backend, opts RunOptions) error {
	for _, w := range notifyFromEnv(&opts.Options, os.Getenv) {
		opts.Greeting = strings.TrimPrefix(opts.Greeting+"\n! "+w, "\n")
	}
	p, m := newProgram(ctx, backend, opts)
	_, err := p.Run()
	m.output.showCursor()
	m.turn.interrupt()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// newProgram builds the Bubble Tea program around a new Model and writes
// the opening lines (greeting, resumed conversation) to the output.
//
// They are written before the program starts, not printed from Init:
// Bubble Tea's inline renderer inserts printed lines relative to the last
// frame it drew, and before its first frame it misplaces them, so the
// first batch was partly overwritten (`zero --resume` lost turns).
func newProgram(ctx context.Context, backend Backend, opts RunOptions) (*tea.Program, *Model) {
	m := New(backend, opts.Options)
	out := opts.Output
	if out == nil {
		out = os.Stdout
		if f := os.Stdout; opts.Width <= 0 && term.IsTerminal(f.Fd()) {
			if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
				m.width, m.height = w, h // wrap the opening lines to the real width
			}
		}
	}
	if lines := m.openingLines(); len(lines) > 0 {
		// "\r\n": the terminal is not in raw mode yet, but the output may
		// not translate "\n" either.
		if _, err := io.WriteString(out, strings.Join(lines, "\r\n")+"\r\n"); err == nil {
			m.openingPrinted = true
		}
	}
	// Bubble Tea draws on a frame ticker, the first frame included: at 120
	// fps the first frame comes ~8 ms sooner than at the default 60 (issue
	// 4's start-up budget), and an idle ticker costs no measurable CPU (an
	// idle app used under 10 ms of CPU in 10 s either way).
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(120)}
	switch {
	case opts.Input != nil:
		popts = append(popts, tea.WithInput(opts.Input))
	case term.IsTerminal(os.Stdin.Fd()):
		// Wrapped so unbracketed pastes land whole (input package, B33).
		popts = append(popts, tea.WithInput(input.NewReader(os.Stdin)))
	}
	// The renderer writes through one writer that keeps prints and
	// resizes from misplacing lines (reflow.go).
	w, locked := lockOutput(out)
	popts = append(popts, tea.WithOutput(w))
	m.output = locked
	if opts.Input != nil || !term.IsTerminal(os.Stdin.Fd()) {
		// the cursor report would come on an input nobody reads (pin.go)
		locked.pin.size = nil
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	if opts.Env != nil {
		popts = append(popts, tea.WithEnvironment(opts.Env))
	}
	p := tea.NewProgram(m, popts...)
	m.SetSender(p.Send)
	return p, m
}

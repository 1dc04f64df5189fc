// Package cli is Zero's command line: the command tree (cobra, flags by
// pflag: GNU --long flags, -h/--help on every command, `zero help CMD`,
// `zero completion bash|zsh|fish`), the parsing of each command's flags and
// arguments, and the exit codes. A command that runs a model hands its
// parsed options to the run layer (internal/run) through its surface: the
// app (startApp, internal/tui) or exec (execute, internal/headless). The
// small commands (sessions, logs, context, config, providers, models,
// doctor, trust, rules, guard) print what the lower packages report.
//
// It must not hold run policy (permission modes, the tool set, providers,
// the sink chain: internal/run and internal/permission own them) and must
// not validate what those packages parse (a --permission-mode value is
// passed through to permission.ParseMode). Every error found while
// parsing is a usage error (exit 2); a command's own errors are mapped by
// exitCode.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/zero-agent/zero/internal/headless"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// Exit codes of the zero command (documented in docs/stream-json.md).
const (
	ExitOK    = 0
	ExitCrash = 1
	// ExitFailed is `zero doctor`'s code when a check failed (1, as
	// `brew doctor` and `gh auth status` exit when something is wrong).
	ExitFailed = 1
	ExitUsage  = 2
	// ExitMCP: an MCP server marked required did not start.
	ExitMCP = 5
	// A run's own outcomes (provider error, incomplete, budget, denied,
	// schema, interrupted) are headless's one table (Subtype.ExitCode).
	ExitProvider    = headless.ExitProvider
	ExitIncomplete  = headless.ExitIncomplete
	ExitInterrupted = headless.ExitInterrupted
)

// usageError is an error in how zero was called; it exits ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// exitError carries an exit code chosen by a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

// io bundles a command's standard streams so tests can run commands in
// process.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// inIsTTY and outIsTTY report whether in and out are terminals.
	inIsTTY, outIsTTY bool
}

// Version is the program version, set at build time with -ldflags.
var Version = "dev"

// Main runs zero with args (without the program name) and returns the exit
// code: 0 ok, 1 crash, 2 usage, 3 provider error, 4 incomplete, 130
// interrupted.
func Main(args []string) int {
	return dispatch(stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, inIsTTY: isTerminal(os.Stdin), outIsTTY: isTerminal(os.Stdout)}, args)
}

// dispatch runs the command line args over the streams s and returns
// the exit code. Every error cobra finds while parsing (a flag, an
// argument, a command name) is a usage error; errors of a command's own
// code are mapped by exitCode.
func dispatch(s stdio, args []string) int {
	root := newRoot(s)
	root.SetArgs(singleDashLong(root, headlessShortcut(args)))
	c, err := root.ExecuteC()
	var re *ranError
	var pe *parseError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &re):
		return exitCode(s, re.err)
	case errors.As(err, &pe):
		fmt.Fprintln(s.err, "zero:", pe)
		return ExitUsage
	case errors.Is(err, pflag.ErrHelp):
		return ExitOK
	}
	if c == nil {
		c = root
	}
	fmt.Fprintln(s.err, "zero:", &parseError{cmd: c, err: err})
	return ExitUsage
}

func exitCode(s stdio, err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *usageError
	var ce *run.ConfigError
	var inUse *run.InUseError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(s.err, "zero:", ue.msg)
		return ExitUsage
	case errors.As(err, &ce), errors.As(err, &inUse), errors.Is(err, sessions.ErrAmbiguous):
		fmt.Fprintln(s.err, "zero:", err)
		return ExitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(s.err, "zero:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(s.err, "zero:", err)
	return ExitCrash
}

// oneLine is s on one line (whitespace runs folded, control characters
// made safe), cut to max terminal cells.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(sanitize.Line(s)), " ")
	return cells.Truncate(s, max, "…") // cells, not runes: a CJK rune takes two
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Package cli wires Zero's commands (exec, sessions, logs, config, guard,
// the interactive app) from flags and configuration to the agent loop and
// its consumers. It holds no agent logic of its own: it builds a Run
// (prompt + options), starts the loop, and attaches surfaces and the
// session log as event consumers.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/tui/sanitize"
	"io"
	"os"
	"strings"
)

// Exit codes of the zero command (documented in docs/stream-json.md).
const (
	ExitOK          = 0
	ExitCrash       = 1
	ExitUsage       = 2
	ExitProvider    = 3
	ExitIncomplete  = 4
	ExitInterrupted = 130
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

// command is one subcommand.
type command struct {
	name, summary string
	run           func(s stdio, args []string) error
}

func commands() []command {
	return []command{
		{"exec", "run one task headlessly: zero exec [flags] \"prompt\" (or -p, or - for stdin)", runExec},
		{"sessions", "list sessions: id, last update, prompts sent, first prompt", runSessions},
		{"logs", "print where this project's session logs are", runLogs},
		{"context", "what the latest session puts in the model's window and what each context lever saved", runContext},
		{"config", "print the resolved configuration (secrets masked)", runConfig},
		{"providers", "manage provider profiles: list | add NAME … | remove NAME | use NAME | check [NAME]", runProviders},
		{"models", "list a provider's models: zero models [provider]", runModels},
		{"doctor", "check the configuration, a provider (the active one or --provider NAME), the shell sandbox and the session store", runDoctor},
		{"trust", "trust this folder: its project rules and hooks load from now on", runTrust},
		{"rules", "project rules: init | add \"text\" | status | doctor | why ID", runRules},
		{"guard", "classify a shell command without running it: zero guard [--json] \"cmd\"", runGuard},
		{"version", "print the version", func(s stdio, _ []string) error { fmt.Fprintln(s.out, "zero", Version); return nil }},
	}
}

// Version is the program version, set at build time with -ldflags.
var Version = "dev"

// Main runs zero with args (without the program name) and returns the exit
// code: 0 ok, 1 crash, 2 usage, 3 provider error, 4 incomplete, 130
// interrupted.
func Main(args []string) int {
	return dispatch(stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, inIsTTY: isTerminal(os.Stdin), outIsTTY: isTerminal(os.Stdout)}, args)
}

func dispatch(s stdio, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "help":
			printUsage(s.out)
			return ExitOK
		case "-v", "--version":
			fmt.Fprintln(s.out, "zero", Version)
			return ExitOK
		case "-p", "--print":
			args = append([]string{"exec"}, args...)
		}
	}
	name := "tui"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name = args[0]
		args = args[1:]
	}
	var cmd *command
	for _, c := range commands() {
		if c.name == name {
			c := c
			cmd = &c
		}
	}
	var err error
	switch {
	case cmd != nil:
		err = cmd.run(s, args)
	case name == "tui":
		err = runInteractive(s, args)
	default:
		err = usagef("unknown command %q (try: zero help)", name)
	}
	return exitCode(s, err)
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
	case errors.As(err, &ce), errors.As(err, &inUse):
		fmt.Fprintln(s.err, "zero:", err)
		return ExitUsage
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
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

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Zero: a local-first coding agent for the terminal.\n\nUsage:\n  zero                 start the interactive app\n  zero exec \"task\"     run one task headlessly\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'zero COMMAND -h' for a command's flags.")
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments ("zero exec 'fix it' --auto-approve") and returns
// the positionals. "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first non-flag or after "--".
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// oneLine is s on one line (whitespace runs folded, control characters
// made safe), cut to max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(sanitize.Line(s)), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Command groups of `zero --help`, in the order they are listed.
const (
	groupRun      = "run"
	groupSessions = "sessions"
	groupSetup    = "setup"
	groupSafety   = "safety"
)

// rootLong is `zero --help`'s description.
const rootLong = `Zero: a local-first coding agent for the terminal.

With no command, zero starts the interactive app in this folder; a PROMPT
argument is sent as the app's first prompt. zero exec runs one task
headlessly. A single word that looks like a mistyped command is refused
with a suggestion (zero -- WORD sends it as a prompt).`

const rootExample = `  zero                                  # the app
  zero "explain the build"              # the app, with a first prompt
  zero --resume                         # the app on a session of this workspace (a picker when there are several)
  zero exec "fix the failing test" --auto-approve
  zero -p "summarize README.md"         # same as zero exec`

// newRoot builds zero's command tree over the streams s. Every command
// parses its own flags (pflag: GNU --long flags, the short ones zero has
// always had); -h/--help, `zero help CMD` and `zero completion SHELL`
// come from cobra.
func newRoot(s stdio) *cobra.Command {
	root := appCmd(s)
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &parseError{cmd: c, err: flagValueError(err)}
	})
	root.AddGroup(
		&cobra.Group{ID: groupRun, Title: "Run:"},
		&cobra.Group{ID: groupSessions, Title: "Sessions:"},
		&cobra.Group{ID: groupSetup, Title: "Setup:"},
		&cobra.Group{ID: groupSafety, Title: "Safety:"},
	)
	root.AddCommand(
		execCmd(s), acpCmd(s),
		sessionsCmd(s), logsCmd(s), contextCmd(s),
		configCmd(s), providersCmd(s), modelsCmd(s), mcpCmd(s), skillsCmd(s), agentsCmd(s), commandsCmd(s), pluginCmd(s), initCmd(s), doctorCmd(s),
		trustCmd(s), rulesCmd(s), guardCmd(s), hooksCmd(s), scanCmd(s), loopCmd(s),
		versionCmd(s),
	)
	root.SetHelpCommand(helpCmd())
	// cobra adds `completion bash|zsh|fish|powershell` when it runs; made
	// here, its unknown shells are usage errors like any sub-verb's (cobra
	// would print its help and exit 0).
	root.InitDefaultCompletionCmd()
	if comp := findSub(root, "completion"); comp != nil {
		comp.Args = subcommands
		comp.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	return root
}

// appCmd is zero itself: the interactive app, its flags, and --version.
func appCmd(s stdio) *cobra.Command {
	o := &appOptions{}
	var version bool
	c := &cobra.Command{
		Use:     "zero [flags] [PROMPT]",
		Short:   "A local-first coding agent for the terminal",
		Long:    rootLong,
		Example: rootExample,
		Args:    rootArgs,
		RunE: ran(func(_ *cobra.Command, pos []string) error {
			if version {
				fmt.Fprintln(s.out, "zero", Version)
				return nil
			}
			switch {
			case len(pos) == 1 && o.resume.set && o.resume.id == "" && sessionIDPattern.MatchString(pos[0]):
				o.resume.id = pos[0] // `zero --resume ID`, as exec takes it
			case len(pos) == 1:
				o.prompt = pos[0]
			}
			return startApp(s, o)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
		SilenceErrors:     true,
		SilenceUsage:      true,
		// A word that is no command is rootArgs's to judge (a prompt, or
		// a typo with a suggestion within this many edits).
		SuggestionsMinimumDistance: 2,
	}
	// --version is zero's own flag, not cobra's Version field: cobra's
	// prints "zero version dev", and a custom version template would link
	// text/template's executor, whose MethodByName call turns off the
	// linker's dead-code removal of methods (measured here: 25.7 MB →
	// 52.9 MB). cobra's default usage and help are Go code
	// (defaultUsageFunc, defaultHelpFunc in its command.go): keep them,
	// never Set*Template.
	c.Flags().BoolVarP(&version, "version", "v", false, "print the version")
	// Shown in help only: headlessShortcut hands -p to zero exec before
	// this command parses anything.
	c.Flags().StringP("prompt", "p", "", "run `PROMPT` headlessly and exit, as zero exec -p PROMPT")
	o.over.register(c)
	o.tools.register(c)
	c.Flags().SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		return pflag.NormalizedName(claudeFlagNames(name))
	})
	registerResume(c, &o.resume, "continue a session of this workspace: a picker when it has several, else its only one")
	registerMode(c, &o.mode)
	return c
}

// versionCmd is `zero version` (also `zero --version`).
func versionCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE:  ran(func(*cobra.Command, []string) error { fmt.Fprintln(s.out, "zero", Version); return nil }),
	}
}

// helpCmd is `zero help [COMMAND...]`: the help of that command, and a
// usage error (exit 2, with suggestions) for one that does not exist.
// cobra's own prints "Unknown help topic" and exits 0.
func helpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		Long:  "zero help COMMAND [SUBCOMMAND] prints the help of that command, as COMMAND --help does.",
		RunE: func(c *cobra.Command, args []string) error {
			cmd := c.Root()
			for _, name := range args {
				next := findSub(cmd, name)
				if next == nil {
					return unknownCommand(cmd, name)
				}
				cmd = next
			}
			cmd.InitDefaultHelpFlag() // as cobra's own help command does: list -h too
			return cmd.Help()
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd := c.Root()
			for _, name := range args {
				if cmd = findSub(cmd, name); cmd == nil {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
	}
}

// findSub is c's subcommand called name (or aliased so), or nil.
func findSub(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name || sub.HasAlias(name) {
			return sub
		}
	}
	return nil
}

// rootArgs judges the words after `zero`: none starts the app, one is its
// first prompt. A lone word that cobra's suggestions match (a command
// name within two edits, or a prefix of one) is a mistyped command; so
// is the first of several unquoted words. Words after "--" are always a
// prompt.
func rootArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	afterDash := c.ArgsLenAtDash() == 0
	first := args[0]
	oneWord := !strings.ContainsAny(first, " \t\n")
	if !afterDash && oneWord && (len(suggestions(c, first)) > 0 || len(args) > 1) {
		hint := fmt.Sprintf("to send it as the app's first prompt: zero -- %q", first)
		if len(args) > 1 {
			hint = fmt.Sprintf("to send a prompt, quote it: zero %q", strings.Join(args, " "))
		}
		return &parseError{cmd: c, err: fmt.Errorf("%s\n\n(%s)", unknownText(c, first), hint)}
	}
	if len(args) > 1 {
		return usagef("the app takes one prompt; quote it: zero %q", strings.Join(args, " "))
	}
	return nil
}

// subcommands is the Args of a command whose words are sub-verbs
// (providers, rules): any word left over is an unknown sub-verb.
func subcommands(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(c, args[0])
	}
	return nil
}

// unknownCommand is a usage error naming name and the commands of c it
// may have meant.
func unknownCommand(c *cobra.Command, name string) error {
	return &parseError{cmd: c, err: errors.New(unknownText(c, name))}
}

// unknownText says name is no command of c and lists the ones it may have
// meant, in cobra's own wording.
func unknownText(c *cobra.Command, name string) string {
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's default, which only its own lookup sets
	}
	msg := fmt.Sprintf("unknown command %q for %q", name, c.CommandPath())
	if sugg := suggestions(c, name); len(sugg) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t")
	}
	return msg
}

// suggestions are cobra's for name, plus "help" within one edit: cobra
// leaves its own help command out of them. One edit, not two, so that a
// first prompt of "hello" still goes to the app.
func suggestions(c *cobra.Command, name string) []string {
	sugg := c.SuggestionsFor(name)
	if name != "help" && editDistance(strings.ToLower(name), "help") <= 1 {
		sugg = append(sugg, "help")
	}
	return sugg
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// flagTakes is what a flag of each pflag value type takes, as a person
// writes it.
var flagTakes = map[string]string{
	"int": "a whole number", "int8": "a whole number", "int16": "a whole number", "int32": "a whole number", "int64": "a whole number",
	"uint": "a whole number of 0 or more", "uint8": "a whole number of 0 or more", "uint16": "a whole number of 0 or more",
	"uint32": "a whole number of 0 or more", "uint64": "a whole number of 0 or more",
	"float32": "a number", "float64": "a number",
	"intSlice": "whole numbers separated by commas", "int32Slice": "whole numbers separated by commas",
	"int64Slice": "whole numbers separated by commas", "uintSlice": "whole numbers separated by commas",
	"float64Slice": "numbers separated by commas", "float32Slice": "numbers separated by commas",
	"duration": "a duration such as 90s, 5m or 1h30m",
	"bool":     "true or false",
}

// flagValueError words a flag value pflag could not parse as what the
// flag takes (`--max-turns takes a whole number, not "abc"`), rather
// than the parser's error (strconv.ParseInt: parsing "abc": invalid
// syntax). Other errors are returned as they are.
func flagValueError(err error) error {
	var ve *pflag.InvalidValueError
	if !errors.As(err, &ve) {
		return err
	}
	takes, ok := flagTakes[ve.GetFlag().Value.Type()]
	if !ok {
		return err // Zero's own flag values say what they take
	}
	return fmt.Errorf("--%s takes %s, not %q", ve.GetFlag().Name, takes, ve.GetValue())
}

// parseError is a usage error found while parsing the command line (a
// flag, an argument, a command name): it exits 2 and points at the
// command's help.
type parseError struct {
	cmd *cobra.Command
	err error
}

func (e *parseError) Error() string {
	return fmt.Sprintf("%v\nRun '%s --help' for usage.", e.err, e.cmd.CommandPath())
}

// ranError marks an error a command's own code returned, as opposed to
// one cobra found while parsing (which is always a usage error).
type ranError struct{ err error }

func (e *ranError) Error() string { return e.err.Error() }
func (e *ranError) Unwrap() error { return e.err }

// ran wraps a command's RunE so its errors are told apart from cobra's.
func ran(fn func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		if err := fn(c, args); err != nil {
			return &ranError{err}
		}
		return nil
	}
}

// headlessShortcut rewrites `zero -p PROMPT …` (or --prompt, --print, as
// Claude Code spells it) to `zero exec -p PROMPT …`, also after other
// flags (`zero -m MODEL -p PROMPT`): when the words start with a flag and
// one before "--" is -p, they are exec's.
func headlessShortcut(args []string) []string {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		return args
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		for _, f := range []string{"-p", "--prompt", "--print"} {
			if a == f || strings.HasPrefix(a, f+"=") {
				return append([]string{"exec"}, args...)
			}
		}
	}
	return args
}

// singleDashLong rewrites "-name" and "-name=value" to "--name…" when
// name is a long flag of some command in root's tree: zero's flags were
// parsed by the standard flag package before, which takes long names
// with one dash, and scripts written then keep working. Arguments after
// "--" are left alone.
func singleDashLong(root *cobra.Command, args []string) []string {
	long := map[string]bool{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { long[f.Name] = true })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	long["print"] = true // exec's alias of --prompt
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if len(name) > 1 && long[name] {
			out[i] = "-" + a
		}
	}
	return out
}

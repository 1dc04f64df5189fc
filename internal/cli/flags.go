package cli

import (
	"fmt"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/headless"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
)

// overrides are the flags every model-using command shares (the app,
// exec, config).
type overrides struct {
	baseURL, model, apiKey, provider string
	autoApprove, noSandbox           bool
	workdir                          string
	addDirs                          []string
}

// config returns the flags as configuration overrides.
func (o *overrides) config() config.Overrides {
	return config.Overrides{BaseURL: o.baseURL, Model: o.model, APIKey: o.apiKey, Provider: o.provider}
}

// register adds the shared flags to c. A back-quoted word in a usage
// string is the value's name in help ("--base-url URL"), as pflag's
// UnquoteUsage documents.
func (o *overrides) register(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVar(&o.baseURL, "base-url", "", "API root `URL` of an OpenAI-compatible server (with or without /v1)")
	fs.StringVarP(&o.model, "model", "m", "", "the `MODEL`: an id, or provider/model")
	fs.StringVar(&o.apiKey, "api-key", "", "the API `KEY` (prefer the provider's environment variable)")
	fs.StringVar(&o.provider, "provider", "", "provider profile `NAME` (zero providers lists them)")
	fs.BoolVar(&o.autoApprove, "auto-approve", false, "run write and shell tools without asking (the shell guard still refuses catastrophic commands)")
	fs.BoolVar(&o.noSandbox, "no-sandbox", false, "run shell commands without the OS sandbox for this run (the guard and the mode still decide what runs)")
	fs.StringVarP(&o.workdir, "cd", "C", "", "workspace `DIR` (default: the current directory)")
	fs.StringArrayVar(&o.addDirs, "add-dir", nil, "extra `DIR` the tools may write (repeatable)")
	c.MarkFlagDirname("cd")
	c.MarkFlagDirname("add-dir")
	c.RegisterFlagCompletionFunc("provider", completeProviders)
}

// registerMode adds --permission-mode. The mode is passed through as typed:
// permission.ParseMode (through run.Open) is the one place that reads it.
func registerMode(c *cobra.Command, mode *string) {
	c.Flags().StringVar(mode, "permission-mode", "", "permission `MODE`: normal (or its alias ask), auto-accept or plan")
	c.RegisterFlagCompletionFunc("permission-mode", cobra.FixedCompletions([]string{"normal", "auto-accept", "plan"}, cobra.ShellCompDirectiveNoFileComp))
}

// toolRules are --allowed-tools and --disallowed-tools: permission rules
// in Claude Code's syntax (Bash(go test:*), Edit, mcp__server), as
// Claude's --allowedTools and --disallowedTools take them (those spellings
// work too). permission.ParseToolRule (through run.Open) reads them.
type toolRules struct {
	allowed, disallowed []string
}

func (t *toolRules) register(c *cobra.Command) {
	fs := c.Flags()
	fs.StringArrayVar(&t.allowed, "allowed-tools", nil, "permission `RULES` that run without asking, e.g. \"Bash(go test:*) Edit(src/**)\" (repeatable; the shell guard and deny rules still win)")
	fs.StringArrayVar(&t.disallowed, "disallowed-tools", nil, "permission `RULES` that are always refused, e.g. \"Bash(git push:*) WebFetch\" (repeatable)")
}

// check parses every rule now, so a mistake is a usage error before any
// provider is looked for (run.Open parses them again, in one place with
// the settings files').
func (t *toolRules) check() error {
	for flag, vals := range map[string][]string{"--allowed-tools": t.allowed, "--disallowed-tools": t.disallowed} {
		for _, v := range vals {
			for _, r := range permission.SplitRuleList(v) {
				if _, err := permission.ParseToolRule(r); err != nil {
					return usagef("%s: %v", flag, err)
				}
			}
		}
	}
	return nil
}

func (t *toolRules) flags() run.ToolFlags {
	return run.ToolFlags{Allowed: t.allowed, Disallowed: t.disallowed}
}

// claudeFlagNames accepts Claude Code's spellings of zero's flags.
func claudeFlagNames(name string) string {
	switch name {
	case "allowedTools", "allowed_tools":
		return "allowed-tools"
	case "disallowedTools", "disallowed_tools":
		return "disallowed-tools"
	case "output-format": // claude -p --output-format stream-json
		return "output"
	case "input-format":
		return "input"
	}
	return name
}

// resumeFlag is --resume: bare for the latest session of the workspace,
// --resume=ID (or --resume ID: a word shaped like a session id right
// after it is the id, never the prompt) for a given one.
type resumeFlag struct {
	set bool
	id  string
}

func (r *resumeFlag) String() string { return r.id }

// Type is "bool" so that help shows a bare --resume (pflag's FlagUsages
// prints no value name for a bool whose NoOptDefVal is "true").
func (r *resumeFlag) Type() string { return "bool" }

func (r *resumeFlag) Set(v string) error {
	r.set = true
	if v != "true" {
		r.id = v
	}
	if v == "false" {
		r.set, r.id = false, ""
	}
	return nil
}

// registerResume adds --resume[=ID] to c; bare says what a bare
// --resume opens (the app picks, exec takes the latest).
func registerResume(c *cobra.Command, r *resumeFlag, bare string) {
	f := c.Flags().VarPF(r, "resume", "", bare+"; --resume ID (or --resume=ID) continues session ID: a word shaped like a session id after --resume is the id, never the prompt")
	f.NoOptDefVal = "true"
	c.RegisterFlagCompletionFunc("resume", completeSessions)
}

// sessionIDPattern matches a session id or a prefix of one long enough to
// be meant as an id ("20261130-0512…").
var sessionIDPattern = lazyregexp.New(`^\d{8}(-\d{0,6}(-[0-9a-f]{0,6})?)?$`)

// execOptions are the parsed flags of zero exec.
type execOptions struct {
	prompt string
	// piped is text piped on stdin beside a prompt, sent after it.
	piped  string
	output string
	input  string
	resume resumeFlag
	fork   string
	// restoreFiles: with fork and at, the files go back too.
	restoreFiles bool
	at           int
	atSet        bool // --at was given: 0 then is a mistake, not "the whole session"
	over         overrides
	maxTurns     int
	// maxTurnsSet: --max-turns was given (0 then is a mistake, not "the
	// default").
	maxTurnsSet bool
	quiet       bool
	permission  string
	// permissionTimeout bounds each wait for a permission_decision with
	// -i stream-json.
	permissionTimeout time.Duration
	// permissionTimeoutSet: --permission-timeout was given (it beats the
	// user config's permissionTimeout).
	permissionTimeoutSet bool
	tools                toolRules
	// images are --image paths, attached to the prompt.
	images  []string
	results resultFlags
}

// execLong is `zero exec --help`'s description.
const execLong = `Runs one task without the app and exits. The prompt is the argument, -p,
or stdin: "-" (or no prompt at all, with stdin piped) reads the prompt from
stdin. With a prompt and piped stdin, both are sent: the prompt, then the
piped text as context (cat build.log | zero exec "why does this fail?").
Piped text too large for the window (over 64 KB, or a quarter of it) is
kept whole in the session's folder and sent as its start and end, with
the file named so the model can read the rest. Reading piped stdin waits
for its end; </dev/null sends none.

Without --auto-approve (or --permission-mode auto-accept), write and shell
tool calls are refused with a reason the model reads: a headless run never
waits for a person. With -i stream-json -o stream-json, each
permission_request event is answered by a line on stdin
(docs/stream-json.md).

Exit codes: 0 completed, 1 crash, 2 usage or configuration error, 3 provider
error, 4 incomplete (max turns, stuck), 5 an MCP server marked required did
not start, 6 over --max-budget-usd, 7 every tool call denied 3 turns in a
row, 8 the answer never matched --output-schema, 130 interrupted (the
session stays resumable). The json result and stream-json's last run_end
name the same outcome in "subtype" (docs/stream-json.md).`

const execExample = `  zero exec "fix the failing test in ./parser" --auto-approve
  zero exec -o stream-json "list the TODOs"
  echo "explain main.go" | zero exec -
  cat build.log | zero exec "why does this fail?"
  zero exec --resume "and now add a test"
  zero exec --fork 20261130-051200-ab12cd "try another approach"`

// execCmd is `zero exec`: it parses the flags, then hands the run to
// execute (exec.go).
func execCmd(s stdio) *cobra.Command {
	o := &execOptions{}
	c := &cobra.Command{
		Use:     "exec [flags] [PROMPT | -]",
		Short:   "Run one task headlessly and exit",
		Long:    execLong,
		Example: execExample,
		GroupID: groupRun,
		Args:    cobra.ArbitraryArgs, // finishExec says what is wrong with them
		RunE: ran(func(c *cobra.Command, pos []string) error {
			o.maxTurnsSet = c.Flags().Changed("max-turns")
			o.atSet = c.Flags().Changed("at")
			o.permissionTimeoutSet = c.Flags().Changed("permission-timeout")
			if err := finishExec(s, o, pos); err != nil {
				return err
			}
			return execute(s, o)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	fs := c.Flags()
	fs.StringVarP(&o.prompt, "prompt", "p", "", "the task `PROMPT` (instead of the argument)")
	fs.StringVarP(&o.output, "output", "o", headless.Text, "output `FORMAT`: text (the answer on stdout, progress on stderr), json, stream-json")
	fs.StringVarP(&o.input, "input", "i", "", "input `FORMAT`: stream-json to answer permission requests on stdin")
	fs.DurationVar(&o.permissionTimeout, "permission-timeout", headless.DefaultPermissionTimeout,
		"with -i stream-json: deny a permission request no decision answers within `DURATION` (0 waits)")
	registerResume(c, &o.resume, "continue this workspace's latest session")
	fs.StringVar(&o.fork, "fork", "", "branch a new session from session `ID` and continue it")
	fs.IntVar(&o.at, "at", 0, "with --fork: start from the conversation before prompt `N` (zero sessions rewind ID lists them; files are left as they are unless --restore-files)")
	fs.BoolVar(&o.restoreFiles, "restore-files", false, "with --fork ID --at N: also put the workspace files back to before prompt N (files changed since by others are kept and listed)")
	fs.StringArrayVar(&o.images, "image", nil, "attach the image at `PATH` (PNG, JPEG, GIF, WebP) to the prompt; repeatable")
	fs.IntVar(&o.maxTurns, "max-turns", 0, "stop after `N` model requests (default from config, 200)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "text mode: no progress on stderr (so no replies the loop answered with a nudge either)")
	// claude -p wants --verbose beside --output-format stream-json
	// (https://docs.anthropic.com/en/docs/claude-code/cli-reference);
	// Zero's stream-json is whole without it, so such scripts run as is.
	fs.Bool("verbose", false, "accepted for claude -p scripts; no effect")
	fs.MarkHidden("verbose")
	registerMode(c, &o.permission)
	o.tools.register(c)
	o.results.register(c)
	o.over.register(c)
	// -p was never --print in zero exec, but `zero --print "task"` is how
	// Claude Code users spell a headless run: accept it as --prompt.
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "print" {
			name = "prompt"
		}
		return pflag.NormalizedName(claudeFlagNames(name))
	})
	c.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{headless.Text, headless.JSON, headless.StreamJSON}, cobra.ShellCompDirectiveNoFileComp))
	c.RegisterFlagCompletionFunc("input", cobra.FixedCompletions([]string{headless.StreamJSON}, cobra.ShellCompDirectiveNoFileComp))
	c.RegisterFlagCompletionFunc("fork", completeSessions)
	return c
}

// finishExec checks exec's flags and positionals once parsed and fills in
// the prompt: the argument, -p, or stdin ("-", or no prompt with stdin
// piped); with a prompt and piped stdin, the piped text follows the
// prompt as context.
func finishExec(s stdio, o *execOptions, pos []string) error {
	switch o.output {
	case headless.Text, headless.JSON, headless.StreamJSON:
	default:
		return usagef("-o must be text, json or stream-json, not %q", o.output)
	}
	if o.input != "" && o.input != headless.StreamJSON {
		return usagef("-i must be stream-json, not %q", o.input)
	}
	// `--resume ID` (the flag's value is optional, so pflag leaves ID
	// among the positionals): a session id is never sent as the prompt.
	if o.resume.set && o.resume.id == "" && len(pos) > 0 && sessionIDPattern.MatchString(pos[0]) {
		o.resume.id, pos = pos[0], pos[1:]
	}
	if o.fork != "" && strings.HasPrefix(o.fork, "-") {
		return usagef("--fork needs a session id (zero sessions lists them), got %q", o.fork)
	}
	if (o.at != 0 || o.atSet) && o.fork == "" {
		return usagef("--at needs --fork ID: it names a prompt of the forked session")
	}
	if o.at < 0 || o.atSet && o.at == 0 {
		return usagef("--at %d: prompts are numbered from 1 (zero sessions rewind %s lists them)", o.at, o.fork)
	}
	if o.restoreFiles && o.at == 0 {
		return usagef("--restore-files needs --fork ID --at N: it restores the files to before prompt N")
	}
	if o.fork != "" && o.resume.set {
		return usagef("--resume continues a session and --fork branches one: pass one of them")
	}
	if err := o.tools.check(); err != nil {
		return err
	}
	if err := o.results.check(o); err != nil {
		return err
	}
	if o.maxTurns < 0 || o.maxTurnsSet && o.maxTurns == 0 {
		return usagef("--max-turns must be a positive number of model requests, not %d", o.maxTurns)
	}
	if len(pos) > 1 {
		return usagef("exec takes one prompt; quote it (got %d arguments)", len(pos))
	}
	if len(pos) == 1 {
		if o.prompt != "" {
			return usagef("give the prompt either as an argument or with -p, not both")
		}
		o.prompt = pos[0]
	}
	piped := !s.inIsTTY && s.in != nil
	switch {
	case o.prompt == "-" || (o.prompt == "" && piped):
		b, err := io.ReadAll(s.in)
		if err != nil {
			return fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		o.prompt = string(b)
	case piped && o.input != headless.StreamJSON:
		// -i stream-json keeps stdin for permission decisions.
		b, err := io.ReadAll(s.in)
		if err != nil {
			return fmt.Errorf("reading piped stdin: %w", err)
		}
		o.piped = string(b) // the run layer adds it to the prompt (run.Session.WithInput)
	}
	if strings.TrimSpace(o.prompt) == "" {
		switch {
		case o.resume.id != "":
			return usagef("no prompt: give a prompt to continue session %s with: zero exec --resume %s \"what to do next\"", o.resume.id, o.resume.id)
		case o.fork != "":
			return usagef("no prompt: give a prompt to continue the fork of session %s with: zero exec --fork %s \"what to do next\"", o.fork, o.fork)
		}
		return usagef("no prompt: zero exec \"what to do\" (or -p, or - to read stdin)")
	}
	return nil
}

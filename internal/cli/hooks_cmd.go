package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/redact"
	"github.com/zero-agent/zero/internal/run"
)

// hooksCmd is `zero hooks list` and `zero hooks test EVENT`.
func hooksCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "hooks",
		Short: "The hooks and permission rules this folder loads (with no subcommand: list)",
		Long: `Hooks and permission rules come from settings files in Claude Code's shape,
in this order: ~/.claude/settings.json, ~/.config/zero/settings.json and the
config's "hooks" key (yours), then .claude/settings.json,
.claude/settings.local.json, .zero/settings.json, .zero/config.json's "hooks"
and .zero/hooks.json (the project's, only after zero trust).`,
		GroupID: groupSafety,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runHooksList(s) }),
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "Every hook by event, and the permission rules, with the file each came from",
		Args:  cobra.NoArgs,
		RunE:  ran(func(*cobra.Command, []string) error { return runHooksList(s) }),
	}
	var tool, input, prompt string
	test := &cobra.Command{
		Use:   "test EVENT",
		Short: "Run the hooks EVENT would fire and show what each decides",
		Long: `Runs the hooks that would fire for EVENT (PreToolUse, PostToolUse, Stop, ...)
with the input a session would send, and shows each one's exit code, time
and decision. The hooks really run: test them in a folder where that is safe.
Exits 0 when the event goes on (allowed, asked, or no hook decided), 1 when
a hook blocked it or stopped the session, so a script can check a hook.`,
		Example: `  zero hooks test PreToolUse --tool Bash --input '{"command":"rm -rf build"}'
  zero hooks test UserPromptSubmit --prompt "deploy it"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("usage: zero hooks test EVENT [--tool NAME --input JSON]")
			}
			return nil
		},
		RunE: ran(func(c *cobra.Command, args []string) error {
			return runHooksTest(c.Context(), s, args[0], tool, input, prompt)
		}),
	}
	test.Flags().StringVar(&tool, "tool", "", "the tool `NAME` (Claude's, Bash, or Zero's, bash) for tool events")
	test.Flags().StringVar(&input, "input", "{}", "the tool's arguments as `JSON` (Claude's or Zero's field names)")
	test.Flags().StringVar(&prompt, "prompt", "", "the `TEXT` of the prompt for UserPromptSubmit")
	test.ValidArgsFunction = completeHookEvents
	c.AddCommand(list, test)
	return c
}

// completeHookEvents completes `zero hooks test` with the event names.
func completeHookEvents(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, ev := range hooks.Events {
		out = append(out, string(ev))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func runHooksList(s stdio) error {
	r, err := run.ReadSetup("")
	if err != nil {
		return err
	}
	writeSetupNotes(s.out, r)
	fmt.Fprintln(s.out, "hooks:")
	if r.Hooks.Len() == 0 {
		fmt.Fprintln(s.out, "  none")
	}
	for _, ev := range hooks.Events {
		for _, h := range r.Hooks[ev] {
			fmt.Fprintf(s.out, "  %-18s %-16s %s\n", ev, matcherText(h.Matcher), h.Command)
			var extra []string
			if h.Timeout > 0 {
				extra = append(extra, "timeout "+h.Timeout.String())
			}
			if h.FailClosed {
				extra = append(extra, "onError: block")
			}
			if h.Legacy {
				extra = append(extra, "earlier format")
			}
			fmt.Fprintf(s.out, "  %-18s %-16s from %s%s\n", "", "", h.Source, parenthesized(extra))
		}
	}
	fmt.Fprintln(s.out, "permission rules (deny, then ask, then allow; see README):")
	if r.Rules.Len() == 0 {
		fmt.Fprintln(s.out, "  none")
	}
	for _, l := range []struct {
		name  string
		rules []permission.ToolRule
	}{{"deny", r.Rules.Deny}, {"ask", r.Rules.Ask}, {"allow", r.Rules.Allow}} {
		for _, rule := range l.rules {
			fmt.Fprintf(s.out, "  %-5s %-32s from %s\n", l.name, rule.Raw, rule.Source)
		}
	}
	return nil
}

func writeSetupNotes(w io.Writer, r *run.SetupReport) {
	for _, warn := range r.Warnings {
		fmt.Fprintln(w, "warning:", warn)
	}
	if len(r.Ignored) > 0 {
		fmt.Fprintln(w, ignoredText(r))
	}
}

// ignoredText says why the project's hooks and rules files r lists as
// ignored are: the folder is not trusted, or changed since it was.
func ignoredText(r *run.SetupReport) string {
	files := strings.Join(r.Ignored, ", ")
	if r.Trust.State == permission.TrustChanged {
		changed := ""
		if len(r.Trust.Changed) > 0 {
			changed = " (" + strings.Join(r.Trust.Changed, ", ") + ")"
		}
		return fmt.Sprintf("this folder changed since you trusted it%s, so its project files are ignored: %s; review them, then run `zero trust`", changed, files)
	}
	return fmt.Sprintf("this folder is not trusted, so its project files are ignored: %s; run `zero trust` to load them", files)
}

func matcherText(m string) string {
	if m == "" {
		return "(all)"
	}
	return m
}

func parenthesized(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return " (" + strings.Join(xs, ", ") + ")"
}

// runHooksTest is `zero hooks test`. What the hooks print (stderr, block
// reasons, context for the model, updated input) is masked by
// internal/redact like every other output of Zero: a hook that echoes a
// token does not put it on the screen or in a pasted bug report. The
// report is masked whole, so a private key over several lines is caught.
func runHooksTest(ctx context.Context, s stdio, evName, tool, input, prompt string) error {
	var b strings.Builder
	out := s
	out.out = &b
	err := hooksTest(ctx, out, evName, tool, input, prompt)
	masked, _ := redact.String(b.String())
	io.WriteString(s.out, masked)
	return err
}

func hooksTest(ctx context.Context, s stdio, evName, tool, input, prompt string) error {
	ev, err := hooks.ParseEvent(evName)
	if err != nil {
		return usagef("%v", err)
	}
	in := hooks.Input{Prompt: prompt, Source: "startup", Reason: "exit", Trigger: "manual", Message: "Zero needs your permission"}
	if tool != "" {
		in.Tool = hooks.ZeroName(tool)
		var obj map[string]any
		if err := json.Unmarshal([]byte(input), &obj); err != nil || obj == nil {
			why := "not an object"
			if err != nil {
				why = err.Error()
			}
			return usagef("--input must be a JSON object of the tool's arguments, e.g. '{\"command\":\"ls\"}': %s", why)
		}
		args, err := hooks.ZeroInput(in.Tool, json.RawMessage(input))
		if err != nil {
			return usagef("--input: %v", err)
		}
		in.Args = args
	} else if ev == hooks.PreToolUse || ev == hooks.PostToolUse || ev == hooks.PostToolUseFailure {
		return usagef("%s needs --tool NAME (and --input JSON)", ev)
	}
	if ev == hooks.PostToolUse || ev == hooks.PostToolUseFailure {
		in.Response = &hooks.ToolResponse{Output: "(zero hooks test: no real result)", IsError: ev == hooks.PostToolUseFailure}
	}
	r, err := run.ReadSetup("")
	if err != nil {
		return err
	}
	writeSetupNotes(s.out, r)
	runner := r.Runner()
	in.Cwd, in.SessionID, in.PermissionMode = r.Root, "zero-hooks-test", "default"
	if ctx == nil {
		ctx = context.Background()
	}
	matching := runner.Matching(ev, in)
	if len(matching) == 0 {
		fmt.Fprintf(s.out, "no %s hook matches %s\n", ev, subjectText(tool))
		return nil
	}
	res := runner.Fire(ctx, ev, in)
	for _, run := range res.Runs {
		decision := run.Decision
		if decision == "" {
			decision = "none"
		}
		fmt.Fprintf(s.out, "%s [%s] %s (from %s): exit %d in %s, decision %s\n", run.Event, matcherText(run.Matcher), run.Command, run.Source, run.ExitCode, run.Elapsed.Round(1e6), decision)
		if run.Error != "" {
			fmt.Fprintf(s.out, "  error: %s\n", run.Error)
		}
		if t := strings.TrimSpace(run.Stderr); t != "" {
			fmt.Fprintf(s.out, "  stderr: %s\n", t)
		}
	}
	if n := len(matching) - len(res.Runs); n > 0 {
		fmt.Fprintf(s.out, "%d later hook(s) did not run: the event was decided\n", n)
	}
	fmt.Fprintln(s.out, "result:", resultText(res))
	if res.Blocked || res.Stop {
		return &exitError{code: ExitFailed} // the report above says why
	}
	return nil
}

func subjectText(tool string) string {
	if tool == "" {
		return "this event"
	}
	return fmt.Sprintf("%s (Zero's %s)", hooks.ClaudeName(hooks.ZeroName(tool)), hooks.ZeroName(tool))
}

// resultText says what the event decided, as a session would act on it.
func resultText(r hooks.Result) string {
	var parts []string
	switch {
	case r.Blocked:
		parts = append(parts, "blocked: "+r.Reason)
	case r.Stop:
		parts = append(parts, "stop: "+r.StopReason)
	case r.Permission != "":
		parts = append(parts, r.Permission+trailing(r.PermissionReason))
	default:
		parts = append(parts, "goes on")
	}
	if len(r.UpdatedInput) > 0 {
		parts = append(parts, "updated input "+string(r.UpdatedInput))
	}
	for _, c := range r.Context {
		parts = append(parts, "context for the model: "+c)
	}
	return strings.Join(parts, "; ")
}

func trailing(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/permission"
)

// isolate points every file Zero reads or writes (config, trust, grants,
// sessions) into a fresh home, clears the provider environment and runs
// the test in a fresh folder, which it returns.
func isolate(t *testing.T) (home, dir string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("ZERO_SESSION_DIR", filepath.Join(home, "sessions"))
	for _, k := range []string{"ZERO_PROVIDER", "ZERO_MODEL", "ZERO_BASE_URL", "ZERO_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	dir = canonicalDir(t.TempDir())
	t.Chdir(dir)
	return home, dir
}

// result is one in-process run of the command line.
type result struct {
	code        int
	out, errOut string
}

// zero runs the command line args in process, stdin not a terminal.
func zero(args ...string) result {
	return zeroIn(stdio{}, args...)
}

// zeroIn runs args over s with its out and err captured.
func zeroIn(s stdio, args ...string) result {
	var out, errb bytes.Buffer
	s.out, s.err = &out, &errb
	code := dispatch(s, args)
	return result{code, out.String(), errb.String()}
}

// commandPaths lists every command a user can call, as the words after
// zero ("" is zero itself), help and completion's shells included.
func commandPaths() [][]string {
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		out = append(out, path)
		for _, sub := range c.Commands() {
			if !sub.Hidden {
				walk(sub, append(slices.Clip(path), sub.Name()))
			}
		}
	}
	root := newRoot(stdio{})
	root.InitDefaultHelpCmd()
	walk(root, nil)
	return out
}

// TestHelpFlagOnEveryCommand: -h and --help print the command's usage on
// stdout and exit 0 on every command and subcommand; nothing runs.
func TestHelpFlagOnEveryCommand(t *testing.T) {
	isolate(t)
	paths := commandPaths()
	if len(paths) < 25 {
		t.Fatalf("only %d commands in the tree: %q", len(paths), paths)
	}
	for _, path := range paths {
		for _, h := range []string{"-h", "--help"} {
			r := zero(append(slices.Clip(path), h)...)
			name := strings.Join(append([]string{"zero"}, path...), " ")
			if r.code != ExitOK || r.errOut != "" {
				t.Errorf("%s %s: exit %d, stderr %q", name, h, r.code, r.errOut)
			}
			if !strings.Contains(r.out, "Usage:\n  "+name) {
				t.Errorf("%s %s printed no usage:\n%s", name, h, r.out)
			}
		}
	}
}

// TestHelpCommand: `zero help CMD` prints what `zero CMD --help` does;
// an unknown CMD is a usage error with a suggestion.
func TestHelpCommand(t *testing.T) {
	isolate(t)
	for _, path := range [][]string{{"exec"}, {"providers", "add"}, {"rules", "why"}, {}} {
		help, flag := zero(append([]string{"help"}, path...)...), zero(append(slices.Clip(path), "--help")...)
		if help.code != ExitOK || help.out != flag.out || help.out == "" {
			t.Errorf("zero help %q: exit %d\n%s\nwant what --help prints:\n%s", path, help.code, help.out, flag.out)
		}
	}
	exec := zero("help", "exec")
	for _, want := range []string{"zero exec [flags] [PROMPT | -]", "-p, --prompt PROMPT", "-o, --output FORMAT", "-q, --quiet", "-C, --cd DIR", "-m, --model MODEL", "--permission-mode MODE", "Exit codes:"} {
		if !strings.Contains(exec.out, want) {
			t.Errorf("zero help exec lacks %q:\n%s", want, exec.out)
		}
	}
	r := zero("help", "exce")
	if r.code != ExitUsage || !strings.Contains(r.errOut, "Did you mean this?\n\texec") {
		t.Errorf("zero help exce: exit %d, stderr %q", r.code, r.errOut)
	}
}

// TestUnknownCommandSuggests: an unknown command or subcommand exits 2
// with a suggestion and runs nothing; a command that takes no arguments
// refuses them (`zero sessions rewnid X` used to list sessions and exit 0).
func TestUnknownCommandSuggests(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sessoins"}, "Did you mean this?\n\tsessions"},
		{[]string{"hlp"}, "\n\thelp\n"}, // cobra leaves its help command out of suggestions
		{[]string{"providers", "lst"}, "Did you mean this?\n\tlist"},
		{[]string{"rules", "wyh"}, "Did you mean this?\n\twhy"},
		{[]string{"completion", "zhs"}, "Did you mean this?\n\tzsh"},
		{[]string{"sessions", "rewnid", "X"}, `unknown command "rewnid" for "zero sessions"`},
		{[]string{"fix", "the", "bug"}, `to send a prompt, quote it: zero "fix the bug"`},
		{[]string{"exec", "--bogus", "x"}, "unknown flag: --bogus\nRun 'zero exec --help' for usage."},
	} {
		r := zero(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tc.want) || r.out != "" {
			t.Errorf("zero %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, r.code, r.out, r.errOut, tc.want)
		}
	}
}

// TestPromptWordsReachTheApp: a quoted prompt, or any words after "--",
// start the app with that prompt (here refused: stdin is no terminal,
// which proves the words were taken as a prompt, not as a command).
func TestPromptWordsReachTheApp(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"explain the build"}, {"--", "test"}, {"--auto-approve", "hello"}} {
		r := zero(args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, "the interactive app needs a terminal") {
			t.Errorf("zero %q: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
}

// TestTrustHelpDoesNotTrust: `zero trust -h` prints help; it used to trust
// a folder named "-h".
func TestTrustHelpDoesNotTrust(t *testing.T) {
	_, dir := isolate(t)
	for _, h := range []string{"-h", "--help"} {
		if r := zero("trust", h); r.code != ExitOK || !strings.Contains(r.out, "zero trust [DIR]") {
			t.Fatalf("zero trust %s: exit %d\n%s%s", h, r.code, r.out, r.errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(config.Dir(), permission.TrustFile)); !os.IsNotExist(err) {
		t.Fatalf("zero trust -h wrote the trust file (stat: %v)", err)
	}
	if r := zero("trust"); r.code != ExitOK || !strings.Contains(r.out, "trusted "+dir) {
		t.Fatalf("zero trust: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if state, _ := permission.TrustState(config.Dir(), dir); state != permission.TrustOK {
		t.Fatalf("after zero trust the folder is %v", state)
	}
}

// TestCompletionScripts: `zero completion SHELL` writes that shell's
// script; the script's completions come from `zero __complete`.
func TestCompletionScripts(t *testing.T) {
	isolate(t)
	for shell, want := range map[string]string{
		"bash":       "# bash completion V2 for zero",
		"zsh":        "#compdef zero",
		"fish":       "complete -c zero",
		"powershell": "Register-ArgumentCompleter",
	} {
		r := zero("completion", shell)
		if r.code != ExitOK || !strings.Contains(r.out, want) || !strings.Contains(r.out, "__complete") {
			t.Errorf("zero completion %s: exit %d, stderr %q, script lacks %q", shell, r.code, r.errOut, want)
		}
	}
	r := zero("__complete", "exec", "--permission-mode", "")
	if r.code != ExitOK || !strings.HasPrefix(r.out, "normal\nauto-accept\nplan\n") {
		t.Errorf("completing --permission-mode: exit %d\n%s", r.code, r.out)
	}
	r = zero("__complete", "pro")
	if !strings.HasPrefix(r.out, "providers\t") {
		t.Errorf("completing a command: %q", r.out)
	}
	r = zero("__complete", "hooks", "test", "")
	if !strings.HasPrefix(r.out, "SessionStart\nUserPromptSubmit\nPreToolUse\n") {
		t.Errorf("completing hooks test: %q", r.out)
	}
	writeFile(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "skills", "greet", "SKILL.md"), "---\nname: greet\ndescription: Greets the user\n---\nSay hello.\n")
	r = zero("__complete", "skills", "show", "")
	if !strings.Contains(r.out, "greet\tGreets the user\n") {
		t.Errorf("completing skills show: %q", r.out)
	}
}

// TestVersion: --version, -v and `zero version` print "zero VERSION".
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		if r := zero(args...); r.code != ExitOK || r.out != "zero "+Version+"\n" {
			t.Errorf("zero %q: exit %d %q", args, r.code, r.out)
		}
	}
}

// TestSingleDashLongFlags: long flags spelled with one dash (as the
// standard flag package took them before) still parse; "--" ends the
// rewriting, and short flags are left alone.
func TestSingleDashLongFlags(t *testing.T) {
	root := newRoot(stdio{})
	got := singleDashLong(root, []string{"exec", "-auto-approve", "-model=m", "-print", "x", "-q", "-C", "dir", "-ojson", "--", "-fork"})
	want := []string{"exec", "--auto-approve", "--model=m", "--print", "x", "-q", "-C", "dir", "-ojson", "--", "-fork"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestHeadlessShortcut: `zero -p PROMPT` (or --prompt, --print) is
// `zero exec -p PROMPT`, also after other flags.
func TestHeadlessShortcut(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"-p", "task"}, []string{"exec", "-p", "task"}},
		{[]string{"--print", "task", "-q"}, []string{"exec", "--print", "task", "-q"}},
		{[]string{"--prompt=task"}, []string{"exec", "--prompt=task"}},
		{[]string{"-provider", "x"}, []string{"-provider", "x"}}, // a long flag with one dash, not -p
		{[]string{"sessions", "-p"}, []string{"sessions", "-p"}},
		{[]string{"--provider", "x"}, []string{"--provider", "x"}},
		{[]string{"-m", "qwen", "-p", "task"}, []string{"exec", "-m", "qwen", "-p", "task"}},
		{[]string{"--auto-approve", "--", "-p"}, []string{"--auto-approve", "--", "-p"}}, // a prompt after --
		{nil, nil},
	} {
		if got := headlessShortcut(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q → %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFlagValueErrorsSayWhatTheFlagTakes: a number flag given a word
// says what it takes, not the parser's error, and exits 2 pointing at
// the command's help.
func TestFlagValueErrorsSayWhatTheFlagTakes(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--max-turns", "abc", "hi"}, `zero: --max-turns takes a whole number, not "abc"` + "\nRun 'zero exec --help' for usage."},
		{[]string{"scan", "--ports", "11434,x"}, `zero: --ports takes whole numbers separated by commas, not "11434,x"` + "\nRun 'zero scan --help' for usage."},
	} {
		r := zero(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tc.want) || strings.Contains(r.errOut, "strconv") {
			t.Errorf("zero %q: exit %d\n%s", tc.args, r.code, r.errOut)
		}
	}
}

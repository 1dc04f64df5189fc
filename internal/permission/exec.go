package permission

import (
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/shellguard"
)

// Shell tools name their command "command" (bash) or "cmd"
// (exec_command, Codex's name); shellCommand is the one reader of it and
// returns the key the call used ("command" when neither is set).
func shellCommand(args map[string]any) (key, cmd string) {
	if c, ok := args["cmd"].(string); ok {
		if _, both := args["command"]; !both {
			return "cmd", c
		}
	}
	c, _ := args["command"].(string)
	return "command", c
}

// workdir is where a shell call runs: its "workdir" argument resolved in
// the workspace (the guard resolves relative paths against it), or ""
// for the workspace root. A directory outside every root is refused: the
// guard could not judge the command's paths there.
func (e *Engine) workdir(name string, args map[string]any) (string, Verdict, bool) {
	dir, _ := args["workdir"].(string)
	if strings.TrimSpace(dir) == "" {
		return "", Verdict{}, true
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(e.ws.Root(), dir)
	}
	abs, inside, err := e.resolve(dir, true)
	if err != nil || !inside {
		return "", Verdict{Action: Deny, Reason: name + ": workdir " + dir + " is not inside the workspace", Rule: RuleBadArguments}, false
	}
	return abs, Verdict{}, true
}

// decideStdin decides write_stdin: the text goes to a process an
// exec_command call already approved, so it runs in every mode but plan,
// except text the guard refuses in every mode (typed into a shell it
// would run as a command).
func (e *Engine) decideStdin(name string, args map[string]any, mode Mode) Verdict {
	if mode == ModePlan {
		return planDeny(name)
	}
	chars, _ := args["chars"].(string)
	opts := shellguard.Options{Workspace: e.ws.Root(), Home: e.home, Roots: e.ws.Roots()[1:]}
	for _, line := range strings.Split(chars, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if v := shellguard.Check(line, opts); v.Verdict == shellguard.Deny {
			return Verdict{Action: Deny, Reason: "refused in every mode: " + v.Reason, Rule: v.Rule}
		}
	}
	return Verdict{Action: Allow, Reason: "input to a process an approved exec_command started", Rule: RuleStdin}
}

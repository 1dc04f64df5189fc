package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/shellguard"
)

// ShellOutcome is the result of a user's `!cmd`.
type ShellOutcome struct {
	// Output is combined stdout and stderr, secrets masked.
	Output   string
	ExitCode *int
	Elapsed  time.Duration
	// Denied is non-empty when the guard refused the command (its hard
	// deny holds even for the user's own commands); it says why.
	Denied string
	// Interrupted: ctx ended the command; its process group was killed.
	Interrupted bool
	// Err is a failure to start the command.
	Err error
}

// Shell runs the user's own command line (`!cmd` in the app): outside the
// sandbox, with the user's environment, refused only by the guard's hard
// deny. It is recorded in the session log as a user_shell event, and the
// next prompt carries the command and its output (capped as a tool result
// is) so the model sees what the user saw, as in Claude Code's bash mode.
func (s *Session) Shell(ctx context.Context, command string) ShellOutcome {
	t := s.rt.userShell
	if t == nil {
		return ShellOutcome{Err: errors.New("no shell tool")}
	}
	ws := s.rt.Workspace
	home, _ := os.UserHomeDir()
	if v := shellguard.Check(command, shellguard.Options{Workspace: ws.Root(), Roots: ws.Roots()[1:], Home: home}); v.Verdict == shellguard.Deny {
		return ShellOutcome{Denied: fmt.Sprintf("%s (rule %s)", v.Reason, v.Rule)}
	}
	args, _ := json.Marshal(map[string]string{"command": command})
	start := time.Now()
	res, err := t.Run(ctx, args)
	res.Content = redactSecrets(res.Content)
	out := ShellOutcome{Output: res.Content, ExitCode: res.ExitCode, Elapsed: time.Since(start), Err: err}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Interrupted (Esc, Ctrl+C): not a failure to start.
		out.Err, out.Interrupted = nil, true
		if !strings.Contains(res.Content, "[interrupted") {
			out.Output = res.Content + "[interrupted]\n"
		}
	}
	s.chain.Emit(event.Event{Type: event.UserShell, Text: command,
		Result: &event.ToolOutcome{Name: t.Name(), Content: out.Output, IsError: res.IsError, ExitCode: res.ExitCode, RawBytes: len(out.Output), KeptBytes: len(out.Output), ElapsedMs: out.Elapsed.Milliseconds()}})
	if out.Err == nil {
		s.noteShell(command, out)
	}
	return out
}

// noteShell keeps a `!cmd` and its output for the next prompt, capped like
// a tool result (the whole output is spilled to the session directory).
func (s *Session) noteShell(command string, out ShellOutcome) {
	status := "interrupted"
	if !out.Interrupted && out.ExitCode != nil {
		status = fmt.Sprintf("exit %d", *out.ExitCode)
	}
	kept, err := s.agent.CapOutput(fmt.Sprintf("user_shell_%d", time.Now().UnixNano()), out.Output)
	if err != nil {
		s.chain.Emit(event.Event{Type: event.Warning, Text: "the whole output of !" + command + " could not be saved: " + err.Error()})
	}
	note := fmt.Sprintf("I ran this shell command myself (%s):\n$ %s\n%s", status, command, strings.TrimRight(kept, "\n"))
	s.mu.Lock()
	s.shellNotes = append(s.shellNotes, note)
	s.mu.Unlock()
}

// takeShellNotes returns the pending `!cmd` notes, to follow the next
// prompt in its user message (run_start keeps the prompt alone), and
// clears them.
func (s *Session) takeShellNotes() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.shellNotes) == 0 {
		return ""
	}
	out := "\n\n" + strings.Join(s.shellNotes, "\n\n")
	s.shellNotes = nil
	return out
}

// requeueShell carries over, on resume, the `!cmd`s the user ran after
// the session's last prompt: their outputs had not reached the model yet
// when the app exited.
func (s *Session) requeueShell() {
	if s.log.Meta().ShellCommands == 0 {
		return // nothing to look for: no need to read the log again
	}
	evs, _, err := s.log.Events()
	if err != nil {
		return
	}
	start := 0
	for i, e := range evs {
		if e.Type == event.Message && e.Message != nil && e.Message.Role == llm.RoleUser {
			start = i + 1
		}
	}
	for _, e := range evs[start:] {
		if e.Type == event.UserShell && e.Result != nil {
			s.noteShell(e.Text, ShellOutcome{Output: e.Result.Content, ExitCode: e.Result.ExitCode})
		}
	}
}

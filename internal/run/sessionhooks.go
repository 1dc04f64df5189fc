package run

import (
	"context"
	"errors"
	"strings"

	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/permission"
)

// The session's hook events besides the tool ones (hooks.go): where each
// fires and what its answer does. None fires for a nested sub-agent run
// (Session.nested): its parent's session, prompt, Stop and Notification
// hooks already cover the turn, and SubagentStop marks its end
// (https://docs.claude.com/en/docs/claude-code/hooks, "SubagentStop").

// sessionStart fires SessionStart (source startup, or resume for a
// resumed or forked session): a block or continue: false refuses to open
// the session; context goes to the model with the first prompt.
func (s *Session) sessionStart(w Which) error {
	if s.nested {
		return nil
	}
	source := "startup"
	if w.Latest || w.ID != "" || w.Fork != "" {
		source = "resume"
	}
	res := s.hooks.Fire(context.Background(), hooks.SessionStart, hooks.Input{Source: source})
	switch {
	case res.Blocked:
		return configErrorf("a SessionStart hook refused to start: %s", res.Reason)
	case res.Stop:
		return configErrorf("a SessionStart hook refused to start: %s", res.StopReason)
	}
	s.addHookContext(hooks.SessionStart, res.Context)
	return nil
}

func (s *Session) addHookContext(ev hooks.Event, ctx []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range ctx {
		s.shellNotes = append(s.shellNotes, "["+string(ev)+" hook context]\n"+c)
	}
}

// userPromptSubmit fires UserPromptSubmit: a block or continue: false
// keeps the prompt from the model (an error the surface shows); context
// follows the prompt.
func (s *Session) userPromptSubmit(ctx context.Context, prompt string) (string, error) {
	if s.nested {
		return prompt, nil
	}
	res := s.hooks.Fire(ctx, hooks.UserPromptSubmit, hooks.Input{Prompt: prompt})
	switch {
	case res.Blocked:
		return "", errors.New("a UserPromptSubmit hook blocked the prompt: " + res.Reason)
	case res.Stop:
		return "", errors.New("a UserPromptSubmit hook stopped the prompt: " + res.StopReason)
	}
	if len(res.Context) > 0 {
		prompt += "\n\n[UserPromptSubmit hook context]\n" + strings.Join(res.Context, "\n\n")
	}
	return prompt, nil
}

// onStop fires Stop when the model gives its final answer: a block
// (exit 2 or decision: block) sends its reason to the model and the run
// goes on.
func (s *Session) onStop(ctx context.Context, active bool, final string) string {
	if s.nested {
		if s.subagentStopHook == nil {
			return ""
		}
		return s.subagentStopHook(ctx, active, final)
	}
	res := s.hooks.Fire(ctx, hooks.Stop, hooks.Input{StopHookActive: active})
	if res.Blocked && !res.Stop {
		return "A Stop hook asks you to continue before finishing: " + res.Reason
	}
	return ""
}

// beforeCompact fires PreCompact (trigger manual or auto); its answer
// cannot stop the compaction, which the window needs.
func (s *Session) beforeCompact(ctx context.Context, trigger string) {
	s.hooks.Fire(ctx, hooks.PreCompact, hooks.Input{Trigger: trigger})
}

// notifying fires Notification each time Zero waits for the user to
// answer a permission request, then asks.
func (s *Session) notifying(ask permission.Asker) permission.Asker {
	if ask == nil || s.nested || s.hooks == nil || s.hooks.runner == nil {
		return ask
	}
	return func(ctx context.Context, req permission.Request) permission.Decision {
		s.hooks.Fire(ctx, hooks.Notification, hooks.Input{Message: "Zero needs your permission to use " + hooks.ClaudeName(req.Tool)})
		return ask(ctx, req)
	}
}

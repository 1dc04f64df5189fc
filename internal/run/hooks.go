package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/tools"
)

// HookRunner fires configured hooks with the session's facts and records
// every run as a hook event in the session's sink chain (the session log
// is the audit trail; stream-json shows them too). A nil HookRunner, or
// one without hooks, does nothing.
type HookRunner struct {
	runner     *hooks.Runner
	audit      event.Sink
	sessID     string
	transcript string
	engine     *permission.Engine

	// pending links a call PreToolUse saw to its result: its id (for
	// PostToolUse's tool_use_id) and the additionalContext the model
	// reads with the result. Keyed by tool name and arguments, as the
	// tool runs them.
	mu      sync.Mutex
	pending map[string]pendingCall
	// halt is a tool hook's continue: false, until the loop asks.
	halt string
	// warned are the hooks whose failure was already said (once each).
	warned map[string]bool
}

// failedOpen says, once per hook, that a hook failed and the action went
// on: a hook that never works must not look like one that approves.
func (h *HookRunner) failedOpen(r hooks.Run) string {
	if r.Decision == "block" || r.Error == "" && (r.ExitCode == 0 || r.ExitCode == hooks.BlockExit) {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := r.Source + "\x00" + r.Command
	if h.warned[key] {
		return ""
	}
	if h.warned == nil {
		h.warned = map[string]bool{}
	}
	h.warned[key] = true
	why := r.Error
	if why == "" {
		why = fmt.Sprintf("exit %d", r.ExitCode)
		if r.ExitCode == 127 {
			why += ", command not found"
		}
		if line := strings.TrimSpace(r.Stderr); line != "" {
			why += ": " + strings.SplitN(line, "\n", 2)[0]
		}
	}
	return fmt.Sprintf("the %s hook %q (%s) failed (%s) and did nothing; add \"onError\": \"block\" to make it fail closed", r.Event, r.Command, r.Source, why)
}

// setHalt records a tool hook's continue: false for Halted.
func (h *HookRunner) setHalt(ev hooks.Event, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.halt == "" {
		h.halt = "a " + string(ev) + " hook stopped the run: " + reason
	}
}

// Halted implements agent.Options.Halted: the reason a tool hook stopped
// the run, once.
func (h *HookRunner) Halted() string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	why := h.halt
	h.halt = ""
	return why
}

type pendingCall struct {
	id      string
	context []string
}

// maxPending bounds pending: calls the engine denied after their hook ran
// never take their entry.
const maxPending = 256

func (h *HookRunner) remember(tool, args, id string, ctx []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil || len(h.pending) >= maxPending {
		h.pending = map[string]pendingCall{}
	}
	h.pending[tool+"\x00"+args] = pendingCall{id: id, context: ctx}
}

func (h *HookRunner) take(tool, args string) pendingCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := tool + "\x00" + args
	p := h.pending[key]
	delete(h.pending, key)
	return p
}

// Fire runs the hooks of ev for in (the session's id, transcript, folder
// and mode filled in) and returns what they decided.
func (h *HookRunner) Fire(ctx context.Context, ev hooks.Event, in hooks.Input) hooks.Result {
	if h == nil || h.runner == nil || len(h.runner.Config[ev]) == 0 {
		return hooks.Result{}
	}
	in.SessionID, in.TranscriptPath, in.Cwd = h.sessID, h.transcript, h.runner.Dir
	if h.engine != nil {
		in.PermissionMode = claudeMode(h.engine.Mode())
	}
	res := h.runner.Fire(ctx, ev, in)
	maskHookResult(&res)
	if h.audit != nil {
		for _, r := range res.Runs {
			e := event.Event{Type: event.Hook, HookRun: hookRunEvent(r, in.Tool)}
			if r.Decision == "block" {
				e.Text = res.Reason
			}
			h.audit.Emit(e)
			if w := h.failedOpen(r); w != "" {
				h.audit.Emit(event.Event{Type: event.Warning, Text: w})
			}
		}
		for _, m := range res.Messages {
			h.audit.Emit(event.Event{Type: event.Warning, Text: "a " + string(ev) + " hook says: " + m})
		}
	}
	return res
}

// maskHookResult masks secrets in what hooks printed (a block's reason,
// additionalContext, systemMessage, the audited stdout and stderr) before
// the model, the screen or the session log sees it, as tool output is.
func maskHookResult(res *hooks.Result) {
	res.Reason = redactSecrets(res.Reason)
	res.PermissionReason = redactSecrets(res.PermissionReason)
	res.StopReason = redactSecrets(res.StopReason)
	for i := range res.Context {
		res.Context[i] = redactSecrets(res.Context[i])
	}
	for i := range res.Messages {
		res.Messages[i] = redactSecrets(res.Messages[i])
	}
	for i := range res.Runs {
		r := &res.Runs[i]
		r.Stdout, r.Stderr, r.Error = redactSecrets(r.Stdout), redactSecrets(r.Stderr), redactSecrets(r.Error)
	}
}

func hookRunEvent(r hooks.Run, tool string) *event.HookRun {
	return &event.HookRun{Event: string(r.Event), Matcher: r.Matcher, Command: r.Command, Source: r.Source, Tool: tool,
		ExitCode: r.ExitCode, ElapsedMs: r.Elapsed.Milliseconds(), Blocked: r.Decision == "block", TimedOut: r.TimedOut,
		Stderr: r.Stderr, Error: r.Error, Decision: r.Decision}
}

// claudeMode is Zero's permission mode in Claude Code's names
// (permission_mode on a hook's stdin).
func claudeMode(m permission.Mode) string {
	switch m {
	case permission.ModePlan:
		return "plan"
	case permission.ModeAutoAccept:
		return "acceptEdits"
	}
	return "default"
}

// PreToolUse implements permission.Hooks.
func (h *HookRunner) PreToolUse(ctx context.Context, call llm.ToolCall) permission.HookVerdict {
	if h == nil || h.runner == nil {
		return permission.HookVerdict{}
	}
	res := h.Fire(ctx, hooks.PreToolUse, hooks.Input{Tool: call.Name, Args: json.RawMessage(argsOrEmpty(call.Arguments)), ToolUseID: call.ID})
	defer func(args string) { h.remember(call.Name, args, call.ID, res.Context) }(call.Arguments)
	switch {
	case res.Blocked:
		return permission.HookVerdict{Decision: permission.Deny, Reason: res.Reason}
	case res.Stop:
		h.setHalt(hooks.PreToolUse, res.StopReason)
		return permission.HookVerdict{Decision: permission.Deny, Reason: "a PreToolUse hook stopped the run: " + res.StopReason}
	}
	v := permission.HookVerdict{Reason: res.PermissionReason}
	switch res.Permission {
	case "allow":
		v.Decision = permission.Allow
	case "ask":
		v.Decision = permission.Ask
	}
	if len(res.UpdatedInput) > 0 {
		if args, err := hooks.ZeroInput(call.Name, res.UpdatedInput); err == nil {
			v.Arguments = string(args)
			h.remember(call.Name, v.Arguments, call.ID, res.Context)
		} else {
			return permission.HookVerdict{Decision: permission.Deny, Reason: "a PreToolUse hook returned an updatedInput that is not a JSON object"}
		}
	}
	return v
}

// PostTool fires PostToolUse (PostToolUseFailure for a failed call) and
// returns the text the model reads after the result: the PreToolUse
// hooks' additionalContext, a PostToolUse hook's block reason (exit 2 or
// decision: block) and its additionalContext.
func (h *HookRunner) PostTool(ctx context.Context, tool string, args json.RawMessage, res tools.Result) string {
	if h == nil || h.runner == nil {
		return ""
	}
	pre := h.take(tool, string(args))
	ev := hooks.PostToolUse
	if res.IsError {
		ev = hooks.PostToolUseFailure
	}
	r := h.Fire(ctx, ev, hooks.Input{Tool: tool, Args: args, ToolUseID: pre.id,
		Response: &hooks.ToolResponse{Output: res.Content, IsError: res.IsError, ExitCode: res.ExitCode}})
	if r.Stop {
		h.setHalt(ev, r.StopReason)
	}
	var notes []string
	for _, c := range pre.context {
		notes = append(notes, "[PreToolUse hook context] "+c)
	}
	if r.Blocked {
		notes = append(notes, "["+string(ev)+" hook] "+r.Reason)
	}
	for _, c := range r.Context {
		notes = append(notes, "["+string(ev)+" hook context] "+c)
	}
	return strings.Join(notes, "\n")
}

func argsOrEmpty(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/tools"
)

// Input is what Zero knows about the moment a hook fires; each hook gets
// it as Claude's JSON (or, for a hook in the earlier format, as the
// earlier payload).
type Input struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	// Tool is Zero's tool name and Args its arguments, for tool events.
	Tool      string
	Args      json.RawMessage
	ToolUseID string
	// Response is the finished call, for PostToolUse(Failure).
	Response *ToolResponse
	// Prompt for UserPromptSubmit; StopHookActive for Stop (the run goes
	// on because a Stop hook said so before).
	Prompt         string
	StopHookActive bool
	// Source (SessionStart: startup, resume), Reason (SessionEnd), Trigger
	// (PreCompact: manual, auto), Message (Notification).
	Source, Reason, Trigger, Message string
	// For SubagentStop, as Claude Code's input: the sub-agent's session
	// (AgentID, AgentTranscriptPath), its name (AgentType, what the
	// matcher is tried against) and its final answer (LastMessage).
	AgentID, AgentType, AgentTranscriptPath, LastMessage string
}

// ToolResponse is a finished call as hooks see it.
type ToolResponse struct {
	Output   string `json:"output"`
	IsError  bool   `json:"is_error,omitempty"`
	ExitCode *int   `json:"exit_code,omitempty"`
}

// subjects are what the event's matchers are tried against.
func (in Input) subjects(ev Event) []string {
	switch ev {
	case PreToolUse, PostToolUse, PostToolUseFailure:
		return matchNames(in.Tool)
	case SessionStart:
		return []string{in.Source}
	case SessionEnd:
		return []string{in.Reason}
	case PreCompact:
		return []string{in.Trigger}
	case Notification:
		return []string{"permission_prompt"}
	case SubagentStop:
		return []string{in.AgentType}
	}
	return nil
}

// claudeJSON is the stdin of a settings-shape hook.
func (in Input) claudeJSON(ev Event) ([]byte, error) {
	m := map[string]any{"session_id": in.SessionID, "transcript_path": in.TranscriptPath, "cwd": in.Cwd,
		"hook_event_name": ev}
	if in.PermissionMode != "" {
		m["permission_mode"] = in.PermissionMode
	}
	if toolEvent(ev) {
		m["tool_name"] = ClaudeName(in.Tool)
		m["tool_input"] = ClaudeInput(in.Tool, rawOrEmpty(in.Args), tools.PatchPaths)
		if in.ToolUseID != "" {
			m["tool_use_id"] = in.ToolUseID
		}
		if in.Response != nil {
			m["tool_response"] = in.Response
			if in.Response.IsError {
				m["error"] = in.Response.Output
			}
		}
	}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	switch ev {
	case UserPromptSubmit:
		m["prompt"] = in.Prompt
	case Stop:
		m["stop_hook_active"] = in.StopHookActive
	case SubagentStop:
		m["stop_hook_active"] = in.StopHookActive
		set("agent_id", in.AgentID)
		set("agent_type", in.AgentType)
		set("agent_transcript_path", in.AgentTranscriptPath)
		set("last_assistant_message", in.LastMessage)
	case SessionStart:
		set("source", in.Source)
	case SessionEnd:
		set("reason", in.Reason)
	case PreCompact:
		set("trigger", in.Trigger)
		m["custom_instructions"] = ""
	case Notification:
		set("message", in.Message)
	}
	return json.Marshal(m)
}

// legacyJSON is the stdin of a hook in Zero's earlier format.
func (in Input) legacyJSON(ev Event) ([]byte, error) {
	names := map[Event]string{PreToolUse: "beforeTool", PostToolUse: "afterTool", SessionStart: "sessionStart", SessionEnd: "sessionEnd"}
	p := map[string]any{"event": names[ev], "sessionId": in.SessionID, "cwd": in.Cwd}
	if toolEvent(ev) {
		p["tool"], p["arguments"] = in.Tool, rawOrEmpty(in.Args)
		if r := in.Response; r != nil {
			p["result"] = map[string]any{"content": r.Output, "isError": r.IsError, "exitCode": r.ExitCode}
		}
	}
	return json.Marshal(p)
}

func rawOrEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return json.RawMessage(`{}`)
	}
	return b
}

// Run records one hook run for the session log and stream-json.
type Run struct {
	Event    Event
	Matcher  string
	Command  string
	Source   string
	ExitCode int
	Stdout   string
	Stderr   string
	Elapsed  time.Duration
	TimedOut bool
	// Decision is what the run decided: block, deny, ask, allow, stop,
	// context, or "" (nothing).
	Decision string
	// Error says why the hook could not run or failed (not a block).
	Error string
}

// Result folds the runs of one event.
type Result struct {
	// Blocked: exit 2, decision "block", permissionDecision "deny", or
	// a failed hook marked onError: block. Reason is for the model.
	Blocked bool
	Reason  string
	// Permission is a PreToolUse hook's "allow" or "ask" ("" none).
	Permission       string
	PermissionReason string
	// UpdatedInput is a PreToolUse hook's replacement arguments, in
	// Zero's field names.
	UpdatedInput json.RawMessage
	// Context is additionalContext (and, for UserPromptSubmit and
	// SessionStart, plain stdout) for the model.
	Context []string
	// Stop: a hook answered continue: false; StopReason is for the user.
	Stop       bool
	StopReason string
	// Messages are systemMessage texts for the user.
	Messages []string
	Runs     []Run
}

// Runner runs hooks.
type Runner struct {
	Config Config
	// Dir is where hooks run (the workspace root); CLAUDE_PROJECT_DIR and
	// ZERO_PROJECT_DIR name it.
	Dir string
	// Env replaces the inherited environment when non-nil.
	Env []string
	// Wrap, when set, wraps each hook command (the shell sandbox).
	Wrap func(*exec.Cmd) error
}

// outputCap bounds the stdout/stderr kept per run, in bytes.
const outputCap = 16 << 10

// Matching returns the hooks of ev that fire for in.
func (r *Runner) Matching(ev Event, in Input) []Hook {
	var out []Hook
	subj := in.subjects(ev)
	for _, h := range r.Config[ev] {
		if h.Matches(subj...) {
			out = append(out, h)
		}
	}
	return out
}

// Fire runs the hooks of ev that match in, in order, and folds their
// answers; the first block or stop ends the event (later hooks do not
// run). ctx cancels every hook.
func (r *Runner) Fire(ctx context.Context, ev Event, in Input) Result {
	var res Result
	if r == nil {
		return res
	}
	for _, h := range r.Matching(ev, in) {
		run, out := r.runOne(ctx, h, in)
		res.fold(h, &run, out)
		res.Runs = append(res.Runs, run)
		if res.Blocked || res.Stop {
			break
		}
	}
	return res
}

// fold adds one run's answer to res and records on run what it decided.
func (res *Result) fold(h Hook, run *Run, out *output) {
	failed := run.Error != "" || run.TimedOut || (run.ExitCode != 0 && run.ExitCode != BlockExit)
	if out == nil && run.ExitCode == 0 && strings.HasPrefix(strings.TrimSpace(run.Stdout), "{") && !h.Legacy {
		failed, run.Error = true, "its JSON output does not parse"
	}
	if failed {
		if h.FailClosed {
			why := run.Error
			if why == "" {
				why = fmt.Sprintf("exit %d: %s", run.ExitCode, firstLine(run.Stderr))
			}
			res.block(run, fmt.Sprintf("hook %q failed (%s) and is marked onError: block, so this is blocked", h.Command, why))
		}
		return
	}
	if run.ExitCode == BlockExit {
		if h.Legacy && h.Event != PreToolUse {
			return
		}
		reason := strings.TrimSpace(run.Stderr)
		if reason == "" {
			reason = "blocked by hook: " + h.Command
		}
		res.block(run, reason)
		return
	}
	if h.Legacy {
		return
	}
	if out == nil {
		if t := strings.TrimSpace(run.Stdout); t != "" && (h.Event == UserPromptSubmit || h.Event == SessionStart) {
			res.Context = append(res.Context, t)
			run.Decision = "context"
		}
		return
	}
	res.apply(h, run, out)
}

func (res *Result) apply(h Hook, run *Run, out *output) {
	if out.SystemMessage != "" {
		res.Messages = append(res.Messages, out.SystemMessage)
	}
	if out.Continue != nil && !*out.Continue {
		res.Stop, res.StopReason, run.Decision = true, out.StopReason, "stop"
		if res.StopReason == "" {
			res.StopReason = "a " + string(h.Event) + " hook stopped the run: " + h.Command
		}
		return
	}
	hso := out.HookSpecificOutput
	decision, reason := out.Decision, out.Reason
	if hso != nil && hso.PermissionDecision != "" {
		decision, reason = hso.PermissionDecision, hso.PermissionDecisionReason
	}
	switch decision {
	case "block", "deny":
		if reason == "" {
			reason = "blocked by hook: " + h.Command
		}
		res.block(run, reason)
		return
	case "approve", "allow":
		if res.Permission == "" {
			res.Permission, res.PermissionReason, run.Decision = "allow", reason, "allow"
		}
	case "ask":
		res.Permission, res.PermissionReason, run.Decision = "ask", reason, "ask"
	}
	if hso == nil {
		return
	}
	if len(hso.UpdatedInput) > 0 && string(hso.UpdatedInput) != "null" {
		res.UpdatedInput = hso.UpdatedInput
	}
	if hso.AdditionalContext != "" {
		res.Context = append(res.Context, hso.AdditionalContext)
		if run.Decision == "" {
			run.Decision = "context"
		}
	}
}

func (res *Result) block(run *Run, reason string) {
	res.Blocked, res.Reason = true, reason
	run.Decision = "block"
}

// output is a hook's JSON answer on stdout.
type output struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput *struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        string          `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// parseOutput reads a hook's stdout: nil unless it is a JSON object.
func parseOutput(stdout string) *output {
	t := strings.TrimSpace(stdout)
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	var o output
	if json.Unmarshal([]byte(t), &o) != nil {
		return nil
	}
	return &o
}

func (r *Runner) runOne(ctx context.Context, h Hook, in Input) (Run, *output) {
	run := Run{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Source: h.Source, ExitCode: -1}
	payload, err := in.claudeJSON(h.Event)
	if h.Legacy {
		payload, err = in.legacyJSON(h.Event)
	}
	if err != nil {
		run.Error = "encode input: " + err.Error()
		return run, nil
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
		if h.Legacy {
			timeout = LegacyTimeout
		}
	}
	r.exec(ctx, &run, h.Env, payload, timeout)
	if run.ExitCode != 0 || h.Legacy {
		return run, nil
	}
	return run, parseOutput(run.Stdout)
}

// exec runs run.Command with payload on stdin, filling in the outcome.
// extra are the hook's own variables (a plugin's CLAUDE_PLUGIN_ROOT).
func (r *Runner) exec(ctx context.Context, run *Run, extra []string, payload []byte, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("/bin/sh", "-c", run.Command)
	cmd.Dir = r.Dir
	env := r.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append(append([]string(nil), env...), "CLAUDE_PROJECT_DIR="+r.Dir, "ZERO_PROJECT_DIR="+r.Dir), extra...)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	if r.Wrap != nil {
		if err := r.Wrap(cmd); err != nil {
			run.Error = "sandbox: " + err.Error()
			return
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		run.Error = err.Error()
		return
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd)
		err = <-done
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			run.TimedOut = true
			run.Error = fmt.Sprintf("timed out after %s", timeout)
		} else {
			run.Error = ctx.Err().Error()
		}
	}
	run.Elapsed = time.Since(start)
	run.Stdout, run.Stderr = stdout.String(), stderr.String()
	if cmd.ProcessState != nil {
		run.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && run.Error == "" {
		run.Error = err.Error()
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// capped keeps the first outputCap bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := outputCap - c.Len(); room > 0 {
		if len(p) > room {
			c.Buffer.Write(p[:room])
		} else {
			c.Buffer.Write(p)
		}
	}
	return len(p), nil
}

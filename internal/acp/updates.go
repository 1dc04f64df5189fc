package acp

import (
	"context"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// notifier sends session/update notifications for one session.
type notifier interface {
	SessionUpdate(ctx context.Context, n acpsdk.SessionNotification) error
}

// updates is a session's event consumer: each of Zero's events becomes
// the session/update an editor shows (message and thought chunks, tool
// calls and their results, the plan). It reads an edited file before and
// after the edit for the diff content (within the workspace only).
type updates struct {
	conn notifier
	id   acpsdk.SessionId
	root string
	// read reads a file inside the workspace (false: outside it, or
	// unreadable).
	read func(path string) (string, bool)

	mu sync.Mutex
	// before are the contents of files edit calls will change, by call id.
	before map[string]fileBefore
	// streams are the running calls' outputs (stream.go), by call id.
	streams map[string]*outputStream
	// terminals are the editor terminals calls ran in (terminal.go).
	terminals map[string]string
}

type fileBefore struct {
	path string
	old  *string
}

func newUpdates(conn notifier, id string, root string, read func(string) (string, bool)) *updates {
	return &updates{conn: conn, id: acpsdk.SessionId(id), root: root, read: read, before: map[string]fileBefore{}, streams: map[string]*outputStream{}, terminals: map[string]string{}}
}

func (u *updates) send(up acpsdk.SessionUpdate) {
	// Background: the last updates of a cancelled prompt still go out.
	_ = u.conn.SessionUpdate(context.Background(), acpsdk.SessionNotification{SessionId: u.id, Update: up})
}

var _ event.OutputSink = (*updates)(nil)

// Emit maps e to zero or more session/update notifications.
func (u *updates) Emit(e event.Event) {
	if e.ParentToolCallID != "" {
		u.child(e)
		return
	}
	switch e.Type {
	case event.Text:
		if e.Text != "" {
			u.send(acpsdk.UpdateAgentMessageText(e.Text))
		}
	case event.Reasoning:
		if e.Text != "" {
			u.send(acpsdk.UpdateAgentThoughtText(e.Text))
		}
	case event.ToolCall:
		if e.ToolCall != nil {
			u.toolCall(*e.ToolCall)
		}
	case event.ToolResult:
		if e.Result != nil {
			u.toolResult(*e.Result)
		}
	case event.Plan:
		if e.Plan != nil {
			u.send(planUpdate(e.Plan))
		}
	case event.Warning, event.Error:
		if e.Text != "" {
			u.send(acpsdk.UpdateAgentThoughtText("zero: " + string(e.Type) + ": " + e.Text + "\n"))
		}
	}
}

// child maps a sub-agent's event (the task tool runs it): its tool calls,
// warnings and errors become thought text naming it, under the parent's
// task call; its own text stays in its session log (the task call's
// result carries its answer), and its tool call ids, which may repeat
// the parent's, are never sent as calls of this session.
func (u *updates) child(e event.Event) {
	switch e.Type {
	case event.ToolCall:
		if e.ToolCall != nil {
			u.send(acpsdk.UpdateAgentThoughtText(e.Agent + " sub-agent: " + describe(*e.ToolCall, u.root).title + "\n"))
		}
	case event.Warning, event.Error:
		if e.Text != "" {
			u.send(acpsdk.UpdateAgentThoughtText("zero: " + e.Agent + " sub-agent: " + string(e.Type) + ": " + e.Text + "\n"))
		}
	}
}

func (u *updates) toolCall(call llm.ToolCall) {
	info := describe(call, u.root)
	if info.path != "" {
		fb := fileBefore{path: info.path}
		if s, ok := u.read(info.path); ok {
			fb.old = &s
		}
		u.mu.Lock()
		u.before[call.ID] = fb
		u.mu.Unlock()
	}
	u.send(acpsdk.StartToolCall(acpsdk.ToolCallId(call.ID), info.title,
		acpsdk.WithStartKind(info.kind), acpsdk.WithStartStatus(acpsdk.ToolCallStatusPending),
		acpsdk.WithStartLocations(info.locations), acpsdk.WithStartRawInput(info.raw)))
}

func (u *updates) toolResult(r event.ToolOutcome) {
	u.endStream(r.CallID)
	status := acpsdk.ToolCallStatusCompleted
	if r.IsError {
		status = acpsdk.ToolCallStatusFailed
	}
	var content []acpsdk.ToolCallContent
	u.mu.Lock()
	fb, edit := u.before[r.CallID]
	delete(u.before, r.CallID)
	term, inTerm := u.terminals[r.CallID]
	delete(u.terminals, r.CallID)
	u.mu.Unlock()
	if inTerm {
		// The editor shows the terminal (released, it keeps its output).
		content = append(content, acpsdk.ToolTerminalRef(term))
	}
	if edit && !r.IsError {
		if now, ok := u.read(fb.path); ok {
			d := acpsdk.ToolDiffContent(fb.path, now)
			d.Diff.OldText = fb.old
			content = append(content, d)
		}
	}
	if text := resultText(r); text != "" && !inTerm && (content == nil || r.IsError) {
		content = append(content, acpsdk.ToolContent(acpsdk.TextBlock(text)))
	}
	raw := map[string]any{"content": r.Content}
	if r.ExitCode != nil {
		raw["exitCode"] = *r.ExitCode
	}
	u.send(acpsdk.UpdateToolCall(acpsdk.ToolCallId(r.CallID), acpsdk.WithUpdateStatus(status),
		acpsdk.WithUpdateContent(content), acpsdk.WithUpdateRawOutput(raw)))
}

// inTerminal embeds the editor's terminal term in callID's content while
// the command runs there, and in its result.
func (u *updates) inTerminal(callID, term string) {
	u.mu.Lock()
	u.terminals[callID] = term
	u.mu.Unlock()
	u.send(acpsdk.UpdateToolCall(acpsdk.ToolCallId(callID), acpsdk.WithUpdateStatus(acpsdk.ToolCallStatusInProgress),
		acpsdk.WithUpdateContent([]acpsdk.ToolCallContent{acpsdk.ToolTerminalRef(term)})))
}

// resultText is a tool result as an editor shows it: command output in
// a fenced block, the rest as is.
func resultText(r event.ToolOutcome) string {
	if r.Content == "" {
		return ""
	}
	if r.ExitCode != nil {
		return fence(r.Content)
	}
	return r.Content
}

// planUpdate is a plan as ACP plan entries
// (https://agentclientprotocol.com/protocol/agent-plan).
func planUpdate(p *event.TaskPlan) acpsdk.SessionUpdate {
	entries := make([]acpsdk.PlanEntry, 0, len(p.Steps))
	for _, s := range p.Steps {
		st := acpsdk.PlanEntryStatusPending
		switch s.Status {
		case event.StepInProgress:
			st = acpsdk.PlanEntryStatusInProgress
		case event.StepCompleted:
			st = acpsdk.PlanEntryStatusCompleted
		}
		entries = append(entries, acpsdk.PlanEntry{Content: s.Step, Priority: acpsdk.PlanEntryPriorityMedium, Status: st})
	}
	return acpsdk.UpdatePlan(entries...)
}

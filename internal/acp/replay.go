package acp

import (
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/run"
)

// replay sends a loaded session's conversation from its log as
// session/update notifications
// (https://agentclientprotocol.com/protocol/session-setup#loading-sessions):
// the user's and the agent's messages and thoughts, each tool call with
// its result, and the plans.
func (s *session) replay() error {
	evs, err := s.s.Logged()
	if err != nil {
		return err
	}
	for _, up := range replayUpdates(evs, s.rt.Workspace.Root()) {
		s.updates.send(up)
	}
	return nil
}

// replayUpdates is the pure core of replay.
func replayUpdates(evs []event.Event, root string) []acpsdk.SessionUpdate {
	var out []acpsdk.SessionUpdate
	for _, e := range evs {
		switch {
		case e.Type == event.Message && e.Message != nil:
			out = append(out, messageUpdates(*e.Message)...)
		case e.Type == event.ToolCall && e.ToolCall != nil:
			info := describe(*e.ToolCall, root)
			out = append(out, acpsdk.StartToolCall(acpsdk.ToolCallId(e.ToolCall.ID), info.title,
				acpsdk.WithStartKind(info.kind), acpsdk.WithStartStatus(acpsdk.ToolCallStatusPending),
				acpsdk.WithStartLocations(info.locations), acpsdk.WithStartRawInput(info.raw)))
		case e.Type == event.ToolResult && e.Result != nil:
			r := *e.Result
			status := acpsdk.ToolCallStatusCompleted
			if r.IsError {
				status = acpsdk.ToolCallStatusFailed
			}
			text := resultText(r)
			if r.Diff != "" {
				text = "```diff\n" + strings.TrimRight(r.Diff, "\n") + "\n```"
			}
			var content []acpsdk.ToolCallContent
			if text != "" {
				content = append(content, acpsdk.ToolContent(acpsdk.TextBlock(text)))
			}
			out = append(out, acpsdk.UpdateToolCall(acpsdk.ToolCallId(r.CallID), acpsdk.WithUpdateStatus(status), acpsdk.WithUpdateContent(content)))
		case e.Type == event.Plan && e.Plan != nil:
			out = append(out, planUpdate(e.Plan))
		}
	}
	return out
}

// messageUpdates are one logged message's text and reasoning as chunks
// (tool calls and results come from their own events).
func messageUpdates(m llm.Message) []acpsdk.SessionUpdate {
	var out []acpsdk.SessionUpdate
	for _, p := range m.Parts {
		switch {
		case p.Type == llm.PartText && p.Text != "" && m.Role == llm.RoleUser:
			out = append(out, acpsdk.UpdateUserMessageText(p.Text))
		case p.Type == llm.PartText && p.Text != "" && m.Role == llm.RoleAssistant:
			out = append(out, acpsdk.UpdateAgentMessageText(p.Text))
		case p.Type == llm.PartReasoning && p.Text != "" && !p.Redacted && m.Role == llm.RoleAssistant:
			out = append(out, acpsdk.UpdateAgentThoughtText(p.Text))
		}
	}
	return out
}

// listSessions is session/list: the store's sessions, newest first, of
// the cwd when the client names one.
func listSessions(p acpsdk.ListSessionsRequest) (acpsdk.ListSessionsResponse, error) {
	st, err := run.OpenStore()
	if err != nil {
		return acpsdk.ListSessionsResponse{}, acpsdk.NewInternalError(err.Error())
	}
	all, err := st.List()
	if err != nil {
		return acpsdk.ListSessionsResponse{}, acpsdk.NewInternalError(err.Error())
	}
	out := acpsdk.ListSessionsResponse{Sessions: []acpsdk.SessionInfo{}}
	for _, m := range all {
		if p.Cwd != nil && *p.Cwd != "" && (m.Workspace == "" || !m.InWorkspace(*p.Cwd)) {
			continue
		}
		info := acpsdk.SessionInfo{SessionId: acpsdk.SessionId(m.ID), Cwd: m.Workspace}
		if t := firstNonEmpty(m.Title, m.FirstPrompt); t != "" {
			info.Title = &t
		}
		if !m.Updated.IsZero() {
			info.UpdatedAt = acpsdk.Ptr(m.Updated.UTC().Format(time.RFC3339))
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}

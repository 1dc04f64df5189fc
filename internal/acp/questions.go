package acp

import (
	"context"
	"strconv"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
)

// Questions in an editor. ACP's stable protocol has no question request
// (elicitation/create is unstable, and the Go SDK's form request lacks
// the session it belongs to), so a question the editor can show as a
// choice becomes a session/request_permission whose options are the
// answers (https://agentclientprotocol.com/protocol/tool-calls#requesting-permission):
// one field with choices (ask_user with choices, an MCP elicitation with
// one enum) or a yes/no field, plus "Don't answer". The request is about
// a tool call of its own, "question-<id>" (kind other, the question as
// its title), sent before and completed after. Any other question (free
// text, several fields) is declined: ask_user tells the model the user
// did not answer, an MCP server gets decline.

// questionDecline is the option that answers nothing.
const questionDecline = "decline"

// askQuestion is the session's ask.Asker.
func (s *session) askQuestion(ctx context.Context, q event.Question) event.QuestionAnswer {
	opts, values, ok := questionOptions(q)
	if !ok {
		return ask.Declined()
	}
	id := acpsdk.ToolCallId("question-" + q.ID)
	title := strings.TrimSpace(q.Message)
	if strings.HasPrefix(q.From, "mcp:") {
		title = strings.TrimPrefix(q.From, "mcp:") + " asks: " + title
	}
	s.updates.send(acpsdk.StartToolCall(id, title, acpsdk.WithStartKind(acpsdk.ToolKindOther), acpsdk.WithStartStatus(acpsdk.ToolCallStatusPending)))
	resp, err := s.conn.RequestPermission(ctx, acpsdk.RequestPermissionRequest{
		SessionId: acpsdk.SessionId(s.id), Options: opts,
		ToolCall: acpsdk.ToolCallUpdate{ToolCallId: id, Title: &title},
	})
	ans := event.QuestionAnswer{Action: ask.Cancel}
	switch {
	case err != nil || resp.Outcome.Selected == nil:
	case resp.Outcome.Selected.OptionId == questionDecline:
		ans.Action = ask.Decline
	default:
		if i, err := strconv.Atoi(strings.TrimPrefix(string(resp.Outcome.Selected.OptionId), "answer-")); err == nil && i >= 0 && i < len(values) {
			ans = event.QuestionAnswer{Action: ask.Accept, Values: map[string]any{q.Fields[0].Name: values[i]}}
		}
	}
	status := acpsdk.ToolCallStatusCompleted
	if ans.Action != ask.Accept {
		status = acpsdk.ToolCallStatusFailed
	}
	s.updates.send(acpsdk.UpdateToolCall(id, acpsdk.WithUpdateStatus(status)))
	return ans
}

// questionOptions are the permission options that answer q, with the
// value each gives its one field; false when q is not one choice.
func questionOptions(q event.Question) ([]acpsdk.PermissionOption, []any, bool) {
	if len(q.Fields) != 1 {
		return nil, nil, false
	}
	f := q.Fields[0]
	var names []string
	var values []any
	switch f.Kind {
	case ask.KindChoice:
		for i, c := range f.Choices {
			name := c
			if i < len(f.Labels) && f.Labels[i] != "" {
				name = f.Labels[i]
			}
			names, values = append(names, name), append(values, c)
		}
	case ask.KindBoolean:
		names, values = []string{"Yes", "No"}, []any{true, false}
	}
	if len(names) == 0 {
		return nil, nil, false
	}
	opts := make([]acpsdk.PermissionOption, 0, len(names)+1)
	for i, n := range names {
		opts = append(opts, acpsdk.PermissionOption{OptionId: acpsdk.PermissionOptionId("answer-" + strconv.Itoa(i)), Name: n, Kind: acpsdk.PermissionOptionKindAllowOnce})
	}
	opts = append(opts, acpsdk.PermissionOption{OptionId: questionDecline, Name: "Don't answer", Kind: acpsdk.PermissionOptionKindRejectOnce})
	return opts, values, true
}

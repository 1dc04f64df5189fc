package acp

import (
	"context"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// builtins are the slash commands the bridge runs itself (the app's
// others draw its own screen and have no editor form).
var builtins = []acpsdk.AvailableCommand{
	{Name: "compact", Description: "Summarize the conversation so far to free the context window"},
}

// availableCommands is the available_commands_update of a session: the
// built-ins, then its skills and custom commands (run.Session.SlashCommands;
// Session.Prompt expands them when the editor sends "/name args").
func (s *session) availableCommands() acpsdk.SessionUpdate {
	cmds := append([]acpsdk.AvailableCommand(nil), builtins...)
	for _, c := range s.s.SlashCommands() {
		ac := acpsdk.AvailableCommand{Name: c.Name, Description: firstNonEmpty(c.Description, c.Name)}
		if c.Hint != "" {
			ac.Input = &acpsdk.AvailableCommandInput{Unstructured: &acpsdk.UnstructuredCommandInput{Hint: c.Hint}}
		}
		cmds = append(cmds, ac)
	}
	return acpsdk.SessionUpdate{AvailableCommandsUpdate: &acpsdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}}
}

// builtin runs text when it is a built-in command; ok is false for any
// other prompt.
func (s *session) builtin(ctx context.Context, text string) (ok bool, err error) {
	if strings.TrimSpace(text) != "/compact" {
		return false, nil
	}
	desc, err := s.s.Compact(ctx)
	if err != nil {
		return true, err
	}
	s.updates.send(acpsdk.UpdateAgentMessageText(desc))
	s.sendUsage()
	return true, nil
}

// sendUsage sends a usage_update: the tokens the window holds now and
// its size, with the session's estimated cost when the model is priced.
func (s *session) sendUsage() {
	_, window := s.rt.ModelWindow()
	if window <= 0 {
		return
	}
	up := &acpsdk.SessionUsageUpdate{Used: s.s.Usage().UsedTokens, Size: window}
	if cost, ok := s.s.CostUSD(); ok {
		up.Cost = &acpsdk.Cost{Amount: cost, Currency: "USD"}
	}
	s.updates.send(acpsdk.SessionUpdate{UsageUpdate: up})
}

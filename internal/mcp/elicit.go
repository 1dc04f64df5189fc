package mcp

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
)

// elicit answers a server's elicitation/create: a form (the only mode
// Zero advertises) becomes a question for Options.Elicit; a request Zero
// cannot show (another mode, a schema with nested values) is declined
// with a warning, so the server can fall back instead of waiting
// (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation).
func (s *server) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	if p.Mode != "" && p.Mode != "form" {
		s.m.warn(s.cfg.Name, fmt.Sprintf("declined an elicitation in %q mode (Zero answers forms only)", p.Mode))
		return &mcp.ElicitResult{Action: ask.Decline}, nil
	}
	fields, err := ask.FromElicitation(p.RequestedSchema)
	if err != nil {
		s.m.warn(s.cfg.Name, "declined an elicitation: "+err.Error())
		return &mcp.ElicitResult{Action: ask.Decline}, nil
	}
	s.mu.Lock()
	s.asked++
	id := fmt.Sprintf("mcp-%s-%d", s.cfg.Name, s.asked)
	s.mu.Unlock()
	q := event.Question{ID: id, From: "mcp:" + s.cfg.Name, Message: p.Message, Fields: fields}
	ans := s.m.opts.Elicit(ctx, q)
	if ans.Action == "" {
		ans.Action = ask.Cancel
	}
	res := &mcp.ElicitResult{Action: ans.Action}
	if ans.Action == ask.Accept {
		res.Content = ans.Values
		if res.Content == nil {
			res.Content = map[string]any{}
		}
	}
	return res, nil
}

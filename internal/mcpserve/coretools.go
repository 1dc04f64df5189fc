package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/tools"
)

// addCoreTools serves rt's tool set (run.ToolSet: the core tools bound
// to the workspace, the shell sandboxed, secrets masked) as MCP tools,
// each call decided by the same permission gate a session uses. Plan mode
// serves the read-only tools only, as it offers a model.
func (s *Server) addCoreTools(rt *run.Runtime) {
	reg := rt.Tools()
	keep := run.Visible(rt.Mode())
	var calls atomic.Int64
	for _, name := range reg.Names() {
		t, _ := reg.Get(name)
		if (keep != nil && !keep(t)) || sessionOnly[name] {
			continue
		}
		s.mcp.AddTool(&mcp.Tool{
			Name:        t.Name(),
			Description: t.Description(),
			InputSchema: json.RawMessage(t.Schema()),
			Annotations: annotations(t.SideEffect()),
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := s.callContext(ctx)
			defer cancel()
			id := fmt.Sprintf("mcp_%d", calls.Add(1))
			return callCore(ctx, req, rt, t, id), nil
		})
	}
}

// sessionOnly are the tools that keep state in an agent session (the
// plan, processes that outlive the call); a served tool call has no
// session to keep it in or to end it with.
var sessionOnly = map[string]bool{tools.UpdatePlanName: true, tools.ExecCommandName: true, tools.WriteStdinName: true}

// callCore gates and runs one call of t.
func callCore(ctx context.Context, req *mcp.CallToolRequest, rt *run.Runtime, t tools.Tool, id string) *mcp.CallToolResult {
	args := string(req.Params.Arguments)
	if args == "" {
		args = "{}"
	}
	call := llm.ToolCall{ID: id, Name: t.Name(), Arguments: args}
	gate := &permission.Gate{Engine: rt.Engine, Workspace: rt.Workspace, Ask: asker(req)}
	o := gate.Decide(ctx, call, t)
	if !o.Allow {
		return errorResult(o.Reason)
	}
	if o.Rewrite != "" {
		args = o.Rewrite
	}
	if o.Network {
		ctx = tools.WithNetwork(ctx)
	}
	res, err := t.Run(ctx, json.RawMessage(args))
	if err != nil {
		return errorResult(err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Content}}, IsError: res.IsError}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// annotations are the hints a client shows for a side-effect class.
func annotations(e tools.SideEffect) *mcp.ToolAnnotations {
	yes, no := true, false
	switch e {
	case tools.SideRead:
		return &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	case tools.SideWrite:
		return &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}
	case tools.SideNetwork, tools.SideExternalRead:
		return &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &yes}
	}
	return &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}
}

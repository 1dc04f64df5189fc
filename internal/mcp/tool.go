package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/tools"
)

// Tool is one MCP server tool offered as a tools.Tool.
type Tool struct {
	srv    *server
	name   string
	remote *mcp.Tool
	schema json.RawMessage
}

var _ tools.Tool = (*Tool)(nil)

func newTool(s *server, t *mcp.Tool, name string) *Tool {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return &Tool{srv: s, name: name, remote: t, schema: schema}
}

// Name is mcp__<server>__<tool>, sanitized and at most 64 characters.
func (t *Tool) Name() string { return t.name }

// Server and RemoteName are the server's name and its own name for the
// tool (what the call sends).
func (t *Tool) Server() string     { return t.srv.cfg.Name }
func (t *Tool) RemoteName() string { return t.remote.Name }

// Description is the server's description of the tool.
func (t *Tool) Description() string { return t.remote.Description }

// Schema is the server's input schema as JSON, uncleaned: the provider
// layer cleans a copy per provider (internal/llm/schema, case B31).
func (t *Tool) Schema() json.RawMessage { return t.schema }

// ReadOnly reports the server's readOnlyHint (a hint, not a guarantee).
func (t *Tool) ReadOnly() bool {
	return t.remote.Annotations != nil && t.remote.Annotations.ReadOnlyHint
}

// SideEffect is SideExternalRead for a tool its server marks read-only,
// else SideExternal; internal/permission decides from it.
func (t *Tool) SideEffect() tools.SideEffect {
	if t.ReadOnly() {
		return tools.SideExternalRead
	}
	return tools.SideExternal
}

// errToolTimeout ends a call that went ToolTimeout without a result or a
// progress notification.
var errToolTimeout = errors.New("tool call timed out")

// Run calls the tool. A call ends with ctx (the turn), or after the tool
// timeout without progress (each progress notification restarts it), or
// when the server dies; the last two are failed results the model can
// read, cancellation is ctx's error.
func (t *Tool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	sess, proc, err := t.srv.live(t.remote.Name)
	if err != nil {
		return failed(err.Error()), nil
	}
	var arguments any = json.RawMessage(`{}`)
	if len(args) > 0 && string(args) != "null" {
		arguments = args
	}
	timeout := t.srv.toolTimeout()
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(timeout, func() { cancel(errToolTimeout) })
	defer timer.Stop()
	token, unwatch := t.srv.watchProgress(func() { timer.Reset(timeout) })
	defer unwatch()
	params := &mcp.CallToolParams{Name: t.remote.Name, Arguments: arguments}
	params.SetProgressToken(token)

	res, err := sess.CallTool(callCtx, params)
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case errors.Is(context.Cause(callCtx), errToolTimeout):
		return failed(fmt.Sprintf("MCP tool %s timed out: no result and no progress from server %s for %v (the call was cancelled; toolTimeout in the server's config sets the limit)",
			t.remote.Name, t.srv.cfg.Name, timeout)), nil
	case connectionLost(err, proc):
		return failed(t.crashed(proc)), nil
	case proc == nil && unreachable(err):
		// A remote server that went away: closing the session lets watch
		// mark it failed and withdraw its tools, as for a crashed process.
		_ = sess.Close()
		name := t.srv.cfg.Name
		return failed(fmt.Sprintf("MCP server %s cannot be reached (%v).\nIts tools are withdrawn; the user can restart it with /mcp reconnect %s.", name, err, name)), nil
	case err != nil:
		return failed(fmt.Sprintf("MCP server %s: tool %s: %v", t.srv.cfg.Name, t.remote.Name, err)), nil
	}
	text := resultText(res)
	if res.IsError && text == "" {
		text = "the tool reported an error without a message"
	}
	return tools.Result{Content: capOutput(text, t.srv.m.maxOutput), IsError: res.IsError, Images: resultImages(res)}, nil
}

// crashed is the result text for a call whose server died under it (case
// B30: "MCP server crashy exited (code 1) during call").
func (t *Tool) crashed(proc *process) string {
	how, stderr := "closed the connection", ""
	if proc != nil {
		var e *exitStatus
		if errors.As(proc.exitError(2*time.Second), &e) {
			how, stderr = e.How, e.Stderr
		}
	}
	name := t.srv.cfg.Name
	msg := fmt.Sprintf("MCP server %s %s during the call to %s.", name, how, t.remote.Name)
	if stderr != "" {
		msg += " Its stderr ends: " + stderr
	}
	return msg + fmt.Sprintf("\nIts tools are withdrawn; the user can restart it with /mcp reconnect %s.", name)
}

// connectionLost tells a call that failed because the server went away
// (EOF on its stdout, a closed connection, its process gone) from an error
// the server answered.
func connectionLost(err error, proc *process) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return true
	}
	return proc != nil && proc.exitError(0) != nil
}

// unreachable tells a remote server that is gone (nothing listens, the
// connection was reset) from one that answered with an error.
func unreachable(err error) bool {
	var op *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.As(err, &op) && op.Op == "dial"
}

func failed(msg string) tools.Result { return tools.Result{Content: msg, IsError: true} }

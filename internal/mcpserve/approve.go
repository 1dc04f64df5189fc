package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/permission"
)

// cannotElicit is the denial a model reads when the calling client did not
// declare the elicitation capability.
const cannotElicit = "no one can approve this over MCP; the client cannot elicit (run with permission_mode auto-accept, or use a client that supports elicitation)"

// approvalSchema is the form an approval asks for: accepting the form
// allows the call once unless decision says otherwise.
var approvalSchema = json.RawMessage(`{"type":"object","properties":{
"decision":{"type":"string","title":"Decision","enum":["allow_once","allow_session","deny"],"default":"allow_once","description":"allow_once runs this call; allow_session also later calls like it in this thread; deny refuses it."},
"reason":{"type":"string","title":"Reason","description":"Told to the model with a denial."}}}`)

// asker answers permission requests of a call's run: a form elicitation
// to the client when it can elicit, else a denial.
func asker(req *mcp.CallToolRequest) permission.Asker {
	ss := req.Session
	if !canElicit(ss) {
		return func(context.Context, permission.Request) permission.Decision {
			return permission.Decision{Choice: permission.Reject, Reason: cannotElicit}
		}
	}
	return func(ctx context.Context, r permission.Request) permission.Decision {
		return elicit(ctx, ss, r)
	}
}

// canElicit: the client declared the elicitation capability (form mode,
// or the bare capability older revisions mean form by).
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// elicit asks the client's user about r.
func elicit(ctx context.Context, ss *mcp.ServerSession, r permission.Request) permission.Decision {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: approvalMessage(r), RequestedSchema: approvalSchema})
	if err != nil {
		if ctx.Err() != nil {
			return permission.Decision{Choice: permission.Reject, Reason: "interrupted"}
		}
		return permission.Decision{Choice: permission.Reject, Reason: "the approval request to the MCP client failed: " + err.Error()}
	}
	switch res.Action {
	case "accept":
	case "decline":
		return permission.Decision{Choice: permission.Reject, Reason: reasonOr(res.Content, "the MCP client's user declined")}
	default:
		return permission.Decision{Choice: permission.Reject, Reason: "the MCP client's user dismissed the approval"}
	}
	choice := permission.AllowOnce
	if d, _ := res.Content["decision"].(string); d != "" {
		c, err := permission.ParseChoice(d)
		if err != nil {
			return permission.Decision{Choice: permission.Reject, Reason: err.Error()}
		}
		switch c {
		case permission.AllowAlways:
			c = permission.AllowSession // "always" is the user's to grant in Zero, not a client's
		case permission.RejectAlways:
			c = permission.Reject // and so is a saved denial
		}
		choice = c
	}
	if choice == permission.Reject {
		return permission.Decision{Choice: permission.Reject, Reason: reasonOr(res.Content, "the MCP client's user denied it")}
	}
	return permission.Decision{Choice: choice}
}

func reasonOr(content map[string]any, fallback string) string {
	if r, _ := content["reason"].(string); strings.TrimSpace(r) != "" {
		return r
	}
	return fallback
}

// approvalMessage is what the client's user is shown: the tool, why it
// asks, and the command or the diff.
func approvalMessage(r permission.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Zero wants to run %s", r.Tool)
	if r.Network {
		b.WriteString(" with network") // sandbox.network "ask"
	}
	if r.Why != "" {
		fmt.Fprintf(&b, " (%s)", r.Why)
	}
	b.WriteString(".\n")
	switch {
	case r.Command != "":
		fmt.Fprintf(&b, "Command: %s\n", r.Command)
	case r.Diff != "":
		fmt.Fprintf(&b, "%s\n%s", r.Path, r.Diff)
	case r.Summary != "":
		fmt.Fprintf(&b, "%s\n", r.Summary)
	}
	return b.String()
}

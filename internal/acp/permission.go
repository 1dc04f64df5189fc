package acp

import (
	"context"
	"path/filepath"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
)

// permissionAsker asks the editor (session/request_permission) for the
// calls Zero's gate sends to a person: the shell guard, the rules and
// the mode have decided first. The four ACP option kinds map onto Zero's
// choices (permission.ParseChoice reads the option ids): allow_once and
// allow_always are Zero's (allow_always is a grant saved in grants.json);
// reject_once denies the call; reject_always also denies every later
// identical request of this session without asking (Zero keeps no
// persistent denials).
type permissionAsker struct {
	conn interface {
		RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error)
	}
	id   acpsdk.SessionId
	root string

	mu       sync.Mutex
	rejected map[string]bool
}

// permissionOptions are offered with every request; their ids are
// Zero's choice names.
var permissionOptions = []acpsdk.PermissionOption{
	{OptionId: "allow_once", Name: "Allow once", Kind: acpsdk.PermissionOptionKindAllowOnce},
	{OptionId: "allow_always", Name: "Always allow", Kind: acpsdk.PermissionOptionKindAllowAlways},
	{OptionId: "reject_once", Name: "Reject", Kind: acpsdk.PermissionOptionKindRejectOnce},
	{OptionId: "reject_always", Name: "Always reject (this session)", Kind: acpsdk.PermissionOptionKindRejectAlways},
}

// permissionKey names what a reject_always refuses again: the tool and
// its command or file.
type permissionKey struct{ tool, what string }

func (r permissionKey) String() string { return r.tool + "\x00" + r.what }

func keyOf(req permission.Request) permissionKey {
	return permissionKey{req.Tool, firstNonEmpty(req.Command, req.Path, req.Summary)}
}

// ask is the permission.Asker of a prompt.
func (a *permissionAsker) ask(ctx context.Context, req permission.Request) permission.Decision {
	key := keyOf(req).String()
	a.mu.Lock()
	refused := a.rejected[key]
	a.mu.Unlock()
	if refused {
		return permission.Decision{Choice: permission.Reject, Reason: "the user rejected this always"}
	}
	info := describe(llm.ToolCall{ID: req.ID, Name: req.Tool, Arguments: "{}"}, a.root)
	title := firstNonEmpty(req.Command, req.Path, req.Summary, req.Tool)
	var content []acpsdk.ToolCallContent
	text := req.Why
	if req.Diff != "" {
		text += "\n\n```diff\n" + req.Diff + "\n```"
	}
	if text != "" {
		content = append(content, acpsdk.ToolContent(acpsdk.TextBlock(text)))
	}
	tc := acpsdk.ToolCallUpdate{ToolCallId: acpsdk.ToolCallId(req.ID), Title: &title, Kind: &info.kind, Content: content}
	if req.Path != "" {
		path := req.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(a.root, path)
		}
		tc.Locations = []acpsdk.ToolCallLocation{{Path: path}}
	}
	resp, err := a.conn.RequestPermission(ctx, acpsdk.RequestPermissionRequest{SessionId: a.id, ToolCall: tc, Options: permissionOptions})
	if err != nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the editor did not answer the permission request: " + err.Error()}
	}
	if resp.Outcome.Selected == nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the user cancelled the request"}
	}
	id := string(resp.Outcome.Selected.OptionId)
	choice, err := permission.ParseChoice(id)
	if err != nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the editor answered with an unknown option: " + err.Error()}
	}
	d := permission.Decision{Choice: choice}
	switch {
	case choice == permission.AllowAlways:
		d.Prefix = req.Prefix
	case id == "reject_always":
		a.mu.Lock()
		a.rejected[key] = true
		a.mu.Unlock()
		d.Reason = "the user rejected this always"
	case !d.Allowed():
		d.Reason = "the user rejected it"
	}
	return d
}

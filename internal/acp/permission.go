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
// choices (permission.ParseChoice reads the option ids): allow_always
// is a grant and reject_always a denial, both saved in grants.json by
// the gate; reject_once denies this call only.
type permissionAsker struct {
	conn interface {
		RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error)
	}
	id   acpsdk.SessionId
	root string

	mu sync.Mutex
	// waiting are the requests the editor has not answered yet
	// (modeChanged settles them).
	waiting map[*waitingAsk]struct{}
}

// waitingAsk is one request the editor has not answered: cancel ends
// it (the SDK sends $/cancel_request, so the editor closes its prompt);
// settled, once set, is the answer in its place.
type waitingAsk struct {
	recheck func() permission.Verdict
	cancel  context.CancelFunc
	settled *permission.Decision
}

// permissionOptions are offered with every request; their ids are
// Zero's choice names.
var permissionOptions = []acpsdk.PermissionOption{
	{OptionId: "allow_once", Name: "Allow once", Kind: acpsdk.PermissionOptionKindAllowOnce},
	{OptionId: "allow_always", Name: "Always allow", Kind: acpsdk.PermissionOptionKindAllowAlways},
	{OptionId: "reject_once", Name: "Reject", Kind: acpsdk.PermissionOptionKindRejectOnce},
	{OptionId: "reject_always", Name: "Always reject", Kind: acpsdk.PermissionOptionKindRejectAlways},
}

// ask is the permission.Asker of a prompt.
func (a *permissionAsker) ask(ctx context.Context, req permission.Request) permission.Decision {
	info := describe(llm.ToolCall{ID: req.ID, Name: req.Tool, Arguments: "{}"}, a.root)
	title := firstNonEmpty(req.Command, req.Path, req.Summary, req.Tool)
	if req.Network {
		title += " (with network)" // sandbox.network "ask": allowed, it runs online
	}
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := a.wait(req, cancel)
	resp, err := a.conn.RequestPermission(ctx, acpsdk.RequestPermissionRequest{SessionId: a.id, ToolCall: tc, Options: permissionOptions})
	if d := a.done(w); d != nil {
		return *d
	}
	if err != nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the editor did not answer the permission request: " + err.Error()}
	}
	if resp.Outcome.Selected == nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the user cancelled the request"}
	}
	choice, err := permission.ParseChoice(string(resp.Outcome.Selected.OptionId))
	if err != nil {
		return permission.Decision{Choice: permission.Reject, Reason: "the editor answered with an unknown option: " + err.Error()}
	}
	d := permission.Decision{Choice: choice}
	switch {
	case choice == permission.AllowAlways:
		d.Prefix = req.Prefix
	case choice == permission.RejectAlways:
		d.Reason = "the user rejected this always"
	case !d.Allowed():
		d.Reason = "the user rejected it"
	}
	return d
}

func (a *permissionAsker) wait(req permission.Request, cancel context.CancelFunc) *waitingAsk {
	w := &waitingAsk{recheck: req.Recheck, cancel: cancel}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting == nil {
		a.waiting = map[*waitingAsk]struct{}{}
	}
	a.waiting[w] = struct{}{}
	return w
}

// done ends w's wait: the answer modeChanged settled it with, or nil
// (the editor's answer stands).
func (a *permissionAsker) done(w *waitingAsk) *permission.Decision {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.waiting, w)
	return w.settled
}

// modeChanged settles the requests still waiting as the engine decides
// their calls in mode m, which the user switched to meanwhile: one that
// would run without asking now (a write or command asked in normal
// mode, after a switch to auto-accept) is allowed once, one the mode
// refuses (a write, after a switch to plan) is rejected, and one a
// person must still decide (the shell guard's) waits on. The editor's
// prompt for a settled request is cancelled.
func (a *permissionAsker) modeChanged(m permission.Mode) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for w := range a.waiting {
		if w.recheck == nil || w.settled != nil {
			continue
		}
		v := w.recheck()
		var d permission.Decision
		switch v.Action {
		case permission.Allow:
			d = permission.Decision{Choice: permission.AllowOnce, Reason: "the user switched to " + string(m) + " mode, which runs it"}
		case permission.Deny:
			d = permission.Decision{Choice: permission.Reject, Reason: "the user switched to " + string(m) + " mode: " + v.Reason}
		default:
			continue
		}
		w.settled = &d
		w.cancel()
	}
}

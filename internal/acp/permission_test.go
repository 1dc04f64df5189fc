package acp

import (
	"context"
	"testing"

	"github.com/zero-agent/zero/internal/permission"
)

// A request to run a shell command with the network (sandbox.network
// "ask") says so in the editor's title; other requests do not.
func TestPermissionTitleSaysWithNetwork(t *testing.T) {
	for _, tt := range []struct {
		req  permission.Request
		want string
	}{
		{permission.Request{ID: "c1", Tool: "bash", Command: "npm install", Network: true, Prefix: "npm install"}, "npm install (with network)"},
		{permission.Request{ID: "c2", Tool: "bash", Command: "go test ./..."}, "go test ./..."},
	} {
		c := &client{answer: "allow_once"}
		a := &permissionAsker{conn: c, id: "s", root: t.TempDir()}
		if d := a.ask(context.Background(), tt.req); d.Choice != permission.AllowOnce {
			t.Errorf("decision %+v", d)
		}
		if len(c.asked) != 1 || c.asked[0].ToolCall.Title == nil || *c.asked[0].ToolCall.Title != tt.want {
			t.Errorf("title for %+v: %v, want %q", tt.req, c.asked, tt.want)
		}
	}
}

package mcpserve

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/permission"
)

// The approval a client is asked for names the command, and says when
// it would run with the network (sandbox.network "ask").
func TestApprovalMessageSaysWithNetwork(t *testing.T) {
	m := approvalMessage(permission.Request{Tool: "bash", Command: "npm install", Network: true, Why: "it needs the network (npm install)"})
	if !strings.HasPrefix(m, "Zero wants to run bash with network (it needs the network (npm install)).") || !strings.Contains(m, "Command: npm install\n") {
		t.Errorf("network request: %q", m)
	}
	if m := approvalMessage(permission.Request{Tool: "bash", Command: "go test ./..."}); strings.Contains(m, "network") {
		t.Errorf("plain request mentions the network: %q", m)
	}
}

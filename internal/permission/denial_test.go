package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

func TestRejectAlwaysIsSavedAndRefusesTheSameCallInLaterSessions(t *testing.T) {
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	asked := 0
	answer := RejectAlways
	gate := func() *Gate {
		e, err := New(Config{Workspace: ws, Home: dir, ConfigDir: dir, Mode: ModeNormal})
		if err != nil {
			t.Fatal(err)
		}
		return &Gate{Engine: e, Workspace: ws, Ask: func(context.Context, Request) Decision {
			asked++
			return Decision{Choice: answer}
		}}
	}
	shell, write := sideTool{"bash", tools.SideShell}, sideTool{"write_file", tools.SideWrite}
	bash := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{ID: "c", Name: "bash", Arguments: string(b)}
	}
	file := llm.ToolCall{ID: "w", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}
	first := gate()
	for _, c := range []struct {
		call llm.ToolCall
		tool tools.Tool
	}{{bash("make deploy"), shell}, {file, write}} {
		if d := first.Decide(context.Background(), c.call, c.tool); d.Allow {
			t.Fatalf("%s ran after reject always", c.call.Name)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "grants.json"))
	if err != nil || !strings.Contains(string(b), `"deny": true`) || !strings.Contains(string(b), "make deploy") {
		t.Fatalf("grants.json = %s, %v", b, err)
	}

	// A later session: the same calls are refused without asking; other
	// calls still ask, and an allow is still saved as a grant.
	asked, answer = 0, AllowOnce
	later := gate()
	for _, c := range []struct {
		call llm.ToolCall
		tool tools.Tool
	}{{bash("make deploy"), shell}, {file, write}} {
		if d := later.Decide(context.Background(), c.call, c.tool); d.Allow || !strings.Contains(d.Reason, "rejected this always") {
			t.Errorf("%s: %+v", c.call.Name, d)
		}
	}
	if asked != 0 {
		t.Errorf("asked %d times about calls the user rejected always", asked)
	}
	if d := later.Decide(context.Background(), bash("make test"), shell); !d.Allow || asked != 1 {
		t.Errorf("another command: %+v after %d questions", d, asked)
	}
	other := llm.ToolCall{ID: "o", Name: "write_file", Arguments: `{"path":"b.txt","content":"x"}`}
	if d := later.Decide(context.Background(), other, write); !d.Allow || asked != 2 {
		t.Errorf("another file: %+v after %d questions", d, asked)
	}
}

func TestDenialsApproveNothing(t *testing.T) {
	g := &Grants{}
	for _, gr := range []Grant{{Tool: "bash", Command: "go test", Deny: true}, {Tool: "write_file", Deny: true}, {Tool: "read_file", Path: "/w", Deny: true}} {
		if err := g.Add(gr, "/w"); err != nil {
			t.Fatal(err)
		}
	}
	if g.Match(Grant{Tool: "bash", Command: "go test"}, "/w", false) || g.Match(Grant{Tool: "write_file"}, "/w", false) ||
		g.Match(Grant{Tool: "read_file", Path: "/w/a"}, "/w", false) || g.Covers("bash", [][]string{{"go", "test"}}, "/w") {
		t.Error("a denial approved a call")
	}
	if !g.Refuses(Grant{Tool: "read_file", Path: "/w/a"}, "/w", false) || g.Refuses(Grant{Tool: "bash", Command: "go test ./..."}, "/w", false) {
		t.Error("Refuses: a path below a denied one is refused; another command is not")
	}
}

func TestParseChoiceReadsRejectAlways(t *testing.T) {
	for _, s := range []string{"reject_always", "deny_always", "never"} {
		if c, err := ParseChoice(s); err != nil || c != RejectAlways {
			t.Errorf("ParseChoice(%q) = %q, %v", s, c, err)
		}
	}
	if c, _ := ParseChoice("reject_once"); c != Reject {
		t.Errorf("reject_once = %q", c)
	}
}

package permission

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// newPermissionGate builds a gate over a real permission engine with an
// empty home and config dir (no grants or rules from the machine).
func newPermissionGate(ws *workspace.Workspace, mode Mode, ask Asker) *Gate {
	dir, _ := os.MkdirTemp("", "zero-gate-")
	e, err := New(Config{Workspace: ws, Home: dir, ConfigDir: dir, Mode: mode})
	if err != nil {
		panic(err)
	}
	return &Gate{Engine: e, Ask: ask, Workspace: ws}
}

type sideTool struct {
	name string
	side tools.SideEffect
}

func (s sideTool) Name() string                 { return s.name }
func (s sideTool) Description() string          { return "" }
func (s sideTool) Schema() json.RawMessage      { return json.RawMessage(`{}`) }
func (s sideTool) SideEffect() tools.SideEffect { return s.side }
func (s sideTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, nil
}

func TestPermissionGate(t *testing.T) {
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	read, write, shell := sideTool{"read_file", tools.SideRead}, sideTool{"write_file", tools.SideWrite}, sideTool{"bash", tools.SideShell}
	bash := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{ID: "c", Name: "bash", Arguments: string(b)}
	}
	plain := llm.ToolCall{ID: "c", Name: "write_file", Arguments: `{"path":"a"}`}
	for _, tc := range []struct {
		name   string
		mode   Mode
		tool   tools.Tool
		call   llm.ToolCall
		allow  bool
		reason string
	}{
		{"reads run in normal mode", ModeNormal, read, plain, true, ""},
		{"writes ask, headless denies", ModeNormal, write, plain, false, "no one can be asked"},
		{"shell asks, headless denies", ModeNormal, shell, bash("go test ./..."), false, "needs approval"},
		{"auto-accept runs writes", ModeAutoAccept, write, plain, true, ""},
		{"auto-accept runs guarded shell", ModeAutoAccept, shell, bash("go test ./..."), true, ""},
		{"guard deny holds in auto-accept", ModeAutoAccept, shell, bash("rm -rf /"), false, "refused in every mode"},
		{"guard ask is not auto-approved", ModeAutoAccept, shell, bash("git push --force"), false, "remote history"},
		{"plan mode is read-only", ModePlan, write, plain, false, "plan mode"},
		{"quoted text is not a command", ModeAutoAccept, shell, bash(`echo "rm -rf /"`), true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newPermissionGate(ws, tc.mode, nil).Decide(context.Background(), tc.call, tc.tool)
			if d.Allow != tc.allow || !strings.Contains(d.Reason, tc.reason) {
				t.Fatalf("got %+v", d)
			}
		})
	}
}

func TestPermissionGateSessionGrant(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	asked := 0
	ask := func(ctx context.Context, req Request) Decision {
		asked++
		return Decision{Choice: AllowSession}
	}
	g := newPermissionGate(ws, ModeNormal, ask)
	w := sideTool{"write_file", tools.SideWrite}
	for i := 0; i < 3; i++ {
		if d := g.Decide(context.Background(), llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, w); !d.Allow {
			t.Fatalf("denied: %+v", d)
		}
	}
	if asked != 1 {
		t.Fatalf("asked %d times; a session grant should ask once", asked)
	}
	deny := func(ctx context.Context, req Request) Decision {
		return Decision{Choice: Reject, Reason: "not that file"}
	}
	d := newPermissionGate(ws, ModeNormal, deny).Decide(context.Background(), llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, w)
	if d.Allow || !strings.Contains(d.Reason, "not that file") {
		t.Fatalf("typed reason not passed to the model: %+v", d)
	}
}

func TestPrefixGrantCoversSubcommandsOnly(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	asked := 0
	ask := func(ctx context.Context, req Request) Decision {
		asked++
		return Decision{Choice: AllowSession, Prefix: "go test"}
	}
	g := newPermissionGate(ws, ModeNormal, ask)
	sh := sideTool{"bash", tools.SideShell}
	call := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{Name: "bash", Arguments: string(b)}
	}
	if d := g.Decide(context.Background(), call("go test ./pkg"), sh); !d.Allow || asked != 1 {
		t.Fatalf("first call: %+v asked %d", d, asked)
	}
	if d := g.Decide(context.Background(), call("go test -run X ./..."), sh); !d.Allow || asked != 1 {
		t.Fatalf("prefix grant did not cover go test -run: %+v asked %d", d, asked)
	}
	g.Ask = func(ctx context.Context, req Request) Decision {
		return Decision{Choice: Reject, Reason: "no"}
	}
	if d := g.Decide(context.Background(), call("go test ./...; rm -rf ~"), sh); d.Allow {
		t.Fatalf("prefix grant covered a chained rm -rf ~: %+v", d)
	}
}

func TestPreviewCallShowsDiffs(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/a.go", []byte("package a\n\nvar x = 1\n"), 0o644)
	ws, _ := workspace.New(dir)
	defer ws.Close()
	p := Preview(ws, llm.ToolCall{Name: "edit_file", Arguments: `{"path":"a.go","old_string":"var x = 1","new_string":"var x = 2"}`})
	path, diff := p.Path, p.Diff
	if path != "a.go" || !strings.Contains(diff, "-var x = 1") || !strings.Contains(diff, "+var x = 2") {
		t.Fatalf("edit preview %q %q", path, diff)
	}
	diff = Preview(ws, llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.go","content":"package a\n"}`}).Diff
	if !strings.Contains(diff, "-var x = 1") {
		t.Fatalf("write preview %q", diff)
	}
	cmd := Preview(ws, llm.ToolCall{Name: "bash", Arguments: `{"command":"go test ./... && go vet ./..."}`}).Command
	if cmd != "go test ./... && go vet ./..." {
		t.Fatalf("command %q", cmd)
	}
}

func TestApprovedReadOutsideBecomesReadable(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	other := t.TempDir()
	os.WriteFile(other+"/notes.txt", []byte("hello"), 0o644)
	args := `{"path":"` + other + `/notes.txt"}`
	read := sideTool{"read_file", tools.SideRead}
	if d := newPermissionGate(ws, ModeNormal, nil).Decide(context.Background(), llm.ToolCall{Name: "read_file", Arguments: args}, read); d.Allow {
		t.Fatalf("headless read outside allowed: %+v", d)
	}
	if _, err := ws.Resolve(other+"/notes.txt", false); err == nil {
		t.Fatal("denied read became readable")
	}
	yes := func(ctx context.Context, req Request) Decision {
		return Decision{Choice: AllowOnce}
	}
	if d := newPermissionGate(ws, ModeNormal, yes).Decide(context.Background(), llm.ToolCall{Name: "read_file", Arguments: args}, read); !d.Allow {
		t.Fatalf("approved read denied: %+v", d)
	}
	if _, err := ws.Resolve(other+"/notes.txt", false); err != nil {
		t.Fatalf("approved read still outside: %v", err)
	}
	if _, err := ws.Resolve(other+"/notes.txt", true); err == nil {
		t.Fatal("approved read made the directory writable")
	}
}

// A sub-agent's gate names the agent in what it asks, and the same
// request is in the permission_request event the surfaces read.
func TestSubagentGateLabelsItsRequests(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	var asked string
	g := newPermissionGate(ws, ModeNormal, func(_ context.Context, req Request) Decision {
		asked = req.Why
		return Decision{Choice: Reject}
	})
	var emitted string
	g.Agent, g.Audit = "reviewer", event.SinkFunc(func(e event.Event) {
		if e.Type == event.PermissionRequest {
			emitted = e.Permission.Reason
		}
	})
	g.Decide(context.Background(), llm.ToolCall{ID: "c", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, sideTool{"write_file", tools.SideWrite})
	if !strings.HasPrefix(asked, "asked by the reviewer sub-agent: ") || emitted != asked {
		t.Errorf("asked %q, event %q", asked, emitted)
	}
}

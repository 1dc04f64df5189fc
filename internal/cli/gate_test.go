package cli

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// newPermissionGate builds a gate over a real permission engine with an
// empty home and config dir (no grants or rules from the machine).
func newPermissionGate(ws *workspace.Workspace, mode string, ask askFunc) *permissionGate {
	dir, _ := os.MkdirTemp("", "zero-gate-")
	e, err := sandbox.New(sandbox.Config{Workspace: ws, Home: dir, ConfigDir: dir, Mode: sandbox.Mode(mode)})
	if err != nil {
		panic(err)
	}
	return &permissionGate{engine: e, ask: ask, ws: ws}
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
		mode   string
		tool   tools.Tool
		call   llm.ToolCall
		allow  bool
		reason string
	}{
		{"reads run in normal mode", modeNormal, read, plain, true, ""},
		{"writes ask, headless denies", modeNormal, write, plain, false, "no one can be asked"},
		{"shell asks, headless denies", modeNormal, shell, bash("go test ./..."), false, "needs approval"},
		{"auto-accept runs writes", modeAutoAccept, write, plain, true, ""},
		{"auto-accept runs guarded shell", modeAutoAccept, shell, bash("go test ./..."), true, ""},
		{"guard deny holds in auto-accept", modeAutoAccept, shell, bash("rm -rf /"), false, "refused in every mode"},
		{"guard ask is not auto-approved", modeAutoAccept, shell, bash("git push --force"), false, "remote history"},
		{"plan mode is read-only", modePlan, write, plain, false, "plan mode"},
		{"quoted text is not a command", modeAutoAccept, shell, bash(`echo "rm -rf /"`), true, ""},
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
	ask := func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		asked++
		return answer{Allow: true, Scope: sandbox.ScopeSession}
	}
	g := newPermissionGate(ws, modeNormal, ask)
	w := sideTool{"write_file", tools.SideWrite}
	for i := 0; i < 3; i++ {
		if d := g.Decide(context.Background(), llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, w); !d.Allow {
			t.Fatalf("denied: %+v", d)
		}
	}
	if asked != 1 {
		t.Fatalf("asked %d times; a session grant should ask once", asked)
	}
	deny := func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		return answer{Reason: "not that file"}
	}
	d := newPermissionGate(ws, modeNormal, deny).Decide(context.Background(), llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, w)
	if d.Allow || !strings.Contains(d.Reason, "not that file") {
		t.Fatalf("typed reason not passed to the model: %+v", d)
	}
}

func TestPrefixGrantCoversSubcommandsOnly(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	asked := 0
	ask := func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		asked++
		return answer{Allow: true, Scope: sandbox.ScopeSession, Prefix: "go test"}
	}
	g := newPermissionGate(ws, modeNormal, ask)
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
	g.ask = func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		return answer{Reason: "no"}
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
	rt := &runtime{ws: ws}
	_, path, diff := previewCall(rt, llm.ToolCall{Name: "edit_file", Arguments: `{"path":"a.go","old_string":"var x = 1","new_string":"var x = 2"}`})
	if path != "a.go" || !strings.Contains(diff, "-var x = 1") || !strings.Contains(diff, "+var x = 2") {
		t.Fatalf("edit preview %q %q", path, diff)
	}
	_, _, diff = previewCall(rt, llm.ToolCall{Name: "write_file", Arguments: `{"path":"a.go","content":"package a\n"}`})
	if !strings.Contains(diff, "-var x = 1") {
		t.Fatalf("write preview %q", diff)
	}
	cmd, _, _ := previewCall(rt, llm.ToolCall{Name: "bash", Arguments: `{"command":"go test ./... && go vet ./..."}`})
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
	if d := newPermissionGate(ws, modeNormal, nil).Decide(context.Background(), llm.ToolCall{Name: "read_file", Arguments: args}, read); d.Allow {
		t.Fatalf("headless read outside allowed: %+v", d)
	}
	if _, err := ws.Resolve(other+"/notes.txt", false); err == nil {
		t.Fatal("denied read became readable")
	}
	yes := func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		return answer{Allow: true}
	}
	if d := newPermissionGate(ws, modeNormal, yes).Decide(context.Background(), llm.ToolCall{Name: "read_file", Arguments: args}, read); !d.Allow {
		t.Fatalf("approved read denied: %+v", d)
	}
	if _, err := ws.Resolve(other+"/notes.txt", false); err != nil {
		t.Fatalf("approved read still outside: %v", err)
	}
	if _, err := ws.Resolve(other+"/notes.txt", true); err == nil {
		t.Fatal("approved read made the directory writable")
	}
}

func TestLocalHostDecidesWindowProbing(t *testing.T) {
	for base, want := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://localhost:11434/v1": true, "http://192.168.1.20:8000": true,
		"https://openrouter.ai/api/v1": false, "https://api.example.com": false,
	} {
		if got := localHost(base); got != want {
			t.Errorf("localHost(%q) = %v", base, got)
		}
	}
}

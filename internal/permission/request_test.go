package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// TestGateRecordsRequestAndDecision: every ask reaches the audit sink as a
// permission_request with the fields a surface shows, then the person's
// permission_decision naming it (issue 10: the app's logs held decisions
// without their requests).
func TestGateRecordsRequestAndDecision(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nvar x = 1\n"), 0o644)
	ws, _ := workspace.New(dir)
	defer ws.Close()
	var got []event.Event
	g := newPermissionGate(ws, ModeNormal, func(ctx context.Context, req Request) Decision {
		if req.Path != "a.go" || !strings.Contains(req.Diff, "+var x = 2") || req.Why == "" {
			t.Errorf("request %+v", req)
		}
		return Decision{Choice: Reject, Reason: "use make fmt"}
	})
	g.Audit = event.SinkFunc(func(e event.Event) { got = append(got, e) })
	call := llm.ToolCall{ID: "call_1", Name: "edit_file", Arguments: `{"path":"a.go","old_string":"var x = 1","new_string":"var x = 2"}`}
	if o := g.Decide(context.Background(), call, sideTool{"edit_file", tools.SideWrite}); o.Allow || !strings.Contains(o.Reason, "use make fmt") {
		t.Fatalf("outcome %+v", o)
	}
	if len(got) != 2 || got[0].Type != event.PermissionRequest || got[1].Type != event.PermissionDecision {
		t.Fatalf("events %+v", got)
	}
	req, dec := got[0].Permission, got[1].Permission
	if req.ID != "call_1" || req.Tool != "edit_file" || req.Path != "a.go" || !strings.Contains(req.Diff, "-var x = 1") || req.Reason == "" {
		t.Errorf("request event %+v", req)
	}
	if dec.ID != "call_1" || dec.Decision != "deny" || dec.Reason != "use make fmt" {
		t.Errorf("decision event %+v", dec)
	}
}

// TestAllowAlwaysPersistsAPrefixGrant: "always" with a prefix is saved in
// grants.json, so a new engine (a later session) runs `go test -run X`
// without asking.
func TestAllowAlwaysPersistsAPrefixGrant(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	cfg := t.TempDir()
	bash := func(cmd string) llm.ToolCall {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return llm.ToolCall{ID: "c", Name: "bash", Arguments: string(b)}
	}
	sh := sideTool{"bash", tools.SideShell}
	e, _ := New(Config{Workspace: ws, Home: cfg, ConfigDir: cfg})
	var asked Request
	g := &Gate{Engine: e, Workspace: ws, Ask: func(ctx context.Context, req Request) Decision {
		asked = req
		return Decision{Choice: AllowAlways, Prefix: req.Prefix}
	}}
	if o := g.Decide(context.Background(), bash("go test ./pkg"), sh); !o.Allow {
		t.Fatalf("%+v", o)
	}
	if asked.Prefix != "go test" || asked.Command != "go test ./pkg" {
		t.Fatalf("request %+v", asked)
	}
	e2, _ := New(Config{Workspace: ws, Home: cfg, ConfigDir: cfg})
	g2 := &Gate{Engine: e2, Workspace: ws}
	if o := g2.Decide(context.Background(), bash("go test -run X ./..."), sh); !o.Allow {
		t.Fatalf("persisted prefix grant not applied: %+v", o)
	}
	if o := g2.Decide(context.Background(), bash("go vet ./..."), sh); o.Allow {
		t.Fatalf("prefix grant covered another command: %+v", o)
	}
}

func TestSuggestPrefix(t *testing.T) {
	for cmd, want := range map[string]string{
		"go test ./...":         "go test",
		"npm run build":         "npm run",
		"git status":            "git status",
		"ls -la":                "ls",
		"make":                  "make",
		"python3 script.py":     "python3",
		"go test ./... && rm x": "",
		"cat a | grep b":        "",
		"$(echo rm) -rf x":      "",
		"FOO=1 go test ./...":   "go test",
		"./run.sh --fast":       "./run.sh",
	} {
		if got := SuggestPrefix(cmd, shellguard.Options{Workspace: "/w"}); got != want {
			t.Errorf("SuggestPrefix(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestParseChoiceAndMode(t *testing.T) {
	for in, want := range map[string]Choice{"allow_once": AllowOnce, "allow": AllowOnce, "allow_session": AllowSession, "allow_always": AllowAlways, "always": AllowAlways, "deny": Reject} {
		if got, err := ParseChoice(in); err != nil || got != want {
			t.Errorf("ParseChoice(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseChoice("maybe"); err == nil {
		t.Error("ParseChoice accepted maybe")
	}
	for in, want := range map[string]Mode{"": ModeNormal, "normal": ModeNormal, "ask": ModeNormal, "default": ModeNormal, "auto-accept": ModeAutoAccept, "acceptEdits": ModeAutoAccept, "plan": ModePlan} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("yolo"); err == nil {
		t.Error("ParseMode accepted yolo")
	}
	if ModeNormal.Next() != ModeAutoAccept || ModeAutoAccept.Next() != ModePlan || ModePlan.Next() != ModeNormal {
		t.Error("Shift+Tab cycle")
	}
}

// TestAllowAlwaysHoldsInItsWorkspaceOnly: "always" on a file write is
// saved for the workspace it was given in; another workspace still asks
// (it used to approve every later write everywhere).
func TestAllowAlwaysHoldsInItsWorkspaceOnly(t *testing.T) {
	cfg := t.TempDir()
	one, _ := workspace.New(t.TempDir())
	defer one.Close()
	two, _ := workspace.New(t.TempDir())
	defer two.Close()
	write := llm.ToolCall{ID: "w", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}
	wt := sideTool{"write_file", tools.SideWrite}
	e1, _ := New(Config{Workspace: one, Home: cfg, ConfigDir: cfg})
	g1 := &Gate{Engine: e1, Workspace: one, Ask: func(context.Context, Request) Decision { return Decision{Choice: AllowAlways} }}
	if o := g1.Decide(context.Background(), write, wt); !o.Allow {
		t.Fatalf("%+v", o)
	}
	again, _ := New(Config{Workspace: one, Home: cfg, ConfigDir: cfg})
	if o := (&Gate{Engine: again, Workspace: one}).Decide(context.Background(), write, wt); !o.Allow {
		t.Fatalf("the always grant does not hold in its workspace: %+v", o)
	}
	e2, _ := New(Config{Workspace: two, Home: cfg, ConfigDir: cfg})
	if o := (&Gate{Engine: e2, Workspace: two}).Decide(context.Background(), write, wt); o.Allow {
		t.Fatalf("an always grant from another workspace approved a write: %+v", o)
	}
}

// TestGrantThatCannotBeSavedWarns: an "always" whose grants file cannot be
// written still runs the call, and says the grant was not kept.
func TestGrantThatCannotBeSavedWarns(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	cfg := filepath.Join(t.TempDir(), "zero")
	os.Mkdir(cfg, 0o755)
	e, err := New(Config{Workspace: ws, Home: t.TempDir(), ConfigDir: cfg})
	if err != nil {
		t.Fatal(err)
	}
	// The config dir turns into a file after start-up: saving fails (as
	// root, permission bits would not stop the write).
	os.Remove(cfg)
	os.WriteFile(cfg, []byte("not a directory"), 0o644)
	var warned []string
	g := &Gate{Engine: e, Workspace: ws, Audit: event.SinkFunc(func(ev event.Event) {
		if ev.Type == event.Warning {
			warned = append(warned, ev.Text)
		}
	}), Ask: func(context.Context, Request) Decision { return Decision{Choice: AllowAlways} }}
	if o := g.Decide(context.Background(), llm.ToolCall{ID: "w", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}, sideTool{"write_file", tools.SideWrite}); !o.Allow {
		t.Fatalf("%+v", o)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "not saved") {
		t.Fatalf("warnings %q", warned)
	}
}

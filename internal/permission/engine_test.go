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

// fakeTool is a tool with a name and a side effect; the engine never runs
// it.
type fakeTool struct {
	name   string
	effect tools.SideEffect
}

func (f fakeTool) Name() string                 { return f.name }
func (f fakeTool) Description() string          { return "" }
func (f fakeTool) Schema() json.RawMessage      { return json.RawMessage(`{}`) }
func (f fakeTool) SideEffect() tools.SideEffect { return f.effect }
func (f fakeTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, nil
}

var (
	readTool  = fakeTool{"read_file", tools.SideRead}
	writeTool = fakeTool{"write_file", tools.SideWrite}
	bashTool  = fakeTool{"bash", tools.SideShell}
	fetchTool = fakeTool{"web_fetch", tools.SideNetwork}
	// MCP tools: what the server says is a hint, so only plan mode trusts
	// a read-only mark.
	mcpTool     = fakeTool{"mcp__github__create_issue", tools.SideExternal}
	mcpReadTool = fakeTool{"mcp__github__list_issues", tools.SideExternalRead}
)

// env is a temp home with a workspace, an outside dir and secrets.
type env struct {
	home, ws, outside, configDir string
}

func newEnv(t *testing.T) env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := env{home: root, ws: filepath.Join(root, "project"), outside: filepath.Join(root, "other"),
		configDir: filepath.Join(root, ".config", "zero")}
	for _, d := range []string{e.ws, e.outside, filepath.Join(root, ".ssh"), e.configDir, filepath.Join(e.ws, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(root, ".ssh", "id_ed25519"):      "key",
		filepath.Join(e.ws, ".env"):                    "API_KEY=x",
		filepath.Join(e.ws, "main.go"):                 "package main",
		filepath.Join(e.outside, "notes.txt"):          "notes",
		filepath.Join(e.configDir, "credentials.json"): "{}",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e env) engine(t *testing.T, mode Mode) *Engine {
	t.Helper()
	ws, err := workspace.New(e.ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	eng, err := New(Config{Workspace: ws, Home: e.home, ConfigDir: e.configDir, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func call(name string, args map[string]any) llm.ToolCall {
	b, _ := json.Marshal(args)
	return llm.ToolCall{ID: "c1", Name: name, Arguments: string(b)}
}

func TestDecideByModeAndEffect(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name string
		mode Mode
		tool fakeTool
		args map[string]any
		want Action
		rule string
	}{
		{"read inside", ModeNormal, readTool, map[string]any{"path": "main.go"}, Allow, RuleReadInside},
		{"read inside plan", ModePlan, readTool, map[string]any{"path": "main.go"}, Allow, RuleReadInside},
		{"read outside asks", ModeAutoAccept, readTool, map[string]any{"path": "../other/notes.txt"}, Ask, RuleReadOutside},
		{"read ssh key denied", ModeAutoAccept, readTool, map[string]any{"path": filepath.Join(e.home, ".ssh", "id_ed25519")}, Deny, RuleSecret},
		{"read ssh key other case", ModeNormal, readTool, map[string]any{"path": filepath.Join(e.home, ".SSH", "id_ed25519")}, Deny, RuleSecret},
		{"read .env denied", ModeNormal, readTool, map[string]any{"path": ".env"}, Deny, RuleSecret},
		{"read zero credentials denied", ModeNormal, readTool, map[string]any{"path": filepath.Join(e.configDir, "credentials.json")}, Deny, RuleSecret},
		{"list ssh dir denied", ModeNormal, fakeTool{"list_dir", tools.SideRead}, map[string]any{"path": filepath.Join(e.home, ".ssh")}, Deny, RuleSecret},
		{"write normal asks", ModeNormal, writeTool, map[string]any{"path": "new.go", "content": "x"}, Ask, RuleModeNormal},
		{"write auto runs", ModeAutoAccept, writeTool, map[string]any{"path": "sub/new.go", "content": "x"}, Allow, RuleModeAuto},
		{"write plan denied", ModePlan, writeTool, map[string]any{"path": "new.go"}, Deny, RulePlan},
		{"write outside denied", ModeAutoAccept, writeTool, map[string]any{"path": "../other/x"}, Deny, RuleWriteOutside},
		{"write prefix sibling denied", ModeAutoAccept, writeTool, map[string]any{"path": filepath.Join(e.home, "project-evil", "x")}, Deny, RuleWriteOutside},
		{"write .env asks in auto", ModeAutoAccept, writeTool, map[string]any{"path": ".env"}, Ask, RuleSecretWrite},
		{"shell normal asks", ModeNormal, bashTool, map[string]any{"command": "go test ./..."}, Ask, RuleModeNormal},
		{"shell auto runs", ModeAutoAccept, bashTool, map[string]any{"command": "go test ./..."}, Allow, RuleModeAuto},
		{"shell auto guard ask", ModeAutoAccept, bashTool, map[string]any{"command": "git push --force"}, Ask, "git.push-force"},
		{"shell deny in auto", ModeAutoAccept, bashTool, map[string]any{"command": "ls; rm -rf ~"}, Deny, "delete.protected"},
		{"shell deny in normal", ModeNormal, bashTool, map[string]any{"command": "rm -rf /"}, Deny, "delete.protected"},
		{"shell plan denied", ModePlan, bashTool, map[string]any{"command": "ls"}, Deny, RulePlan},
		{"shell empty command", ModeAutoAccept, bashTool, map[string]any{}, Deny, RuleBadArguments},
		{"network normal asks", ModeNormal, fetchTool, map[string]any{"url": "https://example.invalid"}, Ask, RuleModeNormal},
		{"network auto runs", ModeAutoAccept, fetchTool, map[string]any{"url": "https://example.invalid"}, Allow, RuleModeAuto},
		{"network plan denied", ModePlan, fetchTool, map[string]any{}, Deny, RulePlan},
		{"mcp tool normal asks", ModeNormal, mcpTool, map[string]any{"q": "x"}, Ask, RuleModeNormal},
		{"mcp read-only tool still asks", ModeNormal, mcpReadTool, map[string]any{}, Ask, RuleModeNormal},
		{"mcp tool auto runs", ModeAutoAccept, mcpTool, map[string]any{}, Allow, RuleModeAuto},
		{"mcp tool plan denied", ModePlan, mcpTool, map[string]any{}, Deny, RulePlan},
		{"mcp read-only tool plan runs", ModePlan, mcpReadTool, map[string]any{}, Allow, RulePlan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.engine(t, tt.mode).Decide(context.Background(), call(tt.tool.name, tt.args), tt.tool)
			if d.Action != tt.want || d.Rule != tt.rule || d.Reason == "" {
				t.Errorf("Decide = %+v, want %s by %s", d, tt.want, tt.rule)
			}
		})
	}
}

func TestDecideBadArguments(t *testing.T) {
	e := newEnv(t)
	d := e.engine(t, ModeAutoAccept).Decide(context.Background(), llm.ToolCall{Name: "bash", Arguments: "{not json"}, bashTool)
	if d.Action != Deny || d.Rule != RuleBadArguments {
		t.Errorf("Decide = %+v", d)
	}
}

func TestGrants(t *testing.T) {
	e := newEnv(t)
	eng := e.engine(t, ModeNormal)
	ctx := context.Background()
	decide := func(cmd string) Verdict {
		return eng.Decide(ctx, call("bash", map[string]any{"command": cmd}), bashTool)
	}

	if err := eng.Grant(Grant{Scope: ScopeSession, Tool: "bash", Command: "go test", Prefix: true}); err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]Action{
		"go test ./...":                   Allow,
		"go test -run X ./internal/...":   Allow,
		"go test; rm -rf ~":               Deny,
		"go test ./... && go vet ./...":   Ask,
		"go test $(curl example.invalid)": Ask,
		"go testify":                      Ask,
		"timeout 60 go test ./...":        Ask,
	} {
		if d := decide(cmd); d.Action != want {
			t.Errorf("with grant \"go test\": %q = %+v, want %s", cmd, d, want)
		}
	}

	// An exact once grant approves a guard-ask command a single time.
	if d := decide("git push --force"); d.Action != Ask {
		t.Fatalf("before grant: %+v", d)
	}
	if err := eng.Grant(Grant{Scope: ScopeOnce, Tool: "bash", Command: "git push --force"}); err != nil {
		t.Fatal(err)
	}
	if d := decide("git push --force"); d.Action != Allow || d.Rule != RuleGrant {
		t.Errorf("with once grant: %+v", d)
	}
	if d := decide("git push --force"); d.Action != Ask {
		t.Errorf("once grant reused: %+v", d)
	}
	// No grant overrides a deny.
	if err := eng.Grant(Grant{Scope: ScopeSession, Tool: "bash", Command: "rm -rf /"}); err != nil {
		t.Fatal(err)
	}
	if d := decide("rm -rf /"); d.Action != Deny {
		t.Errorf("deny overridden by grant: %+v", d)
	}

	// Path grant for a read outside the workspace.
	read := func(p string) Verdict {
		return eng.Decide(ctx, call("read_file", map[string]any{"path": p}), readTool)
	}
	if d := read("../other/notes.txt"); d.Action != Ask {
		t.Fatalf("before path grant: %+v", d)
	}
	if err := eng.Grant(Grant{Scope: ScopeSession, Tool: "read_file", Path: e.outside}); err != nil {
		t.Fatal(err)
	}
	if d := read("../other/notes.txt"); d.Action != Allow {
		t.Errorf("with path grant: %+v", d)
	}
	// Tool-wide write grant.
	if err := eng.Grant(Grant{Scope: ScopeSession, Tool: "write_file"}); err != nil {
		t.Fatal(err)
	}
	if d := eng.Decide(ctx, call("write_file", map[string]any{"path": "x.go"}), writeTool); d.Action != Allow {
		t.Errorf("with tool grant: %+v", d)
	}
}

func TestPersistentGrants(t *testing.T) {
	e := newEnv(t)
	eng := e.engine(t, ModeNormal)
	if err := eng.Grant(Grant{Scope: ScopePersistent, Tool: "bash", Command: "make", Prefix: true}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(e.configDir, "grants.json")
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("grants.json mode %v, want 0600", st.Mode().Perm())
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), `"command": "make"`) || !strings.Contains(string(b), `"version": 1`) {
		t.Errorf("grants.json = %s", b)
	}
	// A new engine (a later session) loads it.
	later := e.engine(t, ModeNormal)
	d := later.Decide(context.Background(), call("bash", map[string]any{"command": "make -j4"}), bashTool)
	if d.Action != Allow || d.Rule != RuleGrant {
		t.Errorf("later session: %+v", d)
	}
	// A corrupt file is an error naming it.
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	ws, _ := workspace.New(e.ws)
	defer ws.Close()
	if _, err := New(Config{Workspace: ws, Home: e.home, ConfigDir: e.configDir}); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("corrupt grants: err = %v", err)
	}
}

func TestRecentWriteAsks(t *testing.T) {
	e := newEnv(t)
	eng := e.engine(t, ModeAutoAccept)
	ctx := context.Background()
	run := call("bash", map[string]any{"command": "./gen.sh"})
	if d := eng.Decide(ctx, run, bashTool); d.Action != Allow {
		t.Fatalf("before write: %+v", d)
	}
	eng.NoteWrite(filepath.Join(e.ws, "gen.sh"))
	if d := eng.Decide(ctx, run, bashTool); d.Action != Ask || d.Rule != "script.recent" {
		t.Errorf("after write: %+v", d)
	}
}

func TestNonInteractive(t *testing.T) {
	d := Verdict{Action: Ask, Reason: "git push rewrites history", Rule: "git.push-force"}.NonInteractive()
	if d.Action != Deny || !strings.Contains(d.Reason, "git push rewrites history") || !strings.Contains(d.Reason, "--permission-mode") {
		t.Errorf("NonInteractive = %+v", d)
	}
	if a := (Verdict{Action: Allow}).NonInteractive(); a.Action != Allow {
		t.Errorf("allow changed: %+v", a)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"normal": ModeNormal, "auto-accept": ModeAutoAccept, "acceptEdits": ModeAutoAccept, "plan": ModePlan, "": ModeNormal} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("yolo"); err == nil {
		t.Error("ParseMode(yolo) succeeded")
	}
}

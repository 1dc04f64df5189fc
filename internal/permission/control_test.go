package permission

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/rules"
)

// TestDecideControlWrites: writes into .git and .zero ask in every mode
// that writes, headless runs refuse them, and only a person's grant of a
// path inside the folder approves one (QA: .zero/hooks.json,
// .git/hooks/pre-commit and .git/config written under --auto-approve).
func TestDecideControlWrites(t *testing.T) {
	e := newEnv(t)
	editTool := fakeTool{"edit_file", writeTool.effect}
	paths := []string{".zero/hooks.json", ".zero/rules.json", ".zero/config.json", ".git/hooks/pre-commit", ".git/config",
		".git", "sub/../.git/info/x", filepath.Join(e.ws, ".git", "config")}
	for _, mode := range []Mode{ModeNormal, ModeAutoAccept} {
		for _, tool := range []fakeTool{writeTool, editTool} {
			for _, p := range paths {
				d := e.engine(t, mode).Decide(context.Background(), call(tool.name, map[string]any{"path": p, "content": "x"}), tool)
				if d.Action != Ask || d.Rule != RuleControlWrite || !strings.Contains(d.Reason, "person") {
					t.Errorf("%s %s %s: %+v, want ask by %s", mode, tool.name, p, d, RuleControlWrite)
				}
				if nd := d.NonInteractive(); nd.Action != Deny {
					t.Errorf("%s %s %s headless: %+v", mode, tool.name, p, nd)
				}
			}
		}
	}
	// A link inside the workspace that leads into .git is judged by
	// where it leads.
	if err := os.MkdirAll(filepath.Join(e.ws, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.ws, ".git", "hooks"), filepath.Join(e.ws, "hooklink")); err != nil {
		t.Fatal(err)
	}
	if d := e.engine(t, ModeAutoAccept).Decide(context.Background(), call("write_file", map[string]any{"path": "hooklink/pre-commit"}), writeTool); d.Action != Ask || d.Rule != RuleControlWrite {
		t.Errorf("write through a link into .git/hooks: %+v", d)
	}
	// Neighbours are ordinary files.
	for _, p := range []string{".gitignore", ".github/workflows/ci.yml", "zero/x", ".zerox", "ZERO.md", "sub/.git-notes"} {
		d := e.engine(t, ModeAutoAccept).Decide(context.Background(), call("write_file", map[string]any{"path": p}), writeTool)
		if d.Action != Allow {
			t.Errorf("auto-accept write %s: %+v, want allow", p, d)
		}
	}
	// Plan mode still refuses outright.
	if d := e.engine(t, ModePlan).Decide(context.Background(), call("write_file", map[string]any{"path": ".git/config"}), writeTool); d.Action != Deny {
		t.Errorf("plan: %+v", d)
	}

	eng := e.engine(t, ModeAutoAccept)
	target := call("write_file", map[string]any{"path": ".git/hooks/pre-commit"})
	// A tool-wide grant, a wildcard grant of the workspace, a grant of
	// the workspace itself and a rules.json allow do not approve it.
	for _, g := range []Grant{{Scope: ScopeSession, Tool: "write_file"}, {Scope: ScopeSession, Tool: "*", Path: e.ws},
		{Scope: ScopeSession, Tool: "write_file", Path: e.ws}, {Scope: ScopeSession, Tool: "*", Path: filepath.Join(e.ws, ".git")}} {
		if err := eng.Grant(g); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := rules.Parse([]byte(`{"rules":[{"id":"all","on":"edit","match":"**","action":"allow"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	eng.SetRules(rules.New(nil, rs))
	if d := eng.Decide(context.Background(), target, writeTool); d.Action != Ask || d.Rule != RuleControlWrite {
		t.Errorf("broad grants or a rule approved a .git write: %+v", d)
	}
	// A once grant of that path by a person approves it once.
	if err := eng.Grant(Grant{Scope: ScopeOnce, Tool: "write_file", Path: filepath.Join(e.ws, ".git", "hooks", "pre-commit")}); err != nil {
		t.Fatal(err)
	}
	if d := eng.Decide(context.Background(), target, writeTool); d.Action != Allow || d.Rule != RuleGrant {
		t.Errorf("after a path grant: %+v", d)
	}
	if d := eng.Decide(context.Background(), target, writeTool); d.Action != Ask {
		t.Errorf("once grant reused: %+v", d)
	}
}

package permission

import (
	"context"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

// apply_patch is decided as a write of every file its patch names: the
// strictest verdict of them holds.
func TestApplyPatchIsDecidedByEveryPathItWrites(t *testing.T) {
	e := newEnv(t)
	patchTool := fakeTool{tools.ApplyPatchName, tools.SideWrite}
	patch := func(paths ...string) map[string]any {
		p := "*** Begin Patch\n"
		for _, f := range paths {
			p += "*** Add File: " + f + "\n+x\n"
		}
		return map[string]any{"patch": p + "*** End Patch\n"}
	}
	tests := []struct {
		name string
		mode Mode
		args map[string]any
		want Action
		rule string
	}{
		{"plain files ask in normal mode", ModeNormal, patch("a.go", "b.go"), Ask, RuleModeNormal},
		{"plain files run in auto-accept", ModeAutoAccept, patch("a.go", "sub/b.go"), Allow, RuleModeAuto},
		{"a git hook among them asks in auto-accept", ModeAutoAccept, patch("a.go", ".git/hooks/pre-commit"), Ask, RuleControlWrite},
		{"a file outside the workspace is refused", ModeAutoAccept, patch("a.go", "../other/x.go"), Deny, RuleWriteOutside},
		{"a secret file asks", ModeAutoAccept, patch(".env"), Ask, RuleSecretWrite},
		{"plan mode refuses", ModePlan, patch("a.go"), Deny, RulePlan},
		{"the input alias is read too", ModeAutoAccept, map[string]any{"input": patch(".git/config")["patch"]}, Ask, RuleControlWrite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.engine(t, tt.mode).Decide(context.Background(), call(patchTool.name, tt.args), patchTool)
			if d.Action != tt.want || d.Rule != tt.rule {
				t.Errorf("Decide = %+v, want %s by %s", d, tt.want, tt.rule)
			}
		})
	}
}

package permission

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

// TestShellDeletesInAutoAcceptWithCheckpoints: with checkpoints on, a
// recursive or glob delete inside the workspace runs in auto-accept mode
// (a rewind can undo it); deleting the workspace, .git, a nested
// repository, a symbolic link, .gitignored or unrecorded files (nothing
// could bring them back), anything outside, or a path computed at run
// time still asks or is refused, and normal mode still asks. With
// checkpoints off (ZERO_CHECKPOINTS=0) every one asks as before.
func TestShellDeletesInAutoAcceptWithCheckpoints(t *testing.T) {
	e := newEnv(t)
	for _, d := range []string{"src/a", "vendor/lib/.git", ".git", "node_modules/x", "gen/obj", "links"} {
		os.MkdirAll(filepath.Join(e.ws, d), 0o755)
	}
	for p, body := range map[string]string{".gitignore": "node_modules/\n*.o\n", "src/a/x.go": "package a\n", "gen/obj/y.o": "obj", "gen/obj/y.c": "c"} {
		os.WriteFile(filepath.Join(e.ws, p), []byte(body), 0o644)
	}
	os.Symlink(e.outside, filepath.Join(e.ws, "out"))
	os.Symlink("../src", filepath.Join(e.ws, "links", "src"))
	engine := func(t *testing.T, mode Mode, ckpt bool) *Engine {
		ws, err := workspace.New(e.ws)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		eng, err := New(Config{Workspace: ws, Home: e.home, ConfigDir: e.configDir, Mode: mode, Checkpoints: ckpt})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
	type want struct {
		action Action
		rule   string
	}
	for _, c := range []struct {
		cmd     string
		on, off want // auto-accept with checkpoints on, off
	}{
		{"rm -rf src", want{Allow, RuleModeAuto}, want{Ask, "delete.recursive"}},
		{"rm -rf src/a sub", want{Allow, RuleModeAuto}, want{Ask, "delete.recursive"}},
		{"rm src/*.o", want{Allow, RuleModeAuto}, want{Ask, "delete.files"}},
		{"find src -name '*.o' -delete", want{Allow, RuleModeAuto}, want{Ask, "delete.recursive"}},
		{"rm -rf .", want{Ask, "delete.workspace"}, want{Ask, "delete.workspace"}},
		{"rm -rf ./", want{Ask, "delete.workspace"}, want{Ask, "delete.workspace"}},
		{"rm -rf .git", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf node_modules", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf gen", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf links", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf missing/dir", want{Allow, RuleModeAuto}, want{Ask, "delete.recursive"}},
		{"rm -rf vendor/lib", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf out/", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf ../other", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf $X", want{Ask, "delete.recursive"}, want{Ask, "delete.recursive"}},
		{"rm -rf ~", want{Deny, "delete.protected"}, want{Deny, "delete.protected"}},
		{"rm -rf src; git push --force", want{Ask, "git.push-force"}, want{Ask, "delete.recursive"}},
	} {
		for _, ckpt := range []bool{true, false} {
			w := c.off
			if ckpt {
				w = c.on
			}
			d := engine(t, ModeAutoAccept, ckpt).Decide(context.Background(), call("bash", map[string]any{"command": c.cmd}), bashTool)
			if d.Action != w.action || d.Rule != w.rule {
				t.Errorf("auto-accept, checkpoints %v: %s: %s by %s (%s), want %s by %s", ckpt, c.cmd, d.Action, d.Rule, d.Reason, w.action, w.rule)
			}
		}
		if d := engine(t, ModeNormal, true).Decide(context.Background(), call("bash", map[string]any{"command": c.cmd}), bashTool); d.Action == Allow {
			t.Errorf("normal mode, checkpoints on: %s runs without asking (%s)", c.cmd, d.Rule)
		}
	}
}

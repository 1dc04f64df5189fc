package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrapControlReadOnly runs real bubblewrap: a sandboxed command cannot
// plant a git hook, change .git/config or write .zero, but git add and
// git commit still work (QA: hooks and core.fsmonitor written under
// --auto-approve ran outside the sandbox later).
func TestWrapControlReadOnly(t *testing.T) {
	if name, detail := BackendInfo(); name != BackendBubblewrap {
		t.Logf("bubblewrap not available (%s): checking only the arguments", detail)
	}
	for _, withHooks := range []bool{true, false} {
		d := newSandboxDirs(t)
		git := func(args ...string) {
			t.Helper()
			cmd := exec.Command("git", append([]string{"-C", d.ws}, args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		git("init", "-q")
		if !withHooks {
			if err := os.RemoveAll(filepath.Join(d.ws, ".git", "hooks")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(d.ws, ".zero"), 0o755); err != nil {
			t.Fatal(err)
		}
		p := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{d.secret}, Backend: BackendBubblewrap}
		args := strings.Join(readOnlyControl(d.ws), " ")
		for _, want := range []string{filepath.Join(d.ws, ".git", "hooks"), filepath.Join(d.ws, ".git", "config"), filepath.Join(d.ws, ".zero")} {
			if !strings.Contains(args, want) {
				t.Errorf("readOnlyControl does not cover %s: %s", want, args)
			}
		}
		if Backend() != BackendBubblewrap {
			continue
		}
		for _, script := range []string{
			"mkdir -p .git/hooks && echo 'touch pwned' > .git/hooks/pre-commit",
			"echo '[core] fsmonitor = touch pwned' >> .git/config",
			"git config core.fsmonitor 'touch pwned'",
			"echo '{}' > .zero/hooks.json",
			"rm -rf .git/hooks",
		} {
			if out, err := run(t, p, d.ws, script); err == nil {
				t.Errorf("sandboxed %q succeeded: %s", script, out)
			}
		}
		if exists(filepath.Join(d.ws, ".git", "hooks", "pre-commit")) || exists(filepath.Join(d.ws, ".zero", "hooks.json")) {
			t.Error("a control file was written")
		}
		if b, _ := os.ReadFile(filepath.Join(d.ws, ".git", "config")); strings.Contains(string(b), "fsmonitor") {
			t.Errorf(".git/config changed: %s", b)
		}
		out, err := run(t, p, d.ws, "echo hi > a.txt && git add a.txt && git -c user.name=z -c user.email=z@example.invalid commit -q -m first && git log --oneline | wc -l")
		if err != nil || strings.TrimSpace(out) != "1" {
			t.Errorf("git add/commit in the sandbox: %v %q", err, out)
		}
	}
}

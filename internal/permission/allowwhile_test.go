package permission

import (
	"context"
	"testing"
)

// TestAllowWhileSparesOnlyNormalModesQuestion: a command's allowed-tools
// allow its calls until done, and weigh as allow rules: the settings' ask
// and deny rules and the guard's questions still hold.
func TestAllowWhileSparesOnlyNormalModesQuestion(t *testing.T) {
	e := newEnv(t)
	eng := e.rulesEngine(t, ModeNormal, mustRules(t, map[Origin]map[string][]string{
		OriginUser: {"ask": {"Bash(git push:*)"}, "deny": {"Bash(curl:*)"}},
	}))
	allow := mustRules(t, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(git:*)", "Bash(curl:*)"}}}).Allow
	decide := func(cmd string) Verdict {
		return eng.Decide(context.Background(), call("bash", map[string]any{"command": cmd}), bashTool)
	}
	if v := decide("git status"); v.Action != Ask {
		t.Fatalf("before: %s %s", v.Action, v.Rule)
	}
	done := eng.AllowWhile(allow)
	for cmd, want := range map[string]Action{"git status": Allow, "git push origin": Ask, "curl x.invalid": Deny, "git push --force": Ask, "ls": Ask} {
		if v := decide(cmd); v.Action != want {
			t.Errorf("during, %s: %s %s (%s), want %s", cmd, v.Action, v.Rule, v.Reason, want)
		}
	}
	done()
	if v := decide("git status"); v.Action != Ask {
		t.Errorf("after: %s %s", v.Action, v.Rule)
	}
}

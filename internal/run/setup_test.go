package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// setupFolders writes a user and a project settings layout under a fresh
// home and returns the workspace root and home.
func setupFolders(t *testing.T) (root, home string) {
	t.Helper()
	home = t.TempDir()
	root = t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hook := func(cmd string) string {
		return `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + cmd + `"}]}]}`
	}
	write(filepath.Join(home, ".claude", "settings.json"), `{"hooks": `+hook("claude-user")+`, "permissions": {"deny": ["Bash(curl:*)"]}}`)
	write(filepath.Join(home, ".config", "zero", "settings.json"), `{"hooks": `+hook("zero-user")+`}`)
	write(filepath.Join(root, ".claude", "settings.json"), `{"hooks": `+hook("claude-project")+`, "permissions": {"allow": ["Bash(go test:*)", "Task(x)"]}}`)
	write(filepath.Join(root, ".claude", "settings.local.json"), `{"hooks": `+hook("claude-local")+`}`)
	write(filepath.Join(root, ".zero", "settings.json"), `{"hooks": `+hook("zero-project")+`}`)
	write(filepath.Join(root, ".zero", "hooks.json"), `{"beforeTool": [{"command": "zero-legacy"}]}`)
	return root, home
}

func preToolCommands(c hooks.Config) []string {
	var out []string
	for _, h := range c[hooks.PreToolUse] {
		out = append(out, h.Command)
	}
	return out
}

func TestSetupLoadsUserThenTrustedProjectFilesInOrder(t *testing.T) {
	root, home := setupFolders(t)
	cfg := &config.Config{Hooks: json.RawMessage(`{"PreToolUse": [{"hooks": [{"command": "config-key"}]}]}`),
		ProjectHooks: json.RawMessage(`{"sessionEnd": [{"command": "project-config-key"}]}`)}

	s, err := LoadSetup(root, home, cfg, true, ToolFlags{Disallowed: []string{"Bash(go test:*) WebFetch"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "claude-user zero-user config-key claude-project claude-local zero-project zero-legacy"
	if got := strings.Join(preToolCommands(s.Hooks), " "); got != want {
		t.Errorf("hooks run in order %q, want %q", got, want)
	}
	if len(s.Hooks[hooks.SessionEnd]) != 1 || !s.Hooks[hooks.SessionEnd][0].Legacy {
		t.Errorf("the project config's hooks key: %+v", s.Hooks[hooks.SessionEnd])
	}
	if len(s.Rules.Deny) != 3 || len(s.Rules.Allow) != 1 || s.Rules.Deny[1].Source != "--disallowed-tools" {
		t.Errorf("rules = %+v", s.Rules)
	}
	warned := strings.Join(s.Warnings, "\n")
	if !strings.Contains(warned, "Task(x)") || !strings.Contains(warned, "earlier hook format") {
		t.Errorf("warnings = %s", warned)
	}

	s, err = LoadSetup(root, home, cfg, false, ToolFlags{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(preToolCommands(s.Hooks), " "); got != "claude-user zero-user config-key" {
		t.Errorf("untrusted hooks = %q", got)
	}
	if len(s.Rules.Allow) != 0 || len(s.Ignored) != 5 {
		t.Errorf("untrusted: rules %+v, ignored %q", s.Rules, s.Ignored)
	}
}

func TestSetupErrorsNameTheFile(t *testing.T) {
	root, home := setupFolders(t)
	bad := filepath.Join(root, ".claude", "settings.local.json")
	os.WriteFile(bad, []byte(`{"hooks": {"PreToolUse": [{"hooks": [{"command": ""}]}]}}`), 0o644)
	if _, err := LoadSetup(root, home, &config.Config{}, true, ToolFlags{}, nil); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a bad hook's error = %v, want it to name %s", err, bad)
	}
	os.WriteFile(bad, []byte(`{"hooks": `), 0o644)
	if s, err := LoadSetup(root, home, &config.Config{}, false, ToolFlags{}, nil); err != nil || !strings.Contains(strings.Join(s.Ignored, " "), ".claude/settings.local.json") {
		t.Errorf("an untrusted folder's broken settings file stops Zero (%v) or is not listed as ignored", err)
	}
	if _, err := LoadSetup(root, home, &config.Config{}, false, ToolFlags{Allowed: []string{"Bash(go test"}}, nil); err == nil || !strings.Contains(err.Error(), "--allowed-tools") {
		t.Errorf("a bad flag rule's error = %v", err)
	}
}

func TestAToolDeniedWholeIsNotOffered(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{Tools: ToolFlags{Disallowed: []string{"WebFetch"}}})
	sess := openSession(t, rt, Which{})
	var names []string
	for _, tl := range sess.Offered() {
		names = append(names, tl.Name())
	}
	if got := strings.Join(names, " "); strings.Contains(got, "web_fetch") || !strings.Contains(got, "read_file") {
		t.Errorf("offered %s", got)
	}
}

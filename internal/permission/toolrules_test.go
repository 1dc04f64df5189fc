package permission

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

func TestParseToolRule(t *testing.T) {
	tests := []struct {
		in, tool, spec string
		err            string
	}{
		{"Bash", "Bash", "", ""},
		{"Bash(go test:*)", "Bash", "go test:*", ""},
		{"Bash(npm run build)", "Bash", "npm run build", ""},
		{"Bash(*)", "Bash", "", ""},
		{"Read(./src/**)", "Read", "./src/**", ""},
		{"Edit", "Edit", "", ""},
		{"Edit(docs/**)", "Edit", "docs/**", ""},
		{"WebFetch(domain:go.dev)", "WebFetch", "domain:go.dev", ""},
		{"mcp__github__create_issue", "mcp__github__create_issue", "", ""},
		{"mcp__github", "mcp__github", "", ""},
		{"mcp__github__*", "mcp__github__*", "", ""},
		{"bash(go vet:*)", "bash", "go vet:*", ""},
		{" Task ", "Task", "", ""},
		{"Bash(go test", "", "", "closing )"},
		{"Bash(:*)", "", "", "prefix is empty"},
		{"WebFetch(go.dev)", "", "", "domain:HOST"},
		{"Task(explore)", "", "", "only as a whole tool"},
		{"mcp__github(x)", "", "", "without parentheses"},
		{"Read([)", "", "", "not a valid path pattern"},
		{"", "", "", "not a tool name"},
		{"9lives", "", "", "not a tool name"},
	}
	for _, tt := range tests {
		r, err := ParseToolRule(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseToolRule(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || r.Tool != tt.tool || r.Spec != tt.spec {
			t.Errorf("ParseToolRule(%q) = %+v %v, want %s(%s)", tt.in, r, err, tt.tool, tt.spec)
		}
	}
}

func TestSplitRuleList(t *testing.T) {
	got := SplitRuleList("Bash(go test:*),Edit Read(./src/**)  WebFetch(domain:go.dev)")
	want := []string{"Bash(go test:*)", "Edit", "Read(./src/**)", "WebFetch(domain:go.dev)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("SplitRuleList = %q, want %q", got, want)
	}
}

// rulesEngine is an engine in mode with the given rules.
func (e env) rulesEngine(t *testing.T, mode Mode, rs *ToolRules) *Engine {
	t.Helper()
	ws, err := workspace.New(e.ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	eng, err := New(Config{Workspace: ws, Home: e.home, ConfigDir: e.configDir, Mode: mode, ToolRules: rs})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func mustRules(t *testing.T, lists map[Origin]map[string][]string) *ToolRules {
	t.Helper()
	rs := &ToolRules{}
	for origin, byList := range lists {
		for list, raw := range byList {
			if errs := rs.Add(list, raw, origin, string(origin)+".json"); len(errs) > 0 {
				t.Fatal(errs)
			}
		}
	}
	return rs
}

func TestSettingsRulesPrecedence(t *testing.T) {
	e := newEnv(t)
	editTool := fakeTool{"edit_file", tools.SideWrite}
	grepTool := fakeTool{"grep", tools.SideRead}
	tests := []struct {
		name  string
		mode  Mode
		rules map[Origin]map[string][]string
		tool  fakeTool
		args  map[string]any
		want  Action
		rule  string
	}{
		{"allow prefix spares the normal-mode question", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(go test:*)"}}},
			bashTool, map[string]any{"command": "go test ./..."}, Allow, RuleSettingsAllow},
		{"allow prefix is a word prefix", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(go test:*)"}}},
			bashTool, map[string]any{"command": "go testify"}, Ask, RuleModeNormal},
		{"allow needs every part of a compound command", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(go test:*)"}}},
			bashTool, map[string]any{"command": "go test ./... && ls"}, Ask, RuleModeNormal},
		{"two allows cover two parts", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(go test:*)", "Bash(go vet:*)"}}},
			bashTool, map[string]any{"command": "go vet ./... && go test ./..."}, Allow, RuleSettingsAllow},
		{"exact command", ModeNormal, map[Origin]map[string][]string{OriginProject: {"allow": {"Bash(npm run build)"}}},
			bashTool, map[string]any{"command": "npm run build"}, Allow, RuleSettingsAllow},
		{"exact command is exact", ModeNormal, map[Origin]map[string][]string{OriginProject: {"allow": {"Bash(npm run build)"}}},
			bashTool, map[string]any{"command": "npm run build --prod"}, Ask, RuleModeNormal},
		{"deny wins over allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(git:*)"}, "deny": {"Bash(git push:*)"}}},
			bashTool, map[string]any{"command": "git push origin main"}, Deny, RuleSettingsDeny},
		{"deny in any part of a command", ModeAutoAccept, map[Origin]map[string][]string{OriginUser: {"deny": {"Bash(curl:*)"}}},
			bashTool, map[string]any{"command": "ls && curl x.invalid"}, Deny, RuleSettingsDeny},
		{"a Bash deny covers exec_command", ModeAutoAccept, map[Origin]map[string][]string{OriginUser: {"deny": {"Bash(curl:*)"}}},
			execTool, map[string]any{"cmd": "curl x.invalid"}, Deny, RuleSettingsDeny},
		{"a Bash allow covers exec_command", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(npm run dev)"}}},
			execTool, map[string]any{"cmd": "npm run dev"}, Allow, RuleSettingsAllow},
		{"deny beats auto-accept", ModeAutoAccept, map[Origin]map[string][]string{OriginProject: {"deny": {"Edit(docs/**)"}}},
			editTool, map[string]any{"path": "docs/a.md"}, Deny, RuleSettingsDeny},
		{"a project deny holds against a user allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Edit"}}, OriginProject: {"deny": {"Edit(docs/**)"}}},
			editTool, map[string]any{"path": "docs/a.md"}, Deny, RuleSettingsDeny},
		{"a user ask holds against a project allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"ask": {"Bash(npm publish:*)"}}, OriginProject: {"allow": {"Bash"}}},
			bashTool, map[string]any{"command": "npm publish"}, Ask, RuleSettingsAsk},
		{"ask turns auto-accept into a question", ModeAutoAccept, map[Origin]map[string][]string{OriginUser: {"ask": {"Edit(go.mod)"}}},
			writeTool, map[string]any{"path": "go.mod", "content": "x"}, Ask, RuleSettingsAsk},
		{"the guard's refusal stands above allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash"}}},
			bashTool, map[string]any{"command": "rm -rf /"}, Deny, "delete.protected"},
		{"the guard's question stands above allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Bash(git:*)"}}},
			bashTool, map[string]any{"command": "git push --force"}, Ask, "git.push-force"},
		{"plan mode stands above allow", ModePlan, map[Origin]map[string][]string{OriginUser: {"allow": {"Edit"}}},
			editTool, map[string]any{"path": "a.go"}, Deny, RulePlan},
		{"control files stand above allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Edit"}}},
			writeTool, map[string]any{"path": ".git/hooks/pre-commit"}, Ask, RuleControlWrite},
		{"secrets stand above allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Read"}}},
			readTool, map[string]any{"path": ".env"}, Deny, RuleSecret},
		{"Edit covers write_file", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Edit(./src/**)"}}},
			writeTool, map[string]any{"path": "src/a/b.go"}, Allow, RuleSettingsAllow},
		{"an Edit path rule is confined to its folder", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Edit(./src/**)"}}},
			writeTool, map[string]any{"path": "main.go"}, Ask, RuleModeNormal},
		{"Read deny covers grep", ModeNormal, map[Origin]map[string][]string{OriginUser: {"deny": {"Read(./sub/**)"}}},
			grepTool, map[string]any{"pattern": "x", "path": "sub"}, Deny, RuleSettingsDeny},
		{"a bare name matches at any depth", ModeNormal, map[Origin]map[string][]string{OriginUser: {"deny": {"Read(*.go)"}}},
			readTool, map[string]any{"path": "main.go"}, Deny, RuleSettingsDeny},
		{"user allow reads outside", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"Read(~/other/**)"}}},
			readTool, map[string]any{"path": "../other/notes.txt"}, Allow, RuleSettingsAllow},
		{"project allow never reads outside", ModeNormal, map[Origin]map[string][]string{OriginProject: {"allow": {"Read(//**)"}}},
			readTool, map[string]any{"path": "../other/notes.txt"}, Ask, RuleReadOutside},
		{"domain allow", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"WebFetch(domain:go.dev)"}}},
			fetchTool, map[string]any{"url": "https://go.dev/doc"}, Allow, RuleSettingsAllow},
		{"domain allow is that host", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"WebFetch(domain:go.dev)"}}},
			fetchTool, map[string]any{"url": "https://go.dev.evil.invalid/doc"}, Ask, RuleModeNormal},
		{"mcp server rule", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"mcp__github"}}},
			mcpTool, map[string]any{}, Allow, RuleSettingsAllow},
		{"mcp tool rule", ModeNormal, map[Origin]map[string][]string{OriginUser: {"allow": {"mcp__github__list_issues"}}},
			mcpTool, map[string]any{}, Ask, RuleModeNormal},
		{"mcp deny by server", ModeAutoAccept, map[Origin]map[string][]string{OriginFlag: {"deny": {"mcp__github__*"}}},
			mcpTool, map[string]any{}, Deny, RuleSettingsDeny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := e.rulesEngine(t, tt.mode, mustRules(t, tt.rules))
			v := eng.Decide(context.Background(), call(tt.tool.name, tt.args), tt.tool)
			if v.Action != tt.want || v.Rule != tt.rule {
				t.Errorf("Decide = %s %s (%s), want %s %s", v.Action, v.Rule, v.Reason, tt.want, tt.rule)
			}
		})
	}
}

func TestSettingsRuleReasonNamesTheRuleAndFile(t *testing.T) {
	e := newEnv(t)
	rs := &ToolRules{}
	rs.Add("deny", []string{"Bash(curl:*)"}, OriginProject, filepath.Join(e.ws, ".claude", "settings.json"))
	v := e.rulesEngine(t, ModeAutoAccept, rs).Decide(context.Background(), call("bash", map[string]any{"command": "curl x.invalid"}), bashTool)
	if !strings.Contains(v.Reason, "Bash(curl:*)") || !strings.Contains(v.Reason, ".claude/settings.json") {
		t.Errorf("reason = %q", v.Reason)
	}
	if errs := rs.Add("deny", []string{"Bash(", "Task(x)"}, OriginUser, "u.json"); len(errs) != 2 || !strings.Contains(errs[0].Error(), "u.json") {
		t.Errorf("bad rules = %v", errs)
	}
}

func TestDeniesToolOnlyForWholeToolRules(t *testing.T) {
	e := newEnv(t)
	rs := mustRules(t, map[Origin]map[string][]string{OriginFlag: {"deny": {"WebFetch", "Bash(curl:*)", "mcp__github"}}})
	eng := e.rulesEngine(t, ModeNormal, rs)
	for tool, want := range map[string]bool{"web_fetch": true, "bash": false, "mcp__github__create_issue": true, "mcp__gitlab__x": false, "read_file": false} {
		if got := eng.DeniesTool(tool); got != want {
			t.Errorf("DeniesTool(%s) = %v, want %v", tool, got, want)
		}
	}
}

// FuzzParseToolRule: a rule that parses has a tool name and survives
// matching any call shape; splitting a flag gives trimmed pieces of it.
func FuzzParseToolRule(f *testing.F) {
	for _, s := range []string{"Bash(go test:*)", "Read(./src/**)", "WebFetch(domain:go.dev)", "mcp__a__b", "Edit", "Bash(", "Read([)", "Bash(a (b) c)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, part := range SplitRuleList(s) {
			if part == "" || part != strings.TrimSpace(part) || !strings.Contains(s, part) {
				t.Fatalf("SplitRuleList(%q) gave %q", s, part)
			}
		}
		r, err := ParseToolRule(s)
		if err != nil {
			return
		}
		if r.Tool == "" || strings.ContainsAny(r.Tool, "() ") {
			t.Fatalf("ParseToolRule(%q) = %+v", s, r)
		}
		c := callFacts{tool: "bash", parts: [][]string{{"go", "test"}}, partsOK: true, paths: []string{"/w/a"}, host: "go.dev", root: "/w", home: "/h"}
		r.matchAny(c)
		allowedBy([]ToolRule{r}, c)
	})
}

package plugins

import (
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		check      func(Manifest) bool
		err        string
	}{
		{"full", `{"name": "deploy-kit", "version": "1.2.0", "description": "Deploys", "author": {"name": "Ann", "email": "ann@example.com"},
			"commands": ["./extra/cmd.md", "./more"], "agents": "./custom/agents", "skills": "./sk",
			"hooks": "./config/hooks.json", "mcpServers": "./mcp.json", "license": "MIT", "lspServers": "./.lsp.json"}`,
			func(m Manifest) bool {
				return m.Name == "deploy-kit" && m.Version == "1.2.0" && m.Author.String() == "Ann <ann@example.com>" &&
					strings.Join(m.Commands, ",") == "extra/cmd.md,more" && m.Agents[0] == "custom/agents" && m.Skills[0] == "sk" &&
					m.Hooks == "config/hooks.json" && m.MCPServers == "mcp.json" && !m.MCPInline
			}, ""},
		{"name only, comments and trailing commas", "{\n// a plugin\n\"name\": \"x\",\n}", func(m Manifest) bool { return m.Name == "x" }, ""},
		{"author as a string", `{"name": "x", "author": "Bob"}`, func(m Manifest) bool { return m.Author.Name == "Bob" }, ""},
		{"repository as npm's object", `{"name": "x", "repository": {"type": "git", "url": "https://example.com/x.git"}}`,
			func(m Manifest) bool { return m.Repository == "https://example.com/x.git" }, ""},
		{"inline hooks and servers", `{"name": "x", "hooks": {"PreToolUse": []}, "mcpServers": {"api": {"command": "srv"}}}`,
			func(m Manifest) bool { return len(m.HooksInline) > 0 && m.MCPInline && m.MCPServers == "" }, ""},
		{"no name", `{"version": "1"}`, nil, `no "name"`},
		{"empty name", `{"name": ""}`, nil, `no "name"`},
		{"name with a space", `{"name": "my plugin"}`, nil, "not 1-64 letters"},
		{"name with a slash", `{"name": "a/b"}`, nil, "not 1-64 letters"},
		{"name not a string", `{"name": 3}`, nil, "not a plugin manifest (an object with name, version, description, ...): line 1, column 10: name must be a string, not a number"},
		{"not JSON", `{"name": "x"`, nil, "not valid JSON"},
		{"an array", `["x"]`, nil, "not a plugin manifest (an object with name, version, description, ...): line 1, column 1: must be an object, not a list"},
		{"absolute path", `{"name": "x", "commands": "/etc/cmds"}`, nil, "must be relative"},
		{"path leaving the plugin", `{"name": "x", "skills": "./../../home"}`, nil, "leaves the plugin's folder"},
		{"commands a number", `{"name": "x", "commands": 3}`, nil, `"commands" must be a path or a list`},
		{"hooks a list", `{"name": "x", "hooks": [1]}`, nil, `"hooks" must be a path`},
		{"author a number", `{"name": "x", "author": 3}`, nil, `"author" must be`},
		{"empty path", `{"name": "x", "agents": [""]}`, nil, "empty path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseManifest([]byte(tc.json))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !tc.check(m) {
				t.Fatalf("got %+v, %v", m, err)
			}
		})
	}
}

func TestParseMarketplace(t *testing.T) {
	m, err := ParseMarketplace([]byte(`{"name": "team", "owner": {"name": "Ops"}, "metadata": {"pluginRoot": "./plugins"},
		"plugins": [
			{"name": "a", "source": "./a", "description": "A", "version": "1.0.0"},
			{"name": "b", "source": {"source": "github", "repo": "acme/b", "ref": "v2"}},
			{"name": "c", "source": {"source": "url", "url": "https://git.example.com/c.git", "sha": "abc123"}},
			{"name": "d", "source": "https://git.example.com/d.git"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, p := range m.Plugins {
		got = append(got, p.Name+"="+p.Path+p.Git)
	}
	want := "a=a b=https://github.com/acme/b.git#v2 c=https://git.example.com/c.git#abc123 d=https://git.example.com/d.git"
	if strings.Join(got, " ") != want || m.PluginRoot != "plugins" || m.Owner.Name != "Ops" {
		t.Fatalf("got %v root %q owner %+v", got, m.PluginRoot, m.Owner)
	}
	for _, tc := range []struct{ json, err string }{
		{`{"plugins": []}`, "marketplace name"},
		{`{"name": "m", "plugins": [{"name": "x y", "source": "./x"}]}`, "plugins[0]: name"},
		{`{"name": "m", "plugins": [{"name": "x", "source": "../x"}]}`, "leaves the plugin's folder"},
		{`{"name": "m", "plugins": [{"name": "x", "source": {"source": "npm", "package": "x"}}]}`, `source kind "npm"`},
		{`{"name": "m", "plugins": [{"name": "x", "source": {"source": "github"}}]}`, `needs "repo"`},
		{`{"name": "m", "plugins": 3}`, "not a marketplace"},
	} {
		if _, err := ParseMarketplace([]byte(tc.json)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want %q", tc.json, err, tc.err)
		}
	}
}

func TestExpandVar(t *testing.T) {
	for in, want := range map[string]string{
		"${CLAUDE_PLUGIN_ROOT}/run.sh":               "/p/run.sh",
		"$CLAUDE_PLUGIN_ROOT/run.sh":                 "/p/run.sh",
		"sh $CLAUDE_PLUGIN_ROOT":                     "sh /p",
		"$CLAUDE_PLUGIN_ROOTS stays":                 "$CLAUDE_PLUGIN_ROOTS stays",
		"a ${CLAUDE_PLUGIN_ROOT} b ${HOME}":          "a /p b ${HOME}",
		`"${CLAUDE_PLUGIN_ROOT}/x" "$OTHER"`:         `"/p/x" "$OTHER"`,
		"no variable":                                "no variable",
		"${CLAUDE_PLUGIN_ROOT}${CLAUDE_PLUGIN_ROOT}": "/p/p",
	} {
		if got := ExpandVar(in, "CLAUDE_PLUGIN_ROOT", "/p"); got != want {
			t.Errorf("ExpandVar(%q) = %q, want %q", in, got, want)
		}
	}
}

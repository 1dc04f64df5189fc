package mcpconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixture copies testdata/sources into a temp dir and returns Options over
// it: home, config dir and a trusted project whose path the Claude local
// scope names.
func fixture(t *testing.T) Options {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/sources")); err != nil {
		t.Fatal(err)
	}
	o := Options{
		Home:      filepath.Join(root, "home"),
		ConfigDir: filepath.Join(root, "config"),
		Workspace: filepath.Join(root, "project"),
		Trusted:   true,
		GOOS:      "linux",
		LookupEnv: envOf(map[string]string{
			"AIRTABLE_API_KEY": "air-key", "API_KEY": "k123", "HOME": "/home/u",
			"DB_CONNECTION_STRING": "postgres://db", "FETCH_TOKEN": "ft",
		}),
	}
	claude := filepath.Join(o.Home, ".claude.json")
	data, err := os.ReadFile(claude)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte(strings.ReplaceAll(string(data), "@WORKSPACE@", o.Workspace)), 0o600); err != nil {
		t.Fatal(err)
	}
	return o
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// brief is a server in one line: name, origin, transport, on/off and
// what it runs or reaches.
func brief(s Server) string {
	what := s.URL
	if s.Transport == Stdio {
		what = strings.Join(append([]string{s.Command}, s.Args...), " ")
	}
	on := "on"
	if !s.Enabled {
		on = "off"
	}
	return fmt.Sprintf("%s [%s] %s %s: %s", s.Name, s.Origin, s.Transport, on, what)
}

func briefs(ss []Server) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = brief(s)
	}
	return out
}

func find(t *testing.T, ss []Server, name string) Server {
	t.Helper()
	i := slices.IndexFunc(ss, func(s Server) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("no server %q in %q", name, briefs(ss))
	}
	return ss[i]
}

// Every source is read; each name is its highest source's, in the
// documented order, and the lower entries are listed as shadowed.
func TestLoadEverySourceInPrecedenceOrder(t *testing.T) {
	l := Load(fixture(t))
	want := []string{
		"stripe [claude local] http on: https://mcp.stripe.com",
		"shared [claude local] stdio on: claude-local-shared",
		"api-server [project] http on: https://api.example.com/mcp",
		"github [project] http on: https://api.githubcopilot.com/mcp/",
		"filesystem [zero] stdio on: npx -y @modelcontextprotocol/server-filesystem /home/u/src",
		"sentry [claude user] http off: https://mcp.sentry.dev/mcp",
		"airtable [claude user] stdio on: npx -y airtable-mcp-server",
		"puppeteer [claude desktop] stdio on: npx -y @modelcontextprotocol/server-puppeteer",
		"context7 [codex] stdio on: npx -y @upstash/context7-mcp",
		"figma [codex] http on: https://mcp.figma.com/mcp",
		"off [codex] stdio off: off-server",
		"projectGemini [gemini project] stdio on: node tools.js",
		"pythonTools [gemini user] stdio on: python -m my_mcp_server --port 8080",
		"sseServer [gemini user] sse on: http://localhost:8080/sse",
		"httpServerWithAuth [gemini user] http on: http://localhost:3000/mcp",
		"fetch [vscode] stdio on: uvx mcp-server-fetch",
		"my-remote [vscode] http on: http://api.contoso.com/mcp",
	}
	if got := briefs(l.Servers); !slices.Equal(got, want) {
		t.Errorf("servers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var shadowed []string
	for _, s := range l.Shadowed {
		shadowed = append(shadowed, s.Name+" ["+s.Origin+"] "+s.Command)
	}
	wantShadowed := []string{
		"shared [project] project-shared", "github [zero] zero-github", "shared [zero] zero-shared",
		"shared [claude user] claude-user-shared", "shared [claude desktop] desktop-shared", "shared [codex] codex-shared",
		"shared [gemini project] gemini-project-shared", "shared [gemini user] gemini-user-shared", "shared [vscode] vscode-shared",
	}
	if !slices.Equal(shadowed, wantShadowed) {
		t.Errorf("shadowed:\n%s\nwant:\n%s", strings.Join(shadowed, "\n"), strings.Join(wantShadowed, "\n"))
	}
	var skipped []string
	for _, s := range l.Skipped {
		skipped = append(skipped, s.Name+" ["+s.Origin+"]")
	}
	if want := []string{"broken [codex]", "Perplexity [vscode]"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	for _, s := range l.Servers {
		if s.OriginPath == "" || !filepath.IsAbs(s.OriginPath) {
			t.Errorf("%s: origin path %q", s.Name, s.OriginPath)
		}
	}
}

// Each source's own keys land in the right fields: Zero's extras, Codex's
// timeouts, tool lists and headers, Gemini's ms timeout and tool lists,
// VS Code's variables.
func TestLoadReadsEachSourcesKeys(t *testing.T) {
	l := Load(fixture(t))
	fs := find(t, l.Servers, "filesystem")
	if !fs.Required || fs.StartupTimeout != 60*time.Second || fs.ToolTimeout != 120500*time.Millisecond || !slices.Equal(fs.EnabledTools, []string{"read_file"}) || !fs.AlwaysLoad {
		t.Errorf("zero's keys: %+v", fs)
	}
	c7 := find(t, l.Servers, "context7")
	if c7.StartupTimeout != 20*time.Second || c7.ToolTimeout != time.Minute || c7.Env["MY_ENV_VAR"] != "MY_ENV_VALUE" || !slices.Equal(c7.EnabledTools, []string{"resolve-library-id"}) {
		t.Errorf("codex stdio: %+v", c7)
	}
	figma := find(t, l.Servers, "figma")
	if !figma.Required || figma.BearerTokenEnv != "FIGMA_OAUTH_TOKEN" || figma.Headers["X-Figma-Region"] != "us-east-1" || figma.Headers["X-Trace"] != "" {
		t.Errorf("codex http: %+v", figma)
	}
	py := find(t, l.Servers, "pythonTools")
	if py.Cwd != "./mcp-servers/python" || py.ToolTimeout != 15*time.Second || py.Env["DATABASE_URL"] != "postgres://db" || py.Env["API_KEY"] != "" {
		t.Errorf("gemini stdio: %+v", py)
	}
	auth := find(t, l.Servers, "httpServerWithAuth")
	if auth.Headers["Authorization"] != "Bearer your-api-token" || !slices.Equal(auth.EnabledTools, []string{"safe_tool", "file_reader"}) || !slices.Equal(auth.DisabledTools, []string{"dangerous_tool"}) {
		t.Errorf("gemini http: %+v", auth)
	}
	fetch := find(t, l.Servers, "fetch")
	if fetch.Cwd != filepath.Dir(filepath.Dir(fetch.OriginPath)) || fetch.Env["TOKEN"] != "ft" {
		t.Errorf("vscode variables: cwd %q env %v", fetch.Cwd, fetch.Env)
	}
	api := find(t, l.Servers, "api-server")
	if api.Headers["Authorization"] != "Bearer k123" {
		t.Errorf("project headers: %v", api.Headers)
	}
	if air := find(t, l.Servers, "airtable"); air.Env["AIRTABLE_API_KEY"] != "air-key" {
		t.Errorf("claude env: %v", air.Env)
	}
}

// Entries of Zero's file with no command or url change the server of
// that name from another tool's file: `zero mcp disable sentry` turned
// Claude's sentry off; puppeteer got tool settings.
func TestZeroOverrideEntriesApplyToOtherSources(t *testing.T) {
	l := Load(fixture(t))
	if s := find(t, l.Servers, "sentry"); s.Enabled || !strings.HasSuffix(s.OverridePath, "mcp.json:14:15") {
		t.Errorf("sentry: enabled %v, override %q", s.Enabled, s.OverridePath)
	}
	p := find(t, l.Servers, "puppeteer")
	if !slices.Equal(p.DisabledTools, []string{"puppeteer_evaluate"}) || !slices.Equal(p.AlwaysLoadTools, []string{"puppeteer_navigate"}) || p.AlwaysLoad || !p.Enabled {
		t.Errorf("puppeteer: %+v", p)
	}
}

// In a folder the user has not trusted, the project's files start
// nothing: each of their servers is skipped with the reason, and a name
// they shadowed falls to the user's entry.
func TestUntrustedProjectServersSkippedWithReason(t *testing.T) {
	o := fixture(t)
	o.Trusted = false
	l := Load(o)
	var notTrusted []string
	for _, s := range l.Skipped {
		if s.Reason == NotTrusted {
			notTrusted = append(notTrusted, s.Name+" ["+s.Origin+"]")
		}
	}
	want := []string{"api-server [project]", "shared [project]", "github [project]", "projectGemini [gemini project]", "shared [gemini project]", "fetch [vscode]", "my-remote [vscode]", "shared [vscode]"}
	if !slices.Equal(notTrusted, want) {
		t.Errorf("skipped as not trusted: %q\nwant %q", notTrusted, want)
	}
	if g := find(t, l.Servers, "github"); g.Origin != OriginZero {
		t.Errorf("github from %s, want zero's own entry", g.Origin)
	}
	for _, s := range append(l.Servers, l.Shadowed...) {
		if s.Origin == OriginProject || s.Origin == OriginGeminiProject || s.Origin == OriginVSCode {
			t.Errorf("untrusted project server loaded: %s", brief(s))
		}
	}
}

// A variable that is not set expands to "" with one warning per server
// naming every such variable; defaults fill in.
func TestUnsetVariablesWarnOncePerServer(t *testing.T) {
	l := Load(fixture(t))
	var got []string
	for _, w := range l.Warnings {
		if strings.Contains(w, "not set") {
			got = append(got, w[strings.Index(w, "server "):])
		}
	}
	// api-server's ${API_BASE_URL:-...} has a default: it does not warn.
	want := []string{
		`server "figma": ${TRACE_ID} not set; expanded to ""`,
		`server "pythonTools": ${EXTERNAL_API_KEY} not set; expanded to ""`,
		`server "my-remote": ${CONTOSO_KEY} not set; expanded to ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Claude Desktop's file is read from the macOS path on darwin and the
// XDG path elsewhere.
func TestClaudeDesktopPathPerOS(t *testing.T) {
	o := fixture(t)
	o.GOOS = "darwin"
	l := Load(o)
	w := find(t, l.Servers, "weather")
	if w.Origin != OriginClaudeDesktop || !strings.Contains(w.OriginPath, filepath.Join("Library", "Application Support", "Claude")) {
		t.Errorf("darwin: %s from %s", brief(w), w.OriginPath)
	}
	if slices.ContainsFunc(l.Servers, func(s Server) bool { return s.Name == "puppeteer" }) {
		t.Error("darwin read the Linux desktop file")
	}
}

// CODEX_HOME moves Codex's config, as Codex itself honours it.
func TestCodexHomeVariable(t *testing.T) {
	o := fixture(t)
	alt := t.TempDir()
	os.WriteFile(filepath.Join(alt, "config.toml"), []byte("[mcp_servers.elsewhere]\ncommand = \"e\"\n"), 0o600)
	o.LookupEnv = envOf(map[string]string{"CODEX_HOME": alt})
	l := Load(o)
	if s := find(t, l.Servers, "elsewhere"); s.Origin != OriginCodex {
		t.Errorf("%s", brief(s))
	}
}

// A file that does not parse is one warning naming it and its line (once,
// though ~/.claude.json is read for two scopes), an entry that cannot be
// used is skipped naming its line; the other
// sources still load.
func TestMalformedSourceWarnsOnceWithLineAndOthersLoad(t *testing.T) {
	for _, tc := range []struct {
		file, text, want string
	}{
		{"home/.claude.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},,\n  }\n}\n", ".claude.json:3:"},
		{"home/.codex/config.toml", "[mcp_servers.a]\ncommand = \n", "config.toml:2: "},
		{"config/mcp.json", "{\"mcpServers\": {\"a\": {\"command\": 7}}}", `mcp.json:1:22: server "a" not loaded: command must be a string, not a number`},
		{"config/mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": 5}}}", `server "a" not loaded: args must be a list of strings, not a number`},
		{"home/.codex/config.toml", "[mcp_servers.a]\ncommand = 5\n", `server "a" not loaded: line 2: mcp_servers.a.command must be a string, not a number`},
		{"config/mcp.json", "{\"mcpServers\": []}", "mcp.json:1:16: expected a JSON object"},
		{"config/mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"a\": {}}}", `mcp.json:1:38: "a" is written twice`},
		{"home/.gemini/settings.json", "{\"mcpServers\": {\"a\": {\"type\": \"websocket\", \"url\": \"ws://x\"}}}", `type "websocket" is not "stdio", "http" or "sse"`},
	} {
		o := fixture(t)
		os.WriteFile(filepath.Join(filepath.Dir(o.Home), tc.file), []byte(tc.text), 0o600)
		l := Load(o)
		said := slices.Clone(l.Warnings)
		for _, sk := range l.Skipped {
			said = append(said, fmt.Sprintf("%s: server %q not loaded: %s", sk.OriginPath, sk.Name, sk.Reason))
		}
		if !slices.ContainsFunc(said, func(w string) bool { return strings.Contains(w, tc.want) }) {
			t.Errorf("%s %q: warnings and skips lack %q:\n%s", tc.file, tc.text, tc.want, strings.Join(said, "\n"))
		}
		// ~/.claude.json is read for two scopes; its problem is said once
		if n := len(slices.DeleteFunc(said, func(w string) bool { return !strings.Contains(w, tc.want) })); n > 1 {
			t.Errorf("%s: %q said %d times", tc.file, tc.want, n)
		}
		if len(l.Servers) < 8 {
			t.Errorf("%s: only %d servers loaded", tc.file, len(l.Servers))
		}
	}
}

// Zero's file is read with a UTF-8 BOM and CRLF line ends (as Windows
// editors save it), and positions still count lines.
func TestZeroFileWithBOMAndCRLF(t *testing.T) {
	o := fixture(t)
	text := "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"win\": {\"command\": \"w.exe\", \"bogus\": 1}\r\n  }\r\n}\r\n"
	os.WriteFile(filepath.Join(o.ConfigDir, UserFileName), []byte(text), 0o600)
	l := Load(o)
	if s := find(t, l.Servers, "win"); s.Command != "w.exe" || s.Origin != OriginZero {
		t.Errorf("%s", brief(s))
	}
	if !slices.ContainsFunc(l.Warnings, func(w string) bool {
		return strings.HasSuffix(w, `mcp.json:3:42: server "win": unknown key "bogus" ignored`)
	}) {
		t.Errorf("no typo warning with its line:\n%s", strings.Join(l.Warnings, "\n"))
	}
}

// A home with none of the files loads nothing and warns about nothing.
func TestLoadEmptyHome(t *testing.T) {
	dir := t.TempDir()
	l := Load(Options{Home: dir, ConfigDir: filepath.Join(dir, "zero"), Workspace: filepath.Join(dir, "p"), Trusted: true})
	if len(l.Servers)+len(l.Shadowed)+len(l.Skipped)+len(l.Warnings) != 0 {
		t.Errorf("%+v", l)
	}
}

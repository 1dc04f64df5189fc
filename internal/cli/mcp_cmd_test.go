package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
)

var spaces = regexp.MustCompile(` +`)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t *testing.T, args ...string) result {
	t.Helper()
	r := zero(args...)
	if r.code != ExitOK {
		t.Fatalf("zero %q: exit %d\n%s%s", args, r.code, r.out, r.errOut)
	}
	return r
}

// wantLines checks got holds each of want, runs of spaces (table
// padding) counting as one.
func wantLines(t *testing.T, what, got string, want ...string) {
	t.Helper()
	squeeze := func(s string) string { return spaces.ReplaceAllString(s, " ") }
	for _, w := range want {
		if !strings.Contains(squeeze(got), squeeze(w)) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// add (stdio after --, http with a URL), add-json, list, get and remove
// work on Zero's file; get shows whether env and header values are set,
// never the values.
func TestMCPAddListGetRemove(t *testing.T) {
	isolate(t)
	t.Setenv("GH_TOKEN", "ghp_secret")
	mustRun(t, "mcp", "add", "-e", "GITHUB_TOKEN=${GH_TOKEN}", "-e", "EMPTY=", "gh", "--", "docker", "run", "-i", "--rm", "ghcr.io/github/github-mcp-server")
	mustRun(t, "mcp", "add", "--transport", "http", "-H", "Authorization: Bearer ${GH_TOKEN}", "remote", "https://api.example.com/mcp")
	r := mustRun(t, "mcp", "add", "sse-less", "https://auto.example.com/mcp")
	wantLines(t, "add with a URL", r.out, "added sse-less (http: https://auto.example.com/mcp)")
	mustRun(t, "mcp", "add-json", "weather", `{"command":"uvx","args":["weather-mcp"],"toolTimeout":30}`)

	list := mustRun(t, "mcp", "list")
	wantLines(t, "zero mcp list", list.out,
		"NAME      STATE  TRANSPORT  ORIGIN  COMMAND OR URL",
		"gh        on     stdio      zero    docker run -i --rm ghcr.io/github/github-mcp-server",
		"remote    on     http       zero    https://api.example.com/mcp",
		"weather   on     stdio      zero    uvx weather-mcp")
	get := mustRun(t, "mcp", "get", "gh")
	wantLines(t, "zero mcp get gh", get.out, "origin:     zero ("+filepath.Join(config.Dir(), "mcp.json")+")", "env:        EMPTY (empty), GITHUB_TOKEN (set)")
	if strings.Contains(get.out, "ghp_secret") {
		t.Errorf("get printed a secret:\n%s", get.out)
	}
	wantLines(t, "zero mcp get remote", mustRun(t, "mcp", "get", "remote").out, "headers:    Authorization (set)")
	wantLines(t, "zero mcp get weather", mustRun(t, "mcp", "get", "weather").out, "tool timeout:  30s")

	data, _ := os.ReadFile(filepath.Join(config.Dir(), "mcp.json"))
	if !strings.Contains(string(data), `"GITHUB_TOKEN": "${GH_TOKEN}"`) {
		t.Errorf("the file should keep the reference, not the value:\n%s", data)
	}
	wantLines(t, "remove", mustRun(t, "mcp", "remove", "gh").out, "removed gh from ")
	if r := zero("mcp", "get", "gh"); r.code != ExitUsage || !strings.Contains(r.errOut, `no MCP server "gh"`) {
		t.Errorf("get after remove: exit %d %s", r.code, r.errOut)
	}
}

// list shows every source's servers with their origin; the same name in
// two sources is marked shadowed by the higher one; a project's servers
// are skipped, with the reason, until the folder is trusted.
func TestMCPListShowsOriginsShadowedAndUntrusted(t *testing.T) {
	home, dir := isolate(t)
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"sentry": {"type": "http", "url": "https://mcp.sentry.dev/mcp"}, "dup": {"command": "claude-dup"}},
		"projects": {`+jsonString(dir)+`: {"mcpServers": {"local-only": {"command": "loc"}}}}}`)
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), "[mcp_servers.dup]\ncommand = \"codex-dup\"\n")
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"proj": {"command": "p"}, "dup": {"command": "project-dup"}}}`)

	r := mustRun(t, "mcp", "list")
	wantLines(t, "untrusted list", r.out,
		"dup         on                      stdio      claude user    claude-dup",
		"dup         shadowed by claude user  stdio      codex          codex-dup",
		"dup         skipped",
		"project not trusted: run `zero trust`",
		"local-only  on",
		"sentry      on                      http       claude user    https://mcp.sentry.dev/mcp")

	mustRun(t, "trust")
	r = mustRun(t, "mcp", "list", "--json")
	var rows []mcpRow
	if err := json.Unmarshal([]byte(r.out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	got := map[string]string{}
	for _, row := range rows {
		got[row.Name+"@"+row.Origin] = row.State + " " + row.ShadowedBy
	}
	for k, v := range map[string]string{
		"dup@project": "on ", "dup@claude user": "shadowed project", "dup@codex": "shadowed project",
		"proj@project": "on ", "local-only@claude local": "on ", "sentry@claude user": "on ",
	} {
		if got[k] != v {
			t.Errorf("%s: %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	wantLines(t, "get dup", mustRun(t, "mcp", "get", "dup").out, "origin:     project ("+filepath.Join(dir, ".mcp.json")+")", "dup: shadowed by project: codex (")
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// disable and enable of another tool's server write an override in
// Zero's file and say so; remove refuses it, naming its file.
func TestMCPDisableAnotherToolsServer(t *testing.T) {
	home, _ := isolate(t)
	claude := filepath.Join(home, ".claude.json")
	writeFile(t, claude, `{"mcpServers": {"sentry": {"type": "http", "url": "https://mcp.sentry.dev/mcp"}}}`)
	r := mustRun(t, "mcp", "disable", "sentry")
	wantLines(t, "disable", r.out, "disabled sentry: it comes from claude user ("+claude+"), which Zero does not edit; the override is in "+filepath.Join(config.Dir(), "mcp.json"))
	wantLines(t, "list", mustRun(t, "mcp", "list").out, "sentry  off    http       claude user")
	wantLines(t, "get", mustRun(t, "mcp", "get", "sentry").out, "override:   "+filepath.Join(config.Dir(), "mcp.json")+":3:15")
	mustRun(t, "mcp", "enable", "sentry")
	wantLines(t, "list", mustRun(t, "mcp", "list").out, "sentry  on     http       claude user")
	wantLines(t, "remove the override", mustRun(t, "mcp", "remove", "sentry").out, "removed sentry from "+filepath.Join(config.Dir(), "mcp.json")+"; sentry still loads from claude user ("+claude+")")
	if r := zero("mcp", "remove", "sentry"); r.code != ExitUsage || !strings.Contains(r.errOut, "sentry comes from claude user ("+claude+"); Zero edits only its own file") {
		t.Errorf("remove another tool's server: exit %d %s", r.code, r.errOut)
	}
	if data, _ := os.ReadFile(claude); !strings.Contains(string(data), "sentry") {
		t.Error("Claude's file was changed")
	}
	if r := zero("mcp", "disable", "nothing"); r.code != ExitUsage || !strings.Contains(r.errOut, `no MCP server "nothing"`) {
		t.Errorf("disable unknown: exit %d %s", r.code, r.errOut)
	}
}

// import copies another tool's servers, prints what it did, and skips
// the names Zero's file already holds on a second run.
func TestMCPImportFromCodex(t *testing.T) {
	home, _ := isolate(t)
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), "[mcp_servers.context7]\ncommand = \"npx\"\nargs = [\"-y\", \"@upstash/context7-mcp\"]\n\n[mcp_servers.figma]\nurl = \"https://mcp.figma.com/mcp\"\nbearer_token_env_var = \"FIGMA_TOKEN\"\n")
	r := mustRun(t, "mcp", "import", "--from", "codex")
	wantLines(t, "import", r.out, "imported context7 (stdio: npx -y @upstash/context7-mcp)\n", "imported figma (http: https://mcp.figma.com/mcp)\n", "2 of 2 servers from "+filepath.Join(home, ".codex", "config.toml")+" copied to ")
	r = mustRun(t, "mcp", "import", "--from", "codex")
	wantLines(t, "second import", r.out, "skipped context7: already in", "0 of 2 servers")
	wantLines(t, "list", mustRun(t, "mcp", "list").out, "context7  on                stdio      zero", "context7  shadowed by zero  stdio      codex")
	if r := zero("mcp", "import", "--from", "cursor"); r.code != ExitUsage || !strings.Contains(r.errOut, "use claude, desktop, codex or gemini") {
		t.Errorf("unknown --from: exit %d %s", r.code, r.errOut)
	}
	wantLines(t, "empty import", mustRun(t, "mcp", "import", "--from", "gemini").out, "no MCP servers in "+filepath.Join(home, ".gemini", "settings.json"))
}

// Wrong calls are usage errors that say what to write; a malformed file
// is refused, named with its line, and left as it was.
func TestMCPAddErrors(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "add", "x"}, "usage: zero mcp add NAME -- COMMAND"},
		{[]string{"mcp", "add", "--scope", "project", "x", "--", "c"}, "Zero writes only its own file"},
		{[]string{"mcp", "add", "-t", "http", "x", "--", "npx", "y"}, "a http server takes one http(s) URL"},
		{[]string{"mcp", "add", "-t", "websocket", "x", "ws://h"}, `--transport "websocket": use stdio, http or sse`},
		{[]string{"mcp", "add", "-e", "NOEQUALS", "x", "--", "c"}, `"NOEQUALS": use --env KEY=VALUE`},
		{[]string{"mcp", "add", "-H", "X: y", "x", "--", "c"}, "--header is for http and sse servers"},
		{[]string{"mcp", "add", "x", "npx", "-y", "pkg"}, "unknown shorthand flag: 'y'"},
		{[]string{"mcp", "add-json", "x", `{"command": 1}`}, `server "x": command must be a string, not a number`},
		{[]string{"mcp", "add-json", "x", `{"command": "c",}`}, `server "x": entry:1:`},
		{[]string{"mcp", "add-json", "x"}, "usage: zero mcp add-json NAME"},
		{[]string{"mcp", "get"}, "usage: zero mcp get NAME"},
	} {
		if r := zero(tc.args...); r.code != ExitUsage || !strings.Contains(r.errOut, tc.want) {
			t.Errorf("zero %q: exit %d, stderr %q; want %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
	mustRun(t, "mcp", "add", "x", "--", "c")
	if r := zero("mcp", "add", "x", "--", "d"); r.code != ExitUsage || !strings.Contains(r.errOut, "remove it first") {
		t.Errorf("add twice: exit %d %s", r.code, r.errOut)
	}
	path := filepath.Join(config.Dir(), "mcp.json")
	bad := "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"c\"}\n    \"y\": {}\n}\n"
	writeFile(t, path, bad)
	r := zero("mcp", "add", "z", "--", "c")
	if r.code != ExitCrash || !strings.Contains(r.errOut, path+":4:") || !strings.Contains(r.errOut, "will not write over") {
		t.Errorf("add over a malformed file: exit %d %s", r.code, r.errOut)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Errorf("the malformed file was changed:\n%s", data)
	}
	wantLines(t, "list warns", zero("mcp", "list").errOut, "zero: warning: "+path+":4:")
}

// A config file that does not parse is not "no servers configured": list
// and doctor name the file, and exit 1; an entry that is not an object
// says what it must be.
func TestMCPListNamesAnUnreadableConfig(t *testing.T) {
	home, dir := isolate(t)
	broken := filepath.Join(dir, ".mcp.json")
	writeFile(t, broken, `{"mcpServers": {"x": {"command": "echo",}`)
	for _, args := range [][]string{{"mcp", "list"}, {"mcp", "list", "--json"}, {"mcp", "doctor"}} {
		r := zero(args...)
		if r.code != ExitFailed || strings.Contains(r.out, "no MCP servers configured") || !strings.Contains(r.errOut, broken+" could not be read") || !strings.Contains(r.errOut, ".mcp.json:1:") {
			t.Errorf("zero %q: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.out, r.errOut)
		}
	}
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"x": 5}}`)
	wantLines(t, "list with a number entry", zero("mcp", "list").out, `must be an object with "command" or "url", not a number`)
}

// TestMCPAddBadNameIsUsageError: a server name with a space exits 2 with
// one sentence that names it once, for mcp add and mcp add-json alike.
func TestMCPAddBadNameIsUsageError(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{
		{"mcp", "add", "bad name!", "--", "cat"},
		{"mcp", "add-json", "bad name!", `{"command":"cat"}`},
	} {
		r := zero(args...)
		if r.code != ExitUsage || strings.Count(r.errOut, `"bad name!"`) != 1 || !strings.Contains(r.errOut, "has a space or control character") {
			t.Errorf("zero %q: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
}

// TestMCPDisableOfASkippedServerSaysWhyItIsSkipped: a server mcp list
// shows as skipped (an untrusted project's) is not "no MCP server":
// disable says it is skipped and why.
func TestMCPDisableOfASkippedServerSaysWhyItIsSkipped(t *testing.T) {
	_, dir := isolate(t)
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"cy": {"command": "cypress-mcp"}}}`)
	wantLines(t, "list", zero("mcp", "list").out, "cy skipped")
	r := zero("mcp", "disable", "cy")
	want := `zero: MCP server "cy" is skipped, not loaded, so there is nothing to disable: project not trusted: run ` + "`zero trust`"
	if r.code != ExitUsage || !strings.Contains(r.errOut, want) || !strings.Contains(r.errOut, filepath.Join(dir, ".mcp.json")) {
		t.Errorf("disable a skipped server: exit %d\n%s", r.code, r.errOut)
	}
}

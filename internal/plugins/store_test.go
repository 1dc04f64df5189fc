package plugins

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/subagents"
	"github.com/zero-agent/zero/internal/testbin"
)

// testStore is a store in a temp dir.
func testStore(t *testing.T) Store {
	d := t.TempDir()
	return Store{Dir: filepath.Join(d, "data"), Lock: filepath.Join(d, "config", LockFile)}
}

// writePlugin writes a plugin named name with a skill, a command, a
// hook that would write marker, and an MCP server, and returns its
// folder.
func writePlugin(t *testing.T, name, marker string) string {
	dir := filepath.Join(t.TempDir(), name)
	testbin.WriteTree(t, dir, map[string]string{
		ManifestPath:            `{"name": "` + name + `", "version": "0.1.0", "description": "test plugin"}`,
		"skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets the user\n---\nSay hello.\n",
		"commands/hello.md":     "---\ndescription: Says hello\n---\nHello $ARGUMENTS\n",
		"commands/ops/ship.md":  "Ship it\n",
		"agents/reviewer.md":    "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n",
		HooksFile:               `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/hook.sh > ` + marker + `"}]}]}}`,
		"hook.sh":               "echo \"$CLAUDE_PLUGIN_ROOT\"\n",
		MCPFile:                 `{"mcpServers": {"tools": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/srv", "args": ["--data", "${CLAUDE_PLUGIN_DATA}"], "env": {"ROOT": "${CLAUDE_PLUGIN_ROOT}"}}}}`,
	})
	return dir
}

func TestAddCopiesPinsAndRunsNothing(t *testing.T) {
	st := testStore(t)
	marker := filepath.Join(t.TempDir(), "marker")
	src := writePlugin(t, "kit", marker)
	added, err := st.Add(context.Background(), src, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("installing ran the plugin's hook")
	}
	if added.Entry.Enabled {
		t.Error("a plugin with hooks and MCP servers was enabled without --enable")
	}
	if added.Entry.Kind != KindPath || added.Entry.Source != src || !strings.HasPrefix(added.Entry.Hash, "sha256:") {
		t.Errorf("entry = %+v", added.Entry)
	}
	want, _ := TreeHash(src)
	if added.Entry.Hash != want {
		t.Errorf("pinned %s, the source hashes to %s", added.Entry.Hash, want)
	}
	pt := added.Parts
	if !slices.Equal(pt.Skills, []string{"kit:greet"}) || !slices.Equal(pt.Commands, []string{"kit:hello", "kit:ops:ship"}) ||
		!slices.Equal(pt.Agents, []string{"kit:reviewer"}) || len(pt.Hooks) != 1 || len(pt.MCP) != 1 {
		t.Errorf("parts = %+v", pt)
	}
	dest := st.PluginDir("kit")
	if !strings.Contains(pt.Hooks[0], dest+"/hook.sh") || !strings.Contains(pt.MCP[0], "plugin_kit_tools (stdio): "+dest+"/bin/srv") {
		t.Errorf("hooks and servers are not shown as they will run from %s: %q %q", dest, pt.Hooks, pt.MCP)
	}
	// the copy is what loads: editing the source changes nothing
	os.WriteFile(filepath.Join(src, "commands/hello.md"), []byte("changed"), 0o644)
	if b, _ := os.ReadFile(filepath.Join(dest, "commands/hello.md")); strings.Contains(string(b), "changed") {
		t.Error("the installed plugin follows its source")
	}
	if _, err := st.Add(context.Background(), src, AddOptions{}); err == nil || !strings.Contains(err.Error(), "installed already") {
		t.Errorf("second add: %v", err)
	}
	if set := st.Load(); len(set.Active()) != 0 || len(set.Warnings) != 0 {
		t.Errorf("a disabled plugin loads: %+v", set)
	}
}

func TestPluginWithoutProgramsIsEnabledAtOnce(t *testing.T) {
	st := testStore(t)
	src := filepath.Join(t.TempDir(), "notes")
	testbin.WriteTree(t, src, map[string]string{"skills/jot/SKILL.md": "---\ndescription: Jots\n---\nJot.\n"})
	added, err := st.Add(context.Background(), src, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if added.Plugin.Name != "notes" || !added.Plugin.NoManifest || !added.Entry.Enabled {
		t.Fatalf("a manifest-less plugin of skills only: %+v %+v", added.Plugin, added.Entry)
	}
}

// A hooks or MCP file that does not parse, or an MCP entry Zero cannot
// read, hides what the plugin would run: it installs disabled, the
// problem shown, as one that runs programs.
func TestPluginWithUnreadableHooksOrMCPEntryInstallsDisabled(t *testing.T) {
	for _, tc := range []struct{ file, text, problem string }{
		{HooksFile, `{"hooks": {`, "hooks.json"},
		{MCPFile, `{"hooks": {`, ".mcp.json"},
		{MCPFile, `{"mcpServers": {"srv": {"command": "x", "args": 5}}}`, `MCP server "srv" (`},
	} {
		st := testStore(t)
		src := filepath.Join(t.TempDir(), "broken")
		testbin.WriteTree(t, src, map[string]string{"skills/jot/SKILL.md": "---\ndescription: Jots\n---\nJot.\n", tc.file: tc.text})
		added, err := st.Add(context.Background(), src, AddOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if added.Entry.Enabled || !added.Parts.Unread || !slices.ContainsFunc(added.Parts.Problems, func(p string) bool { return strings.Contains(p, tc.problem) }) {
			t.Errorf("%s %s: enabled %v, parts %+v", tc.file, tc.text, added.Entry.Enabled, added.Parts)
		}
	}
}

// An MCP entry that names a variable the environment does not set still
// shows what it runs, and the problem with it, when the plugin is added.
func TestPluginMCPEntryWithUnsetVariableShowsTheProblem(t *testing.T) {
	st := testStore(t)
	src := filepath.Join(t.TempDir(), "tokens")
	testbin.WriteTree(t, src, map[string]string{MCPFile: `{"mcpServers": {"api": {"command": "srv", "env": {"TOKEN": "${ZERO_TEST_UNSET_TOKEN}"}}}}`})
	added, err := st.Add(context.Background(), src, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if added.Entry.Enabled || added.Parts.Unread || len(added.Parts.MCP) != 1 ||
		!slices.ContainsFunc(added.Parts.Problems, func(p string) bool { return strings.Contains(p, "ZERO_TEST_UNSET_TOKEN") }) {
		t.Errorf("enabled %v, parts %+v", added.Entry.Enabled, added.Parts)
	}
}

func TestAddRefusesWhatIsNotAPlugin(t *testing.T) {
	st := testStore(t)
	for name, files := range map[string]map[string]string{
		"empty folder":    {"README.md": "hi"},
		"broken manifest": {ManifestPath: `{"name": "bad name"}`},
	} {
		src := filepath.Join(t.TempDir(), "p")
		testbin.WriteTree(t, src, files)
		if _, err := st.Add(context.Background(), src, AddOptions{}); err == nil {
			t.Errorf("%s: installed", name)
		}
	}
	if _, err := st.Add(context.Background(), filepath.Join(t.TempDir(), "missing"), AddOptions{}); err == nil {
		t.Error("a missing folder installed")
	}
	if l, _ := st.ReadLock(); len(l.Plugins) != 0 {
		t.Errorf("a refused plugin is in the lock file: %+v", l.Plugins)
	}
	if entries, _ := os.ReadDir(filepath.Join(st.Dir, "plugins")); len(entries) != 0 {
		t.Errorf("a refused plugin left files: %v", entries)
	}
}

// TestAddErrorNamesTheSourcesManifest: a plugin.json that does not parse
// is reported at the file the user wrote (its folder, line and column),
// not at the temporary copy add reads; one saved with a BOM and CRLF
// installs.
func TestAddErrorNamesTheSourcesManifest(t *testing.T) {
	st := testStore(t)
	src := filepath.Join(t.TempDir(), "kit")
	testbin.WriteTree(t, src, map[string]string{ManifestPath: "{\"name\": \"kit\",\n"})
	_, err := st.Add(context.Background(), src, AddOptions{})
	want := filepath.Join(src, filepath.FromSlash(ManifestPath)) + ": not valid JSON"
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), ".fetch-") {
		t.Fatalf("Add = %v, want an error starting %q", err, want)
	}
	testbin.WriteTree(t, src, map[string]string{ManifestPath: "\xef\xbb\xbf{\"name\": \"kit\"}\r\n"})
	if added, err := st.Add(context.Background(), src, AddOptions{}); err != nil || added.Plugin.Name != "kit" {
		t.Fatalf("Add with a BOM = %+v, %v", added, err)
	}
}

func TestLoadRefusesModifiedPlugin(t *testing.T) {
	for name, change := range map[string]func(dir string){
		"edited file":   func(d string) { os.WriteFile(filepath.Join(d, "commands/hello.md"), []byte("rm -rf ~"), 0o644) },
		"added file":    func(d string) { os.WriteFile(filepath.Join(d, "commands/extra.md"), []byte("x"), 0o644) },
		"removed file":  func(d string) { os.Remove(filepath.Join(d, "hook.sh")) },
		"made runnable": func(d string) { os.Chmod(filepath.Join(d, "hook.sh"), 0o755) },
		"added link":    func(d string) { os.Symlink("/etc/passwd", filepath.Join(d, "commands/link.md")) },
	} {
		t.Run(name, func(t *testing.T) {
			st := testStore(t)
			if _, err := st.Add(context.Background(), writePlugin(t, "kit", "/dev/null"), AddOptions{Enable: true}); err != nil {
				t.Fatal(err)
			}
			if set := st.Load(); len(set.Active()) != 1 {
				t.Fatalf("the unmodified plugin does not load: %+v", set)
			}
			change(st.PluginDir("kit"))
			set := st.Load()
			in, _ := set.Get("kit")
			if len(set.Active()) != 0 || in.Status != StatusModified {
				t.Fatalf("a modified plugin loads: %+v", in)
			}
			if len(set.Warnings) != 1 || !strings.Contains(set.Warnings[0], "changed since it was installed") || !strings.Contains(set.Warnings[0], "zero plugin remove kit") {
				t.Errorf("warnings = %q", set.Warnings)
			}
			if len(set.Namespaces()) != 0 {
				t.Error("a modified plugin's skills load")
			}
		})
	}
}

func TestEnableDisableRemove(t *testing.T) {
	st := testStore(t)
	if _, err := st.Add(context.Background(), writePlugin(t, "kit", "/dev/null"), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetEnabled("kit", true); err != nil || len(st.Load().Active()) != 1 {
		t.Fatalf("enable: %v", err)
	}
	if err := st.SetEnabled("kit", false); err != nil || len(st.Load().Active()) != 0 {
		t.Fatalf("disable: %v", err)
	}
	var nie *NotInstalledError
	if err := st.SetEnabled("nope", true); err == nil || !strings.Contains(err.Error(), "installed: kit") {
		t.Errorf("enable unknown: %v", err)
	} else if _, ok := err.(*NotInstalledError); !ok {
		t.Errorf("not a NotInstalledError: %T %v", err, nie)
	}
	if err := st.Remove("kit"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.PluginDir("kit")); err == nil {
		t.Error("remove left the folder")
	}
	if l, _ := st.ReadLock(); len(l.Plugins) != 0 {
		t.Error("remove left the lock entry")
	}
}

func TestActivePluginPartsLoadNamespaced(t *testing.T) {
	st := testStore(t)
	marker := filepath.Join(t.TempDir(), "marker")
	if _, err := st.Add(context.Background(), writePlugin(t, "kit", marker), AddOptions{Enable: true}); err != nil {
		t.Fatal(err)
	}
	set := st.Load()
	home := t.TempDir()
	// the user's own skill and agent keep their names; the plugin's are kit:NAME
	testbin.WriteTree(t, home, map[string]string{
		".claude/skills/greet/SKILL.md": "---\ndescription: Mine\n---\nMine.\n",
		".claude/agents/reviewer.md":    "---\nname: reviewer\ndescription: My reviewer\n---\nMine.\n",
	})
	o := skills.Options{Workdir: t.TempDir(), Home: home, Plugins: set.Namespaces()}
	sk := skills.Discover(o)
	mine, _ := sk.Get("greet")
	theirs, ok := sk.Get("kit:greet")
	if mine.Description != "Mine" || !ok || theirs.Scope != skills.Plugin || theirs.Description != "Greets the user" {
		t.Fatalf("skills = %+v", sk.Skills)
	}
	cs := commands.Discover(o)
	if c, ok := cs.Get("kit:hello"); !ok || c.Scope != skills.Plugin || !strings.Contains(c.Template, "$ARGUMENTS") {
		t.Errorf("kit:hello = %+v %v", c, ok)
	}
	if _, ok := cs.Get("kit:ops:ship"); !ok {
		t.Errorf("a sub-folder command is not kit:ops:ship: %+v", cs.Commands)
	}
	as := subagents.Discover(o)
	if a, ok := as.Get("kit:reviewer"); !ok || a.Scope != skills.Plugin || a.Prompt != "Review." || a.Path != filepath.Join(st.PluginDir("kit"), "agents/reviewer.md") {
		t.Errorf("kit:reviewer = %+v %v (agents %v, notes %v)", a, ok, as.Names(), as.Notes)
	}
	if a, _ := as.Get("reviewer"); a.Description != "My reviewer" {
		t.Errorf("the user's reviewer = %+v", a)
	}
	hc, sources, warns := set.Hooks()
	if len(warns) != 0 || !slices.Equal(sources, []string{"plugin kit"}) || len(hc[hooks.SessionStart]) != 1 {
		t.Fatalf("hooks = %+v %v %v", hc, sources, warns)
	}
	h := hc[hooks.SessionStart][0]
	root := st.PluginDir("kit")
	if h.Command != "sh "+root+"/hook.sh > "+marker || !slices.Contains(h.Env, "CLAUDE_PLUGIN_ROOT="+root) || !strings.HasPrefix(h.Source, "plugin kit: ") {
		t.Errorf("hook = %+v", h)
	}
	servers, warns := set.MCPServers(func(string) (string, bool) { return "", false })
	if len(warns) != 0 || len(servers) != 1 {
		t.Fatalf("servers = %+v %v", servers, warns)
	}
	s := servers[0]
	if s.Name != "plugin_kit_tools" || s.Command != root+"/bin/srv" || s.Args[1] != st.DataDir("kit") || s.Env["ROOT"] != root || s.Origin != "plugin kit" {
		t.Errorf("server = %+v", s)
	}
	if fi, err := os.Stat(st.DataDir("kit")); err != nil || !fi.IsDir() {
		t.Errorf("the plugin's data folder was not made: %v", err)
	}
}

func TestManifestPathsAndInlineParts(t *testing.T) {
	st := testStore(t)
	src := filepath.Join(t.TempDir(), "custom")
	testbin.WriteTree(t, src, map[string]string{
		ManifestPath: `{"name": "custom", "commands": ["./extra/one.md"], "skills": "./more-skills",
			"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "$CLAUDE_PLUGIN_ROOT/check"}]}]},
			"mcpServers": {"api": {"type": "http", "url": "http://127.0.0.1:9/${CLAUDE_PLUGIN_ROOT}"}}}`,
		"extra/one.md":              "One\n",
		"extra/two.md":              "not named by the manifest\n",
		"more-skills/deep/SKILL.md": "---\ndescription: Deep\n---\nx\n",
		MCPFile:                     `{"local": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"]}}`,
	})
	added, err := st.Add(context.Background(), src, AddOptions{Enable: true})
	if err != nil {
		t.Fatal(err)
	}
	pt := added.Parts
	root := st.PluginDir("custom")
	if !slices.Equal(pt.Commands, []string{"custom:one"}) || !slices.Equal(pt.Skills, []string{"custom:deep"}) ||
		!slices.Equal(pt.Hooks, []string{"PreToolUse [Bash]: " + root + "/check"}) || len(pt.MCP) != 2 {
		t.Fatalf("parts = %+v", pt)
	}
	if !strings.Contains(strings.Join(pt.MCP, "\n"), "plugin_custom_local (stdio): node "+root+"/s.js") ||
		!strings.Contains(strings.Join(pt.MCP, "\n"), "plugin_custom_api (http): http://127.0.0.1:9/"+root) {
		t.Errorf("servers: %q", pt.MCP)
	}
}

func TestAddFromGitRecordsCommit(t *testing.T) {
	st := testStore(t)
	src := writePlugin(t, "kit", "/dev/null")
	first := testbin.GitCommit(t, src)
	os.WriteFile(filepath.Join(src, "commands/later.md"), []byte("Later\n"), 0o644)
	second := testbin.GitCommit(t, src)
	os.WriteFile(filepath.Join(src, "commands/uncommitted.md"), []byte("x\n"), 0o644)

	added, err := st.Add(context.Background(), "file://"+src, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := added.Entry
	if e.Kind != KindGit || e.Commit != second || e.Source != "file://"+src {
		t.Errorf("entry = %+v, want commit %s", e, second)
	}
	if _, err := os.Stat(filepath.Join(st.PluginDir("kit"), ".git")); err == nil {
		t.Error("the clone's .git was installed")
	}
	if slices.Contains(added.Parts.Commands, "kit:uncommitted") || !slices.Contains(added.Parts.Commands, "kit:later") {
		t.Errorf("a clone is the commit, not the working tree: %v", added.Parts.Commands)
	}
	if err := st.Remove("kit"); err != nil {
		t.Fatal(err)
	}
	added, err = st.Add(context.Background(), src+"#"+first, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if added.Entry.Commit != first || added.Entry.Ref != first || slices.Contains(added.Parts.Commands, "kit:later") {
		t.Errorf("at a ref: %+v %v", added.Entry, added.Parts.Commands)
	}
	if err := st.Remove("kit"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Add(context.Background(), src+"#no-such-ref", AddOptions{}); err == nil || !strings.Contains(err.Error(), "no ref") {
		t.Errorf("missing ref: %v", err)
	}
}

func TestMarketplaceInstallsByName(t *testing.T) {
	st := testStore(t)
	market := t.TempDir()
	remoteDir := writePlugin(t, "remote", "/dev/null")
	testbin.GitCommit(t, remoteDir)
	testbin.WriteTree(t, market, map[string]string{
		MarketplacePath: `{"name": "team", "owner": {"name": "Ops"}, "plugins": [
			{"name": "lint", "source": "./plugins/lint", "description": "Lints"},
			{"name": "ghost", "source": "./plugins/ghost"},
			{"name": "remote", "source": {"source": "url", "url": "file://` + remoteDir + `"}}]}`,
		"plugins/lint/.claude-plugin/plugin.json": `{"name": "lint", "version": "2.0.0"}`,
		"plugins/lint/commands/lint.md":           "Lint $ARGUMENTS\n",
	})
	m, err := st.AddMarketplace(context.Background(), market)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "team" || len(m.Plugins) != 3 || !slices.Equal(m.Missing(), []string{"ghost (plugins/ghost)"}) {
		t.Fatalf("marketplace = %+v, missing %v", m, m.Missing())
	}
	if _, err := st.AddFromMarketplace(context.Background(), "ghost", "team", AddOptions{}); err == nil || !strings.Contains(err.Error(), "marketplace team lists ghost at plugins/ghost, but it has no such folder") {
		t.Errorf("a listed plugin without its folder: %v", err)
	}
	added, err := st.AddFromMarketplace(context.Background(), "lint", "team", AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if added.Entry.Marketplace != "team" || !added.Entry.Enabled || added.Entry.Reinstall("lint") != "lint@team" {
		t.Errorf("entry = %+v", added.Entry)
	}
	remote, err := st.AddFromMarketplace(context.Background(), "remote", "team", AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if remote.Entry.Kind != KindGit || remote.Entry.Commit == "" {
		t.Errorf("remote entry = %+v", remote.Entry)
	}
	if _, err := st.AddFromMarketplace(context.Background(), "nope", "team", AddOptions{}); err == nil || !strings.Contains(err.Error(), "it lists: lint, ghost, remote") {
		t.Errorf("unknown plugin: %v", err)
	}
	if _, err := st.AddFromMarketplace(context.Background(), "lint", "other", AddOptions{}); err == nil || !strings.Contains(err.Error(), "no marketplace") {
		t.Errorf("unknown marketplace: %v", err)
	}
	os.WriteFile(filepath.Join(st.MarketplaceDir("team"), MarketplacePath), []byte(`{"name": "team", "plugins": []}`), 0o644)
	if _, err := st.Marketplace("team"); err == nil || !strings.Contains(err.Error(), "changed since it was added") {
		t.Errorf("a modified marketplace: %v", err)
	}
	if err := st.RemoveMarketplace("team"); err != nil {
		t.Fatal(err)
	}
	if set := st.Load(); len(set.Plugins) != 2 {
		t.Errorf("removing the marketplace removed its plugins: %+v", set.Plugins)
	}
}

func TestIsGitSource(t *testing.T) {
	bare := t.TempDir()
	testbin.WriteTree(t, bare, map[string]string{"HEAD": "ref: refs/heads/main\n", "objects/.keep": ""})
	for src, want := range map[string]bool{
		"https://github.com/a/b": true,
		"git@github.com:a/b.git": true,
		"file:///tmp/repo":       true,
		"ssh://host/repo":        true,
		"https://x/y.git#v1":     true,
		bare:                     true,
		t.TempDir():              false,
		"./plugins/x":            false,
		"/no/such/folder.git":    true,
	} {
		if got := IsGitSource(src); got != want {
			t.Errorf("IsGitSource(%q) = %v", src, got)
		}
	}
}

// The reinstall hint is pasted into a shell: a source path with a space
// (or any other special character) is quoted, a plain one is not.
func TestReinstallHintIsQuotedForTheShell(t *testing.T) {
	for src, want := range map[string]string{
		"/home/ada/plugins/lint":    "/home/ada/plugins/lint",
		"/home/ada/my plugins/ü n":  "'/home/ada/my plugins/ü n'",
		"https://example.com/p.git": "https://example.com/p.git",
	} {
		if got := (Entry{Source: src}).Reinstall("p"); got != want {
			t.Errorf("Reinstall of %q = %s, want %s", src, got, want)
		}
	}
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
	"github.com/zero-agent/zero/internal/testbin"
)

// writeTestPlugin writes a plugin "kit" with a skill, a command, an
// agent definition, a SessionStart hook that writes $CLAUDE_PLUGIN_ROOT into marker, and an
// MCP server started through ${CLAUDE_PLUGIN_ROOT}/bin/server (which
// runs the project's test MCP server), and returns its folder.
func writeTestPlugin(t *testing.T, marker string) string {
	t.Helper()
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "kit")
	testbin.WriteTree(t, dir, map[string]string{
		".claude-plugin/plugin.json": `{"name": "kit", "version": "0.1.0", "description": "A test kit", "author": {"name": "Zero Test"}}`,
		"skills/greet/SKILL.md":      "---\nname: greet\ndescription: Greets the user by name\n---\nGREET-BODY\n",
		"commands/hello.md":          "---\ndescription: Says hello\n---\nHello from the kit to $ARGUMENTS\n",
		"agents/reviewer.md":         "---\nname: reviewer\ndescription: Reviews the diff\ntools: Read, Grep\n---\nREVIEWER-BODY\n",
		"hooks/hooks.json": `{"hooks": {"SessionStart": [{"hooks": [{"type": "command",
			"command": "sh ${CLAUDE_PLUGIN_ROOT}/hooks/start.sh ` + marker + `"}]}]}}`,
		"hooks/start.sh": "printf '%s|%s' \"$CLAUDE_PLUGIN_ROOT\" \"$0\" > \"$1\"\n",
		".mcp.json":      `{"mcpServers": {"tools": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/server"}}}`,
		"bin/server":     "#!/bin/sh\nexec '" + bin + "'\n",
	})
	if err := os.Chmod(filepath.Join(dir, "bin/server"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// execOnce runs one `zero exec` of prompt in dir against a fresh fake
// server and returns the result with the first chat request.
func execOnce(t *testing.T, e *env, dir, prompt string) (result, llmtest.Request) {
	t.Helper()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("done")))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", prompt)
	reqs := chatRequests(srv, 0)
	if r.code != 0 || len(reqs) == 0 {
		t.Fatalf("exec %q: exit %d, %d requests\n%s", prompt, r.code, len(reqs), r.stderr)
	}
	return r, reqs[0]
}

// TestPluginFromFolderLoadsLikeTheUsersOwn: zero plugin add copies a
// plugin and runs nothing of it (its hook would write the marker); a
// plugin with a hook and an MCP server is installed disabled, and info
// shows both as they will run. Enabled, in a folder that is not trusted,
// its skill is listed to the model as kit:greet, /kit:hello expands,
// `zero agents list` names its agent kit:reviewer (and show shows it), its
// MCP server's tools are offered as mcp__plugin_kit_tools__*, and its
// SessionStart hook runs with ${CLAUDE_PLUGIN_ROOT} (and the variable)
// naming the installed copy. Disabled and removed, none of it loads.
func TestPluginFromFolderLoadsLikeTheUsersOwn(t *testing.T) {
	e := newEnv(t)
	marker := filepath.Join(t.TempDir(), "marker")
	src := writeTestPlugin(t, marker)
	work := t.TempDir()
	root := filepath.Join(e.home, ".local/share/zero/plugins/kit")

	r := e.run(work, "", "plugin", "add", src)
	if r.code != 0 || !strings.Contains(r.stdout, "installed kit 0.1.0 from "+src) || !strings.Contains(r.stdout, "disabled: it runs programs") {
		t.Fatalf("plugin add: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "SessionStart: sh "+root+"/hooks/start.sh") || !strings.Contains(r.stdout, "plugin_kit_tools (stdio): "+root+"/bin/server") {
		t.Errorf("add does not show the hook and server as they will run:\n%s", r.stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("installing ran the plugin's hook")
	}
	if r := e.run(work, "", "plugin", "list"); r.code != 0 || !strings.Contains(r.stdout, "kit  0.1.0  disabled  "+src) {
		t.Errorf("plugin list: exit %d\n%s", r.code, r.stdout)
	}
	r = e.run(work, "", "plugin", "info", "kit")
	for _, want := range []string{"kit 0.1.0 (disabled)", "A test kit", "author: Zero Test", "hash: sha256:", "(ok)",
		"skills: kit:greet", "commands: /kit:hello", "agents: kit:reviewer", "SessionStart: sh " + root + "/hooks/start.sh " + marker, "plugin_kit_tools (stdio)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plugin info lacks %q:\n%s", want, r.stdout)
		}
	}

	_, req := execOnce(t, e, work, "hi")
	if strings.Contains(messagesOf(req), "kit:greet") || has(toolNames(req), "mcp__plugin_kit_tools__echo") {
		t.Error("a disabled plugin's skill or server reached the model")
	}
	if r := e.run(work, "", "agents", "list"); strings.Contains(r.stdout, "kit:reviewer") {
		t.Errorf("a disabled plugin's agent is listed:\n%s", r.stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a disabled plugin's hook ran")
	}

	if r := e.run(work, "", "plugin", "enable", "kit"); r.code != 0 || !strings.Contains(r.stdout, "enabled kit") {
		t.Fatalf("plugin enable: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	_, req = execOnce(t, e, work, "/kit:hello Ann")
	msgs := messagesOf(req)
	if !strings.Contains(msgs, "Hello from the kit to Ann") || !strings.Contains(msgs, "kit:greet: Greets the user by name") || strings.Contains(msgs, "GREET-BODY") {
		t.Errorf("the plugin's command or skill listing is not in the request:\n%s", msgs)
	}
	if tools := toolNames(req); !has(tools, "mcp__plugin_kit_tools__echo") || !has(tools, "skill") {
		t.Errorf("tools offered: %v", tools)
	}
	got, err := os.ReadFile(marker)
	if err != nil || string(got) != root+"|"+root+"/hooks/start.sh" {
		t.Errorf("the hook wrote %q (%v), want the plugin root %s expanded and set", got, err, root)
	}
	if r := e.run(work, "", "skills"); !strings.Contains(r.stdout, "/kit:greet  (plugin)") {
		t.Errorf("zero skills:\n%s", r.stdout)
	}
	if r := e.run(work, "", "mcp", "list"); !strings.Contains(r.stdout, "plugin_kit_tools") || !strings.Contains(r.stdout, "plugin kit") {
		t.Errorf("zero mcp list:\n%s", r.stdout)
	}
	if r := e.run(work, "", "agents", "list"); r.code != 0 || !strings.Contains(r.stdout, "kit:reviewer  (plugin, "+root+"/agents/reviewer.md)  Reviews the diff") {
		t.Errorf("zero agents list: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(work, "", "agents", "show", "kit:reviewer"); r.code != 0 || !strings.Contains(r.stdout, "tools: Read, Grep") || !strings.Contains(r.stdout, "REVIEWER-BODY") {
		t.Errorf("zero agents show kit:reviewer: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	os.Remove(marker)
	if r := e.run(work, "", "plugin", "disable", "kit"); r.code != 0 {
		t.Fatalf("plugin disable: exit %d: %s", r.code, r.stderr)
	}
	_, req = execOnce(t, e, work, "hi")
	if strings.Contains(messagesOf(req), "kit:greet") || has(toolNames(req), "mcp__plugin_kit_tools__echo") {
		t.Error("a disabled plugin still loads")
	}
	if r := e.run(work, "", "agents", "list"); strings.Contains(r.stdout, "kit:reviewer") {
		t.Errorf("a disabled plugin's agent is listed:\n%s", r.stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a disabled plugin's hook ran")
	}
	if r := e.run(work, "", "plugin", "remove", "kit"); r.code != 0 || !strings.Contains(r.stdout, "removed kit") {
		t.Fatalf("plugin remove: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(root); err == nil {
		t.Error("remove left the plugin's folder")
	}
	if r := e.run(work, "", "plugin", "info", "kit"); r.code != 2 || !strings.Contains(r.stderr, `no plugin "kit" is installed`) {
		t.Errorf("info after remove: exit %d: %s", r.code, r.stderr)
	}
}

// TestPluginFromGitRepoIsPinnedAndRefusedWhenModified: a plugin added
// from a local git repository (file://, real git) is the committed tree,
// pinned by commit and hash in the lock file; once a file of the
// installed copy changes, sessions refuse it with a warning and list
// shows it modified.
func TestPluginFromGitRepoIsPinnedAndRefusedWhenModified(t *testing.T) {
	e := newEnv(t)
	src := writeTestPlugin(t, filepath.Join(t.TempDir(), "marker"))
	commit := testbin.GitCommit(t, src)
	work := t.TempDir()

	r := e.run(work, "", "plugin", "add", "--enable", "file://"+src)
	if r.code != 0 || !strings.Contains(r.stdout, "(git, commit "+commit+")") || !strings.Contains(r.stdout, "enabled (--enable)") {
		t.Fatalf("plugin add: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lock, err := os.ReadFile(filepath.Join(e.home, ".config/zero/plugins.lock.json"))
	if err != nil || !strings.Contains(string(lock), `"commit": "`+commit+`"`) || !strings.Contains(string(lock), `"hash": "sha256:`) || !strings.Contains(string(lock), `"kind": "git"`) {
		t.Fatalf("lock file (%v):\n%s", err, lock)
	}
	_, req := execOnce(t, e, work, "hi")
	if !strings.Contains(messagesOf(req), "kit:greet") {
		t.Fatal("the plugin from git does not load")
	}

	installed := filepath.Join(e.home, ".local/share/zero/plugins/kit/skills/greet/SKILL.md")
	if err := os.WriteFile(installed, []byte("---\nname: greet\ndescription: Greets the user by name\n---\nsomething else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, req = execOnce(t, e, work, "hi")
	if strings.Contains(messagesOf(req), "kit:greet") || has(toolNames(req), "mcp__plugin_kit_tools__echo") {
		t.Error("a modified plugin loads")
	}
	if !strings.Contains(r.stderr, "plugin kit not loaded") || !strings.Contains(r.stderr, "changed since it was installed") {
		t.Errorf("no warning about the modified plugin:\n%s", r.stderr)
	}
	if r := e.run(work, "", "plugin", "list"); !strings.Contains(r.stdout, "enabled, modified: not loaded") {
		t.Errorf("plugin list:\n%s", r.stdout)
	}
}

// TestPluginFromMarketplace: a marketplace added from a git repository
// lists its plugins, and NAME@MARKETPLACE installs one of them.
func TestPluginFromMarketplace(t *testing.T) {
	e := newEnv(t)
	market := t.TempDir()
	testbin.WriteTree(t, market, map[string]string{
		".claude-plugin/marketplace.json": `{"name": "team", "owner": {"name": "Ops"}, "plugins": [
			{"name": "lint", "source": "./plugins/lint", "description": "Lints the code", "version": "2.0.0"}]}`,
		"plugins/lint/.claude-plugin/plugin.json": `{"name": "lint", "version": "2.0.0"}`,
		"plugins/lint/commands/lint.md":           "Lint $ARGUMENTS carefully\n",
	})
	testbin.GitCommit(t, market)
	work := t.TempDir()
	r := e.run(work, "", "plugin", "marketplace", "add", "file://"+market)
	if r.code != 0 || !strings.Contains(r.stdout, "added marketplace team (1 plugins)") || !strings.Contains(r.stdout, "lint@team 2.0.0  Lints the code") {
		t.Fatalf("marketplace add: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(work, "", "plugin", "add", "lint@team"); r.code != 0 || !strings.Contains(r.stdout, "enabled: its parts load") {
		t.Fatalf("add lint@team: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	_, req := execOnce(t, e, work, "/lint:lint main.go")
	if !strings.Contains(messagesOf(req), "Lint main.go carefully") {
		t.Errorf("the marketplace plugin's command did not expand:\n%s", messagesOf(req))
	}
	if r := e.run(work, "", "plugin", "add", "nope@team"); r.code == 0 || !strings.Contains(r.stderr, `lists no plugin "nope"`) {
		t.Errorf("an unknown plugin: exit %d: %s", r.code, r.stderr)
	}
}

// TestPluginWithoutVersionReadsCleanly: a plugin.json without "version"
// is named alone in add's and info's first lines, with no gap for the
// missing version.
func TestPluginWithoutVersionReadsCleanly(t *testing.T) {
	e := newEnv(t)
	src := filepath.Join(t.TempDir(), "bare")
	testbin.WriteTree(t, src, map[string]string{
		".claude-plugin/plugin.json": `{"name": "bare"}`,
		"commands/hi.md":             "Say hi\n",
	})
	work := t.TempDir()
	if r := e.run(work, "", "plugin", "add", src); r.code != 0 || !strings.HasPrefix(r.stdout, "installed bare from "+src+" (sha256:") {
		t.Fatalf("plugin add: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(work, "", "plugin", "info", "bare"); r.code != 0 || !strings.HasPrefix(r.stdout, "bare (enabled)\n") {
		t.Fatalf("plugin info: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

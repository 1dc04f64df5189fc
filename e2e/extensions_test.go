package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// extensionsRepo is a trusted repository with a Claude Code skill and
// commands, and a Gemini CLI command.
func extensionsRepo(t *testing.T, e *env) string {
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		".claude/skills/release-check/SKILL.md": "---\nname: release-check\ndescription: Check a release is ready to tag\n---\n" +
			"BODY-MARKER: run the checklist in checklist.md, then report.\n",
		".claude/skills/release-check/checklist.md": "1. tests pass\n",
		".claude/commands/greet.md":                 "---\ndescription: greet someone\nargument-hint: NAME\n---\nSay hello to $1 ($ARGUMENTS).\nShell says: !`echo from-the-shell`\nSee @notes.txt\n",
		".claude/commands/broken.md":                "Before: !`echo one; exit 3`\n",
		".gemini/commands/git/summary.toml":         "description = \"summarize a branch\"\nprompt = \"Summarize the branch {{args}}.\"\n",
		"notes.txt":                                 "NOTES-MARKER\n",
	})
	if r := e.run(dir, "", "trust"); r.code != 0 {
		t.Fatalf("zero trust: exit %d: %s", r.code, r.stderr)
	}
	return dir
}

// messagesOf is a chat request's messages as JSON text.
func messagesOf(r llmtest.Request) string {
	b, _ := json.Marshal(r.Map()["messages"])
	return string(b)
}

// toolNames are the names of the tools a chat request offers.
func toolNames(r llmtest.Request) []string {
	var out []string
	list, _ := r.Map()["tools"].([]any)
	for _, t := range list {
		fn, _ := t.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		out = append(out, name)
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSkillBodyLoadsOnlyOnCall: the first request carries the skill's
// name and description and offers the skill tool, not the body; the body
// (and the files beside it) reach the model in the tool result after it
// calls skill. A folder without skills is offered no skill tool.
func TestSkillBodyLoadsOnlyOnCall(t *testing.T) {
	e := newEnv(t)
	dir := extensionsRepo(t, e)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("s1", "skill", `{"name":"release-check"}`)),
		llmtest.Reply(tc("s2", "skill", `{"name":"release-check","file":"checklist.md"}`)),
		llmtest.Reply(llmtest.Text("ready to tag")),
	)
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", "is the release ready?")
	if r.code != 0 || !strings.Contains(r.stdout, "ready to tag") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := chatRequests(srv, 0)
	if len(reqs) != 3 {
		t.Fatalf("%d chat requests, want 3", len(reqs))
	}
	first := messagesOf(reqs[0])
	if !strings.Contains(first, "release-check: Check a release is ready to tag") || strings.Contains(first, "BODY-MARKER") {
		t.Errorf("first request should list the skill without its body:\n%s", first)
	}
	if !has(toolNames(reqs[0]), "skill") {
		t.Errorf("the skill tool is not offered: %v", toolNames(reqs[0]))
	}
	if second := messagesOf(reqs[1]); !strings.Contains(second, "BODY-MARKER") || !strings.Contains(second, "checklist.md") {
		t.Errorf("the skill call's result lacks the body or its files:\n%s", second)
	}
	if third := messagesOf(reqs[2]); !strings.Contains(third, "1. tests pass") {
		t.Errorf("the file beside SKILL.md was not returned:\n%s", third)
	}
	for i, q := range reqs {
		if !slicesEqual(toolNames(q), toolNames(reqs[0])) {
			t.Errorf("request %d offers %v, the first %v: the tool list changed", i, toolNames(q), toolNames(reqs[0]))
		}
	}

	plain := t.TempDir()
	srv2 := llmtest.NewServer(t)
	srv2.Script(llmtest.Reply(llmtest.Text("hi")))
	if r := e.run(plain, "", "exec", "--base-url", srv2.URL(), "--model", "llmtest-model", "hello"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if names := toolNames(chatRequests(srv2, 0)[0]); has(names, "skill") {
		t.Errorf("a folder without skills is offered the skill tool: %v", names)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestExecExpandsCustomCommands: "/greet Ann" is the Markdown command
// with its arguments, its !`cmd` output (run through the gate and the
// sandbox) and its @file; "/git:summary main" the Gemini TOML command;
// a skill runs as /release-check.
func TestExecExpandsCustomCommands(t *testing.T) {
	e := newEnv(t)
	dir := extensionsRepo(t, e)
	cases := []struct{ prompt, want string }{
		{"/greet Ann", `Say hello to Ann (Ann).\nShell says: from-the-shell`},
		{"/greet Ann", "NOTES-MARKER"},
		{"/git:summary main", "Summarize the branch main."},
		{"/release-check v1.2", "BODY-MARKER"},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		r := e.run(dir, "", "exec", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", c.prompt)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", c.prompt, r.code, r.stderr)
		}
		if got := messagesOf(chatRequests(srv, 0)[0]); !strings.Contains(got, c.want) {
			t.Errorf("%s: the prompt sent lacks %q:\n%s", c.prompt, c.want, got)
		}
	}
}

// TestExecCommandFailureStopsTheRun: a command whose !`cmd` exits non-zero
// is not sent to the model; exec says why and exits non-zero. An unknown
// /name is refused before the run, naming the commands there are.
func TestExecCommandFailureStopsTheRun(t *testing.T) {
	e := newEnv(t)
	dir := extensionsRepo(t, e)
	srv := llmtest.NewServer(t)
	r := e.run(dir, "", "exec", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", "/broken")
	if r.code != 4 || !strings.Contains(r.stderr, "/broken: !`echo one; exit 3`: exited 3") || !strings.Contains(r.stderr, "the command stopped before anything was sent to the model") || strings.Contains(r.stderr, "resume") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = e.run(dir, "", "exec", "-o", "json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", "/broken")
	if r.code != 4 || !strings.Contains(r.stdout, "exited 3") || !strings.Contains(r.stderr, "nothing was sent to the model") {
		t.Errorf("json: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", "/nosuch x")
	if r.code != 2 || !strings.Contains(r.stderr, "unknown command /nosuch") || !strings.Contains(r.stderr, "/greet") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if n := len(chatRequests(srv, 0)); n != 0 {
		t.Errorf("%d chat requests, want none", n)
	}
}

// TestCommandModelAppliesToItsPromptOnly: a command whose front matter
// names a model the server offers runs its prompt on that model; the
// session's next prompt is back on its own. A model the server lacks is a
// warning, and the session's model answers.
func TestCommandModelAppliesToItsPromptOnly(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	home := e.home
	testbin.WriteTree(t, home, map[string]string{
		".claude/commands/quick.md":   "---\nmodel: small-model\n---\nAnswer briefly: $ARGUMENTS\n",
		".claude/commands/missing.md": "---\nmodel: haiku\n---\nAnswer: $ARGUMENTS\n",
	})
	srv := llmtest.NewServer(t)
	srv.SetModels("llmtest-model", "small-model")
	srv.Script(llmtest.Reply(llmtest.Text("one")), llmtest.Reply(llmtest.Text("two")), llmtest.Reply(llmtest.Text("three")))
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "llmtest-model", "/quick why?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res struct{ SessionID string }
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if r := e.run(dir, "", "exec", "--resume="+res.SessionID, "--base-url", srv.URL(), "--model", "llmtest-model", "and then?"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", "/missing x")
	if r.code != 0 || !strings.Contains(r.stderr, "the command asks for model haiku (the provider does not offer it): using llmtest-model") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var models []string
	for _, q := range chatRequests(srv, 0) {
		m, _ := q.Map()["model"].(string)
		models = append(models, m)
	}
	if strings.Join(models, " ") != "small-model llmtest-model llmtest-model" {
		t.Errorf("models asked: %q", models)
	}
}

// TestCommandAllowedToolsHoldForItsPromptOnly: a command's allowed-tools
// (Claude Code's Bash(echo:*)) let its !`echo` line and the model's echo
// calls of that prompt run in normal mode without anyone to ask; the next
// prompt's echo call is refused again, as it is without the command.
func TestCommandAllowedToolsHoldForItsPromptOnly(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	testbin.WriteTree(t, e.home, map[string]string{
		".claude/commands/shout.md": "---\nallowed-tools: Bash(echo:*)\n---\nSay: !`echo loud-and-clear`\n",
	})
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "bash", `{"command":"echo inside-the-command"}`)),
		llmtest.Reply(llmtest.Text("done")),
		llmtest.Reply(tc("c2", "bash", `{"command":"echo after-the-command"}`)),
		llmtest.Reply(llmtest.Text("done again")),
	)
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "llmtest-model", "/shout")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res struct{ SessionID string }
	json.Unmarshal([]byte(r.stdout), &res)
	if r := e.run(dir, "", "exec", "--resume="+res.SessionID, "--base-url", srv.URL(), "--model", "llmtest-model", "once more"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := chatRequests(srv, 0)
	if len(reqs) != 4 {
		t.Fatalf("%d chat requests, want 4", len(reqs))
	}
	if got := messagesOf(reqs[0]); !strings.Contains(got, "Say: loud-and-clear") {
		t.Errorf("the !`echo` line did not run:\n%s", got)
	}
	if got := messagesOf(reqs[1]); !strings.Contains(got, `inside-the-command\n`) || strings.Contains(got, "needs approval") {
		t.Errorf("the echo call of the command's prompt did not run:\n%s", got)
	}
	if got := messagesOf(reqs[3]); !strings.Contains(got, "needs approval") {
		t.Errorf("the echo call of the next prompt was not refused:\n%s", got)
	}
}

// TestUntrustedProjectSkillsAndCommandsAreSaidAndIgnored: before `zero
// trust`, a repository's skills and commands do not load (no skill tool,
// no listing, "/greet" unknown) and exec says why on stderr.
func TestUntrustedProjectSkillsAndCommandsAreSaidAndIgnored(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		".claude/skills/x/SKILL.md":  "---\ndescription: a project skill\n---\nbody\n",
		".claude/commands/greet.md":  "Say hello.\n",
		".gemini/commands/plan.toml": "prompt = \"Plan.\"\n",
	})
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("hi")))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", "hello")
	if r.code != 0 || !strings.Contains(r.stderr, "this folder has project skills or commands (1 skills, 2 commands); they are ignored until you run `zero trust` here") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	req := chatRequests(srv, 0)[0]
	if has(toolNames(req), "skill") || strings.Contains(messagesOf(req), "a project skill") {
		t.Errorf("an untrusted skill reached the model: %v", toolNames(req))
	}
	if r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", "/greet"); r.code != 2 || !strings.Contains(r.stderr, "unknown command /greet") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}

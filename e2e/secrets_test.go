package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// leaksIn returns, per place, the corpus secrets found in the files under
// root.
func leaksIn(t *testing.T, corpus []testbin.Secret, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".checkpoints" {
			// Rewind's copies of workspace files as the user has them
			// (internal/checkpoint): restoring needs the real bytes.
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if l := testbin.Leaks(corpus, string(b)); len(l) > 0 {
			out[p] = l
		}
		return nil
	})
	return out
}

// secretHooks writes user hooks that print the corpus on every channel a
// hook has: a PreToolUse block's reason (Glob), PostToolUse
// additionalContext and systemMessage (Read), and a prompt hook's plain
// stdout.
func secretHooks(t *testing.T, e *env, text string) {
	t.Helper()
	dir := filepath.Join(e.home, ".config", "zero")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "corpus.txt"), []byte(text), 0o600)
	post, _ := json.Marshal(map[string]any{"systemMessage": text,
		"hookSpecificOutput": map[string]any{"hookEventName": "PostToolUse", "additionalContext": text}})
	os.WriteFile(filepath.Join(dir, "post.json"), post, 0o600)
	hook := func(cmd string) []map[string]any {
		return []map[string]any{{"hooks": []map[string]any{{"type": "command", "command": cmd}}}}
	}
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": hook("cat " + filepath.Join(dir, "corpus.txt")),
		"PreToolUse":       []map[string]any{{"matcher": "Glob", "hooks": []map[string]any{{"type": "command", "command": "cat " + filepath.Join(dir, "corpus.txt") + " >&2; exit 2"}}}},
		"PostToolUse":      []map[string]any{{"matcher": "Read", "hooks": []map[string]any{{"type": "command", "command": "cat " + filepath.Join(dir, "post.json")}}}},
	}})
	os.WriteFile(filepath.Join(dir, "settings.json"), settings, 0o600)
}

// The fake-secret corpus (internal/redact/testdata/secrets.txt) reaches
// Zero through every tool and hook channel, and no secret of it shows on
// stdout (stream-json), stderr, in a request to the model, in the session
// directory (log and spilled outputs) or in the MCP logs.
func TestCorpusSecretsLeakThroughNoOutputPath(t *testing.T) {
	corpus := testbin.SecretCorpus(t)
	text := testbin.SecretText(corpus)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.txt"), []byte(text), 0o644)
	// Large enough to be spilled to the session directory.
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat(text, 12)), 0o644)
	e := newEnv(t)
	e.vars = append(e.vars, "ZERO_CONTEXT_WINDOW=200000")
	secretHooks(t, e, text)
	writeMCP(t, e, `{"mcpServers": {"fs": {"command": "`+npmServer(t, "mcp-server-filesystem")+`", "args": ["`+dir+`"], "alwaysLoad": true}}}`)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(
			tc("s1", "read_file", `{"path":"secrets.txt"}`),
			tc("s2", "bash", `{"command":"cat secrets.txt; cat secrets.txt >&2"}`),
			tc("s3", "grep", `{"pattern":"EXAMPLE","path":"."}`),
			tc("s4", "glob", `{"pattern":"*.txt"}`),
			tc("s5", "mcp__fs__read_text_file", `{"path":"`+filepath.Join(dir, "secrets.txt")+`"}`),
			tc("s6", "bash", `{"command":"cat big.txt"}`),
		),
		llmtest.Reply(llmtest.Text("Read them all.")),
	)
	evs, r := execStream(t, e, dir, "--auto-approve", "--base-url", srv.URL(), "--model", "m", "read the secrets")
	if r.code != 0 || final(evs) != "Read them all." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	res := toolResults(evs)
	if len(res) != 6 {
		t.Fatalf("want 6 tool results, got %d: %v", len(res), res)
	}
	for _, x := range res {
		c, _ := x["content"].(string)
		if !strings.Contains(c, "[REDACTED:") {
			t.Errorf("tool result %v masked nothing: %.300s", x["callId"], c)
		}
	}
	// Each hook channel carried the corpus, masked.
	if reqs := completions(srv); len(reqs) == 0 || strings.Count(string(reqs[0].Body), "[REDACTED:") < len(corpus) {
		t.Error("the prompt hook's output did not reach the first request masked")
	}
	if !strings.Contains(r.stdout, "hook says") {
		t.Error("the PostToolUse hook's systemMessage was not shown")
	}
	leaks := map[string][]string{}
	if l := testbin.Leaks(corpus, r.stdout); len(l) > 0 {
		leaks["stdout (stream-json)"] = l
	}
	if l := testbin.Leaks(corpus, r.stderr); len(l) > 0 {
		leaks["stderr"] = l
	}
	for i, req := range srv.Requests() {
		if l := testbin.Leaks(corpus, string(req.Body)); len(l) > 0 {
			leaks["model request "+string(rune('0'+i))] = l
		}
	}
	for p, l := range leaksIn(t, corpus, e.sessionDir) {
		leaks[p] = l
	}
	for p, l := range leaksIn(t, corpus, filepath.Join(e.home, ".local")) {
		leaks[p] = l
	}
	for place, l := range leaks {
		t.Errorf("%d secrets leaked to %s: %v", len(l), place, l)
	}
}

// `zero hooks test` shows what each hook printed (stderr, a block's
// reason, context for the model) masked like every other output: the
// corpus, printed by the hooks of every channel, does not reach its
// stdout or stderr.
func TestHooksTestMasksTheSecretsHooksPrint(t *testing.T) {
	corpus := testbin.SecretCorpus(t)
	e := newEnv(t)
	secretHooks(t, e, testbin.SecretText(corpus))
	dir := t.TempDir()
	for _, args := range [][]string{
		{"PreToolUse", "--tool", "Glob", "--input", `{"pattern":"*"}`},
		{"PostToolUse", "--tool", "Read", "--input", `{"file_path":"a.txt"}`},
		{"UserPromptSubmit", "--prompt", "hi"},
	} {
		r := e.run(dir, "", append([]string{"hooks", "test"}, args...)...)
		want := 0
		if args[0] == "PreToolUse" {
			want = 1 // the hook exits 2: blocked
		}
		if r.code != want || !strings.Contains(r.stdout, "[REDACTED:") {
			t.Errorf("zero hooks test %s: exit %d, nothing masked:\n%s\n%s", args[0], r.code, r.stdout, r.stderr)
		}
		if l := testbin.Leaks(corpus, r.stdout+r.stderr); len(l) > 0 {
			t.Errorf("zero hooks test %s leaked %d secrets: %v", args[0], len(l), l)
		}
	}
}

func TestShellDoesNotSeeProviderKeys(t *testing.T) {
	e := newEnv(t)
	e.vars = append(e.vars, "OPENAI_API_KEY=sk-test-should-not-leak", "MY_SERVICE_TOKEN=tok-should-not-leak")
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("k1", "bash", `{"command":"env | rev"}`)), llmtest.Reply(llmtest.Text("ok")))
	r := e.run(t.TempDir(), "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "m", "env")
	out := toolResult(t, r.stdout, "k1")
	if strings.Contains(out, "kael-ton-dluohs") || strings.Contains(out, "tset-ks") || !strings.Contains(out, "HTAP") {
		t.Fatalf("bash environment: %q", out)
	}
}

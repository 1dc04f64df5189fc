package e2e

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestAtFileAttachesTheFileAsReadFileShowsIt: "@path" attaches the
// file's numbered lines and "@dir/" its listing after the prompt; an
// e-mail address and a missing file stay as typed (the missing one with
// a warning), and the prompt itself is unchanged.
func TestAtFileAttachesTheFileAsReadFileShowsIt(t *testing.T) {
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{
		"notes.txt":     "alpha\n\tbeta\n",
		"pkg/a.go":      "package pkg\n",
		"pkg/b_test.go": "package pkg\n",
	})
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("Read them.")))
	prompt := "summarise @notes.txt, list @pkg/ and mail bob@example.com about @missing.txt."
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "llmtest-model", prompt)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "@missing.txt not attached") {
		t.Fatalf("no warning for the missing file: %s", r.stderr)
	}
	reqs := completions(srv)
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	body := string(reqs[0].Body)
	want := prompt + "\\n\\nFiles the prompt names (@path):\\n" +
		`\u003cfile path=\"notes.txt\"\u003e\n    1\talpha\n    2\t\tbeta\n\u003c/file\u003e\n` +
		`\u003cdirectory path=\"pkg/\"\u003e\na.go\nb_test.go\n\u003c/directory\u003e`
	if !strings.Contains(body, want) {
		t.Fatalf("request lacks\n%s\n%s", want, body)
	}
}

// TestAtFileFillsTheReadCache: the model's own read_file of a file the
// prompt attached, unchanged since, is answered by a reference to the
// attachment rather than the file again.
func TestAtFileFillsTheReadCache(t *testing.T) {
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{"big.txt": strings.Repeat("a line of the file\n", 200)})
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("r1", "read_file", `{"path":"big.txt"}`)), llmtest.Reply(llmtest.Text("done")))
	r := e.run(dir, "", "exec", "-o", "json", "--base-url", srv.URL(), "--model", "llmtest-model", "read @big.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := completions(srv)
	msgs, _ := reqs[1].Map()["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content, _ := last["content"].(string)
	if last["role"] != "tool" || strings.Contains(content, "a line of the file") || !strings.Contains(content, "big.txt unchanged since") {
		t.Fatalf("the re-read was not answered from the attachment: %.300s", content)
	}
}

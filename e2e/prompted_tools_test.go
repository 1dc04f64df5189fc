package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// readAsText is a tool call written as text (Hermes <tool_call>), the
// format the prompted tool list asks for.
const readAsText = `<tool_call>{"name":"read_file","arguments":{"path":"a.go"}}</tool_call>`

// chatRequests are the chat requests srv received from index from on.
func chatRequests(srv *llmtest.Server, from int) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out[min(from, len(out)):]
}

func withTools(r llmtest.Request) bool { _, ok := r.Map()["tools"]; return ok }

// TestExecCompletesATaskWithToolsWrittenAsText: llama-server without
// --jinja refuses tools; `zero exec` switches to the prompted protocol,
// runs the read_file call the model wrote as text, and answers. A second
// run on the same server and model starts prompted: no request of it
// carries a tools field, so none is refused.
func TestExecCompletesATaskWithToolsWrittenAsText(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package alpha\n"), 0o644)
	e := newEnv(t)
	l := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 16384).NoJinja()
	l.Script(llmtest.Reply(llmtest.Text(readAsText)), llmtest.Reply(llmtest.Text("a.go is package alpha.")))
	// No --model: the server's one model is used.
	r := e.run(dir, "", "exec", "--base-url", l.URL(), "which package is a.go?")
	if r.code != 0 || r.stdout != "a.go is package alpha.\n" {
		t.Fatalf("exit %d, stdout %q:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "the server refuses native tool calls for qwen2.5-coder-0.5b-q8_0.gguf") {
		t.Errorf("stderr does not say tools were refused:\n%s", r.stderr)
	}
	first := chatRequests(l.Server, 0)
	if len(first) != 3 || !withTools(first[0]) || withTools(first[1]) || withTools(first[2]) {
		t.Fatalf("%d chat requests; want 3: refused with tools, then two without", len(first))
	}
	msgs, _ := first[2].Map()["messages"].([]any)
	if last, _ := msgs[len(msgs)-1].(map[string]any); last["role"] != "user" || !strings.HasPrefix(last["content"].(string), "<tool_response>\n") || !strings.Contains(last["content"].(string), "package alpha") {
		t.Errorf("the file's text did not go back as a user <tool_response>: %v", last)
	}

	l.Script(llmtest.Reply(llmtest.Text(readAsText)), llmtest.Reply(llmtest.Text("Still package alpha.")))
	r = e.run(dir, "", "exec", "--base-url", l.URL()+"/v1", "which package is a.go?")
	if r.code != 0 || r.stdout != "Still package alpha.\n" {
		t.Fatalf("second run: exit %d, stdout %q:\n%s", r.code, r.stdout, r.stderr)
	}
	second := chatRequests(l.Server, len(first))
	if len(second) != 2 || withTools(second[0]) || withTools(second[1]) {
		t.Fatalf("second run: %d chat requests, the first with tools %v; want 2 without", len(second), len(second) > 0 && withTools(second[0]))
	}
	if !strings.Contains(r.stderr, "an earlier run found the server refuses native tool calls") || strings.Contains(r.stderr, "the server refuses native tool calls for") {
		t.Errorf("second run: stderr should say it starts prompted from memory, and no refusal:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(e.home, ".config", "zero", "tool-protocols.json")); err != nil {
		t.Errorf("the choice is not in the config directory: %v", err)
	}
}

// TestExecStartsPromptedForAnOllamaModelWithoutTools: Ollama lists no
// "tools" capability for the model, so the first request already lists
// the tools in the prompt instead of being refused with HTTP 400.
func TestExecStartsPromptedForAnOllamaModelWithoutTools(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package alpha\n"), 0o644)
	e := newEnv(t)
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "stablelm2:latest", Arch: "stablelm", ContextLength: 4096, Loaded: 4096, Capabilities: []string{"completion"}})
	o.Script(llmtest.Reply(llmtest.Text(readAsText)), llmtest.Reply(llmtest.Text("a.go is package alpha.")))
	r := e.run(dir, "", "exec", "--base-url", o.URL(), "--model", "stablelm2:latest", "which package is a.go?")
	if r.code != 0 || r.stdout != "a.go is package alpha.\n" {
		t.Fatalf("exit %d, stdout %q:\n%s", r.code, r.stdout, r.stderr)
	}
	if c := chatRequests(o.Server, 0); len(c) != 2 || withTools(c[0]) {
		t.Fatalf("%d chat requests; want 2, none with tools", len(c))
	}
	if !strings.Contains(r.stderr, `Ollama lists no "tools" capability for stablelm2:latest`) {
		t.Errorf("stderr does not say why tools are in the prompt:\n%s", r.stderr)
	}
}

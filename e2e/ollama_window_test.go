package e2e

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestExecWarnsWhenOllamaCutsTheWindow: Ollama runs the model at less
// than it supports (its 4096-token default, or a model it has not loaded
// yet and will load at that default); `zero exec` says so at start, with
// the window it keeps to and how to raise it, and still completes.
func TestExecWarnsWhenOllamaCutsTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		loaded int
		want   string
	}{
		{"loaded at 4096", 4096, "zero: warning: Ollama runs qwen2.5-coder:7b at a 4096-token window (the model supports 32768); Zero keeps to 4096 tokens: " +
			"set OLLAMA_CONTEXT_LENGTH=32768 where `ollama serve` runs, or PARAMETER num_ctx 32768 in a Modelfile"},
		{"not loaded yet", 0, "zero: warning: Ollama has not loaded qwen2.5-coder:7b yet and will load it with its default window (assumed 4096 tokens; the model supports 32768)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: tc.loaded})
			o.Script(llmtest.Reply(llmtest.Text("Hello.")))
			r := e.run(t.TempDir(), "", "exec", "--base-url", o.URL(), "--model", "qwen2.5-coder:7b", "say hello")
			if r.code != 0 || r.stdout != "Hello.\n" {
				t.Fatalf("exit %d, stdout %q:\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr lacks the window warning %q:\n%s", tc.want, r.stderr)
			}
		})
	}
	// A window the model is run at in full is no news.
	e := newEnv(t)
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: 32768})
	o.Script(llmtest.Reply(llmtest.Text("Hello.")))
	if r := e.run(t.TempDir(), "", "exec", "--base-url", o.URL(), "--model", "qwen2.5-coder:7b", "say hello"); r.code != 0 || strings.Contains(r.stderr, "window") {
		t.Errorf("exit %d; a full window warned:\n%s", r.code, r.stderr)
	}
}

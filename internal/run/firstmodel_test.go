package run

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestBaseURLAloneUsesTheLoadedModel: --base-url without --model picks
// the model as discovery does (the chat model Ollama has loaded, not the
// first it lists), so naming the server changes nothing but where it is.
func TestBaseURLAloneUsesTheLoadedModel(t *testing.T) {
	isolate(t)
	o := llmtest.NewOllama(t, "0.12.6",
		llmtest.OllamaModel{Name: "nomic-embed-text:latest", Arch: "nomic-bert", ContextLength: 2048, Loaded: 2048},
		llmtest.OllamaModel{Name: "llama3.2:latest", Arch: "llama", ContextLength: 131072},
		llmtest.OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: 8192})
	for _, base := range []string{o.URL(), o.URL() + "/v1"} {
		var stderr bytes.Buffer
		r := &config.Resolved{Name: "custom", Kind: config.KindOpenAICompatible, BaseURL: base}
		firstModel(&stderr, r)
		if r.Model != "qwen2.5-coder:7b" || !strings.Contains(stderr.String(), "zero: using model qwen2.5-coder:7b") {
			t.Errorf("%s: model %q (%s), want the loaded chat model", base, r.Model, stderr.String())
		}
	}
	l := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 4096)
	if m, err := DefaultModel(context.Background(), &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: l.URL()}); err != nil || m != "qwen2.5-coder-0.5b-q8_0.gguf" {
		t.Errorf("llama-server: %q, %v", m, err)
	}
}

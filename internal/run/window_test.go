package run

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/discovery"
)

func TestWindowIsTheOneOllamaRunsNotTheModels(t *testing.T) {
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: 4096})
	r := &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: o.URL() + "/v1", Model: "qwen2.5-coder:7b"}
	for _, srv := range []*discovery.Server{nil, {Kind: discovery.Ollama, BaseURL: o.URL() + "/v1"}} {
		var stderr bytes.Buffer
		if w := contextWindow(&stderr, &config.Config{}, r, srv); w != 4096 {
			t.Errorf("window = %d, want Ollama's loaded 4096", w)
		}
		want := "zero: warning: Ollama runs qwen2.5-coder:7b at a 4096-token window (the model supports 32768); " +
			"Zero keeps to 4096 tokens: set OLLAMA_CONTEXT_LENGTH=32768 where `ollama serve` runs, or PARAMETER num_ctx 32768 in a Modelfile\n"
		if stderr.String() != want {
			t.Errorf("stderr = %q\nwant     %q", stderr.String(), want)
		}
	}
	// Once the model runs at its full window, nothing is said.
	o.Load("qwen2.5-coder:7b", 32768)
	var stderr bytes.Buffer
	if w := contextWindow(&stderr, &config.Config{}, r, nil); w != 32768 || stderr.Len() != 0 {
		t.Errorf("full window: %d, %q", w, stderr.String())
	}
}

func TestConfiguredWindowWinsButIsCheckedAgainstTheServer(t *testing.T) {
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "m", Arch: "qwen2", ContextLength: 32768, Loaded: 4096})
	r := &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: o.URL() + "/v1", Model: "m"}
	var stderr bytes.Buffer
	if w := contextWindow(&stderr, &config.Config{ContextWindow: 8192}, r, nil); w != 8192 {
		t.Errorf("window = %d, want 8192 from config", w)
	}
	want := "zero: warning: contextWindow 8192 in the config is more than the 4096 tokens the server runs m with (ollama /api/ps); " +
		"what does not fit is cut by the server: lower contextWindow or raise the server's window\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q\nwant     %q", stderr.String(), want)
	}
	stderr.Reset()
	if w := contextWindow(&stderr, &config.Config{ContextWindow: 4096}, r, nil); w != 4096 || stderr.Len() != 0 {
		t.Errorf("a configured window the server runs: %d, %q", w, stderr.String())
	}
}

func TestWindowOfAModelLMStudioLoadsOnDemandIsAssumedSmall(t *testing.T) {
	l := llmtest.NewLMStudio(t, llmtest.LMStudioModel{Key: "qwen/qwen3-coder-30b", Arch: "qwen3moe", MaxContextLength: 262144})
	r := &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: l.URL() + "/v1", Model: "qwen/qwen3-coder-30b"}
	var stderr bytes.Buffer
	srv := &discovery.Server{Kind: discovery.LMStudio, BaseURL: l.URL() + "/v1"}
	if w := contextWindow(&stderr, &config.Config{}, r, srv); w != 4096 {
		t.Errorf("window = %d, want 4096", w)
	}
	if !strings.Contains(stderr.String(), "LM Studio has not loaded qwen/qwen3-coder-30b yet") ||
		!strings.Contains(stderr.String(), "lms load qwen/qwen3-coder-30b --context-length 32768") {
		t.Errorf("stderr = %q", stderr.String())
	}
	l2 := llmtest.NewLMStudio(t, llmtest.LMStudioModel{Key: "qwen/qwen3-coder-30b", MaxContextLength: 262144, Loaded: 65536}).WithoutV1()
	r.BaseURL = l2.URL() + "/v1"
	if w := contextWindow(&bytes.Buffer{}, &config.Config{}, r, nil); w != 65536 {
		t.Errorf("loaded, v0 only: window = %d, want 65536", w)
	}
}

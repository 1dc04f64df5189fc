package run

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/catalog"
)

// TestModelIDs: /model and `zero models` list a server's live models for
// OpenAI-compatible providers and the catalog for vendor APIs.
func TestModelIDs(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("qwen3-coder-30b", "llama-3.3-70b")
	got, err := ModelIDs(context.Background(), &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: srv.URL() + "/v1"})
	if err != nil || !slices.Equal(got, []string{"qwen3-coder-30b", "llama-3.3-70b"}) {
		t.Errorf("live list = %q, %v", got, err)
	}
	got, err = ModelIDs(context.Background(), &config.Resolved{Kind: config.KindAnthropic})
	if err != nil || len(got) == 0 || len(got) != len(catalog.Models(string(config.KindAnthropic))) {
		t.Errorf("catalog list = %q, %v", got, err)
	}
	if _, err := ModelIDs(context.Background(), &config.Resolved{Kind: config.KindOpenAICompatible, BaseURL: "http://127.0.0.1:9/v1"}); err == nil {
		t.Error("a server that is not there listed models")
	}
	// OpenAI without a key says so before any network call (the base URL
	// is one no test server listens on: a request would fail otherwise).
	var ce *ConfigError
	if _, err := ModelIDs(context.Background(), &config.Resolved{Name: "openai", Kind: config.KindOpenAI, BaseURL: "http://127.0.0.1:9/v1"}); !errors.As(err, &ce) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("openai without a key: %v", err)
	}
}

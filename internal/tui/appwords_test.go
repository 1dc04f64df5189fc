package tui

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/providers/transport"
)

// TestProviderHintsNameTheAppsModelCommand: a provider error whose hint
// tells exec to pick a model with --model shows /model in the app.
func TestProviderHintsNameTheAppsModelCommand(t *testing.T) {
	for _, tc := range []struct {
		provider string
		status   int
		body     string
	}{
		{"openai", 404, `{"error":{"message":"The model gpt-9 does not exist","code":"model_not_found"}}`},
		{"ollama", 404, `{"error":"model \"qwen3:8b\" not found, try pulling it first"}`},
		{"ollama", 400, `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`},
	} {
		got := appWords(transport.Classify(tc.provider, "m", tc.status, nil, []byte(tc.body)).Error())
		if !strings.Contains(got, "with /model") || strings.Contains(got, "--model") {
			t.Errorf("%s %d: %q", tc.provider, tc.status, got)
		}
	}
}

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

// A hint to compact names the app's /compact in the app, and in exec's
// words (which has no /compact of its own) how to get there.
func TestProviderHintsNameTheAppsCompactCommand(t *testing.T) {
	hint := transport.Classify("openai", "m", 413, nil, []byte(`{"error":{"message":"request too large"}}`)).Error()
	if !strings.Contains(hint, "zero --resume, then /compact") {
		t.Errorf("exec's hint %q", hint)
	}
	if got := appWords(hint); !strings.Contains(got, "compact it (/compact)") || strings.Contains(got, "zero --resume") {
		t.Errorf("the app's hint %q", got)
	}
}

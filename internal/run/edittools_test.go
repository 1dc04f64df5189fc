package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// offered is the tool names of the newest request.
func offered(srv *llmtest.Server) string {
	var names []string
	for _, x := range lastRequest(srv)["tools"].([]any) {
		names = append(names, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return " " + strings.Join(names, " ") + " "
}

// A model trained on Codex's patch format gets apply_patch instead of
// edit_file; others get edit_file; the config's editTool decides first.
func TestEditToolFollowsTheModelAndTheConfig(t *testing.T) {
	for _, tc := range []struct {
		model, configured string
		patch, edit       bool
	}{
		{"gpt-5", "", true, false},
		{"gpt-4.1-mini", "", true, false},
		{"qwen2.5-coder:7b", "", false, true},
		{"gpt-5", "edit_file", false, true},
		{"qwen2.5-coder:7b", "apply_patch", true, false},
		{"qwen2.5-coder:7b", "both", true, true},
	} {
		t.Run(tc.model+"/"+tc.configured, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			isolate(t)
			if tc.configured != "" {
				os.MkdirAll(config.Dir(), 0o700)
				os.WriteFile(filepath.Join(config.Dir(), "config.json"), []byte(`{"editTool": "`+tc.configured+`"}`), 0o600)
			}
			rt, stderr := openIsolated(t, srv, Options{Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: tc.model}})
			s := openSession(t, rt, Which{})
			srv.Script(llmtest.Reply(llmtest.Text("ok")))
			s.Prompt(context.Background(), Turn{Prompt: "hi"})
			got := offered(srv)
			if strings.Contains(got, " apply_patch ") != tc.patch || strings.Contains(got, " edit_file ") != tc.edit {
				t.Fatalf("offered:%s(stderr %s)", got, stderr)
			}
		})
	}
}

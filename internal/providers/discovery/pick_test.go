package discovery

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

func TestPickModelPrefersTheLoadedChatModel(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]string
		want   string
	}{
		// ollama_api_ps.json has qwen3:8b loaded; the list has it first too,
		// so list llama3.2 first to see the loaded one win.
		{"ollama: the model in /api/ps", map[string]string{"/v1/models": "ollama_v1_models_two.json", "/api/ps": "ollama_api_ps.json"}, "qwen3:8b"},
		{"ollama: nothing loaded, the first listed", map[string]string{"/v1/models": "ollama_v1_models_two.json", "/api/ps": "ollama_api_ps_empty.json"}, "llama3.2:latest"},
		{"ollama: an embedding model listed first is passed over", map[string]string{"/v1/models": "ollama_v1_models_embed.json"}, "qwen3:8b"},
		// lmstudio_api_v1_models.json shows gemma loaded, qwen not.
		{"lm studio v1: the loaded instance", map[string]string{"/v1/models": "lmstudio_v1_models_qwen_first.json", "/api/v1/models": "lmstudio_api_v1_models.json"}, "gemma-3-270m-it-qat"},
		// lmstudio_api_v0_models.json has qwen/qwen3-coder-30b loaded.
		{"lm studio v0: state loaded", map[string]string{"/v1/models": "lmstudio_v1_models_embed_first.json", "/api/v0/models": "lmstudio_api_v0_models.json"}, "qwen/qwen3-coder-30b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The kind comes from the model list's owned_by.
			p := &Prober{Candidates: []Candidate{{Port: fake(t, tt.routes, false), Kind: Unknown}}}
			srv, err := p.Find(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := p.PickModel(context.Background(), *srv); got != tt.want {
				t.Errorf("PickModel = %q, want %q (models %v)", got, tt.want, srv.Models)
			}
		})
	}
	if got := (&Prober{}).PickModel(context.Background(), Server{Models: []string{"nomic-embed-text:latest"}}); got != "nomic-embed-text:latest" {
		t.Errorf("only an embedding model: %q", got)
	}
}

// TestIdentifyTellsTheKindOfANamedServer: a server named by --base-url
// (with or without /v1) is told apart as Find tells a probed one, so the
// model Zero picks there is the loaded one too.
func TestIdentifyTellsTheKindOfANamedServer(t *testing.T) {
	tests := []struct {
		name, suffix string
		routes       map[string]string
		kind         ServerKind
		version      string
		pick         string
	}{
		{"ollama, API root", "", map[string]string{"/v1/models": "ollama_v1_models_two.json", "/api/ps": "ollama_api_ps.json", "/api/version": "ollama_api_version.json"}, Ollama, "0.12.6", "qwen3:8b"},
		{"ollama, /v1", "/v1/", map[string]string{"/v1/models": "ollama_v1_models_two.json", "/api/ps": "ollama_api_ps.json", "/api/version": "ollama_api_version.json"}, Ollama, "0.12.6", "qwen3:8b"},
		{"llama.cpp", "/v1", llamacpp, LlamaCpp, "", "Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf"},
		{"lm studio", "", map[string]string{"/v1/models": "lmstudio_v1_models_qwen_first.json", "/api/v1/models": "lmstudio_api_v1_models.json"}, LMStudio, "", "gemma-3-270m-it-qat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := "http://127.0.0.1:" + strconv.Itoa(fake(t, tt.routes, false)) + tt.suffix
			p := &Prober{}
			srv, err := p.Identify(context.Background(), base)
			if err != nil {
				t.Fatal(err)
			}
			if srv.Kind != tt.kind || srv.Version != tt.version || !strings.HasSuffix(srv.BaseURL, "/v1") || strings.HasSuffix(srv.BaseURL, "/v1/v1") {
				t.Errorf("Identify(%s) = %+v; want kind %s version %q, a /v1 base", base, srv, tt.kind, tt.version)
			}
			if got := p.PickModel(context.Background(), *srv); got != tt.pick {
				t.Errorf("PickModel = %q, want %q", got, tt.pick)
			}
		})
	}
	if _, err := (&Prober{}).Identify(context.Background(), "http://127.0.0.1:"+strconv.Itoa(closedPort(t))); err == nil {
		t.Error("Identify of a closed port: no error")
	}
}

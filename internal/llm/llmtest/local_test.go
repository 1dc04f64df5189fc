package llmtest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The fake Ollama answers its own API in Ollama's shapes (see ollama.go
// for the sources), byte for byte as encoding/json writes Ollama's types.
func TestOllamaAnswersItsOwnAPIInOllamaShapes(t *testing.T) {
	o := NewOllama(t, "0.12.6",
		OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: 4096},
		OllamaModel{Name: "alice/coder:latest", Arch: "llama", ContextLength: 131072, NumCtx: 16384})
	tests := []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/api/version", "", 200, `{"version":"0.12.6"}`},
		{"GET", "/api/ps", "", 200, `{"models":[{"name":"qwen2.5-coder:7b","model":"qwen2.5-coder:7b","size":6654289920,` +
			`"digest":"` + ollamaDigest + `","details":{"parent_model":"","format":"gguf","family":"qwen2","families":["qwen2"],` +
			`"parameter_size":"7.6B","quantization_level":"Q4_K_M"},"expires_at":"2026-01-01T00:05:00Z","size_vram":6654289920,"context_length":4096}]}`},
		{"POST", "/api/show", `{"model":"alice/coder"}`, 200, `{"modelfile":"FROM /root/.ollama/models/blobs/sha256-` + ollamaDigest +
			`\nPARAMETER num_ctx 16384\n","parameters":"num_ctx                        16384\nstop                           \"\u003c|im_end|\u003e\"\n` +
			`temperature                    0.7","template":"{{- if .Messages }}...","details":{"parent_model":"","format":"gguf","family":"llama",` +
			`"families":["llama"],"parameter_size":"7.6B","quantization_level":"Q4_K_M"},"model_info":{"general.architecture":"llama",` +
			`"general.file_type":15,"general.parameter_count":7615616512,"llama.block_count":28,"llama.context_length":131072,` +
			`"tokenizer.ggml.model":"gpt2"},"capabilities":["completion","tools"],"modified_at":"2026-01-01T00:00:00Z"}`},
		{"POST", "/api/show", `{"model":"nope"}`, 404, `{"error":"model 'nope' not found"}`},
		{"GET", "/v1/models", "", 200, `{"object":"list","data":[{"id":"qwen2.5-coder:7b","object":"model","created":1767225600,"owned_by":"library"},` +
			`{"id":"alice/coder:latest","object":"model","created":1767225600,"owned_by":"alice"}]}`},
	}
	for _, tt := range tests {
		status, got := get(t, tt.method, o.URL()+tt.path, tt.body)
		if status != tt.status || got != tt.want {
			t.Errorf("%s %s = %d\n%s\nwant %d\n%s", tt.method, tt.path, status, got, tt.status, tt.want)
		}
	}
	o.Load("qwen2.5-coder:7b", 0)
	if _, got := get(t, "GET", o.URL()+"/api/ps", ""); got != `{"models":[]}` {
		t.Errorf("after unloading, /api/ps = %s", got)
	}
	if n := len(o.Requests()); n != 6 {
		t.Errorf("recorded %d requests, want 6", n)
	}
}

func TestOllamaServesChatFromTheScript(t *testing.T) {
	o := NewOllama(t, "0.12.6", OllamaModel{Name: "qwen3", Arch: "qwen3", ContextLength: 40960})
	o.Script(Reply(Text("hi")))
	status, got := get(t, "POST", o.URL()+"/v1/chat/completions", `{"model":"qwen3","messages":[]}`)
	if status != 200 || !strings.Contains(got, `"content":"hi"`) {
		t.Errorf("chat = %d %s", status, got)
	}
	if reqs := o.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Errorf("requests = %+v", reqs)
	}
}

// The fake LM Studio lists models as LM Studio's REST API does (see
// lmstudio.go for the sources).
func TestLMStudioListsModelsWithTheirWindows(t *testing.T) {
	l := NewLMStudio(t, LMStudioModel{Key: "qwen/qwen3-coder-30b", Arch: "qwen3moe", MaxContextLength: 262144, Loaded: 32768},
		LMStudioModel{Key: "google/gemma-3-12b", Arch: "gemma3", MaxContextLength: 131072})
	_, v0 := get(t, "GET", l.URL()+"/api/v0/models", "")
	wantV0 := `{"data":[{"id":"qwen/qwen3-coder-30b","object":"model","type":"llm","publisher":"qwen","arch":"qwen3moe",` +
		`"compatibility_type":"gguf","quantization":"Q4_K_M","state":"loaded","max_context_length":262144,"loaded_context_length":32768},` +
		`{"id":"google/gemma-3-12b","object":"model","type":"llm","publisher":"google","arch":"gemma3","compatibility_type":"gguf",` +
		`"quantization":"Q4_K_M","state":"not-loaded","max_context_length":131072}],"object":"list"}`
	if v0 != wantV0 {
		t.Errorf("/api/v0/models =\n%s\nwant\n%s", v0, wantV0)
	}
	_, v1 := get(t, "GET", l.URL()+"/api/v1/models", "")
	for _, s := range []string{`"key":"qwen/qwen3-coder-30b"`, `"loaded_instances":[{"id":"qwen/qwen3-coder-30b","config":{"context_length":32768}}],"max_context_length":262144`,
		`"key":"google/gemma-3-12b"`, `"loaded_instances":[],"max_context_length":131072`, `"description":null`} {
		if !strings.Contains(v1, s) {
			t.Errorf("/api/v1/models lacks %s:\n%s", s, v1)
		}
	}
	if _, m := get(t, "GET", l.URL()+"/v1/models", ""); !strings.Contains(m, `"owned_by":"organization_owner"`) {
		t.Errorf("/v1/models = %s", m)
	}
	// What LM Studio does not serve is HTTP 200 with an error body.
	for _, path := range []string{"/props", "/api/show"} {
		if status, body := get(t, "POST", l.URL()+path, "{}"); status != 200 || body != `{"error":"Unexpected endpoint or method. (POST `+path+`)"}` {
			t.Errorf("POST %s = %d %s", path, status, body)
		}
	}
	if status, body := get(t, "GET", l.WithoutV1().URL()+"/api/v1/models", ""); status != 200 || body != `{"error":"Unexpected endpoint or method. (GET /api/v1/models)"}` {
		t.Errorf("without v1: %d %s", status, body)
	}
}

func TestOllamaRefusesToolsForAModelWithoutTheCapability(t *testing.T) {
	o := NewOllama(t, "0.12.6", OllamaModel{Name: "stablelm2:latest", Arch: "stablelm", ContextLength: 4096, Capabilities: []string{"completion"}})
	o.Script(Reply(Text("plain")))
	status, got := get(t, "POST", o.URL()+"/v1/chat/completions", `{"model":"stablelm2","messages":[],"tools":[{"type":"function","function":{"name":"f"}}]}`)
	want := `{"error":{"message":"stablelm2:latest does not support tools","type":"api_error","param":null,"code":null}}`
	if status != 400 || got != want {
		t.Errorf("with tools = %d %s\nwant 400 %s", status, got, want)
	}
	if status, got := get(t, "POST", o.URL()+"/v1/chat/completions", `{"model":"stablelm2","messages":[]}`); status != 200 || !strings.Contains(got, "plain") {
		t.Errorf("without tools = %d %s", status, got)
	}
}

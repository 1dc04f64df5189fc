package llmtest

// A fake llama.cpp llama-server. Besides chat completions it answers:
//   - GET /v1/models (and /models) with both an OpenAI "data" array and an
//     Ollama-style "models" array naming the same model, keys sorted as
//     nlohmann::json writes them (the bytes of a real llama-server in
//     internal/providers/openai/testdata/models/llama-server.json);
//   - GET /props with default_generation_settings.n_ctx, the -c it runs,
//     and modalities.vision (false unless Vision: a model started without
//     --mmproj);
//   - without --jinja (NoJinja), a chat request with "tools" gets HTTP 500
//     {"error":{"code":500,"message":"tools param requires --jinja flag",
//     "type":"server_error"}} (oaicompat_chat_params_parse in
//     ggml-org/llama.cpp tools/server/utils.hpp), every time.
// Other chat completions go to the scripted Server underneath.

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// LlamaCpp is a fake llama-server; its Server answers chat completions.
type LlamaCpp struct {
	front
	model  string
	nCtx   int
	mu     sync.Mutex
	jinja  bool
	vision bool
	slots  int
}

// NewLlamaCpp starts a fake llama-server serving model (the file name it
// was started with, e.g. "qwen2.5-coder-0.5b-q8_0.gguf") at a window of
// nCtx tokens (-c), with --jinja; closed at the end of the test.
func NewLlamaCpp(t testing.TB, model string, nCtx int) *LlamaCpp {
	l := &LlamaCpp{model: model, nCtx: nCtx, jinja: true, slots: 1}
	l.front = newFront(t, l.own)
	return l
}

// NoJinja makes the server refuse tools, as llama-server started without
// --jinja (or with --no-jinja) does.
func (l *LlamaCpp) NoJinja() *LlamaCpp {
	l.mu.Lock()
	l.jinja = false
	l.mu.Unlock()
	return l
}

// Vision makes /props say the model takes images (llama-server started
// with --mmproj).
func (l *LlamaCpp) Vision() *LlamaCpp {
	l.mu.Lock()
	l.vision = true
	l.mu.Unlock()
	return l
}

// Slots sets the total_slots /props reports (default 1: llama-server
// without -np).
func (l *LlamaCpp) Slots(n int) *LlamaCpp {
	l.mu.Lock()
	l.slots = n
	l.mu.Unlock()
	return l
}

// llamaNoJinja is llama-server's refusal of tools without --jinja.
const llamaNoJinja = `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`

func (l *LlamaCpp) own(w http.ResponseWriter, r *http.Request, body []byte) bool {
	l.mu.Lock()
	jinja, vision, slots := l.jinja, l.vision, l.slots
	l.mu.Unlock()
	switch r.Method + " " + r.URL.Path {
	case "GET /v1/models", "GET /models":
		// map keys marshal sorted, as nlohmann::json's objects do.
		data := map[string]any{"created": created, "id": l.model, "object": "model", "owned_by": "llamacpp",
			"meta": map[string]any{"n_ctx_train": 32768, "n_embd": 896, "n_params": 494032768, "n_vocab": 151936, "size": 531068928, "vocab_type": 2}}
		details := map[string]any{"families": []string{""}, "family": "", "format": "gguf", "parameter_size": "", "parent_model": "", "quantization_level": ""}
		models := map[string]any{"capabilities": []string{"completion"}, "description": "", "details": details, "digest": "",
			"model": l.model, "modified_at": "", "name": l.model, "parameters": "", "size": "", "tags": []string{""}, "type": "model"}
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{data}, "models": []any{models}, "object": "list"})
	case "GET /props":
		writeJSON(w, http.StatusOK, map[string]any{"default_generation_settings": map[string]any{"n_ctx": l.nCtx}, "total_slots": slots, "model_path": l.model,
			"modalities": map[string]any{"vision": vision, "audio": false}})
	case "POST /v1/chat/completions", "POST /chat/completions":
		var req struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if jinja || json.Unmarshal(body, &req) != nil || len(req.Tools) == 0 {
			return false
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(llamaNoJinja))
	default:
		return false
	}
	return true
}

package llmtest

// A fake Ollama. Ollama answers its own API besides the OpenAI-compatible
// one, and that API is where the window it runs a model with shows: its
// OpenAI-compatible endpoint ignores what the model supports and loads it
// at the server's default context length. The shapes below are Ollama's
// Go types (github.com/ollama/ollama/api/types.go: ShowResponse,
// ProcessResponse, ListResponse, ModelDetails) in their field order, and
// Ollama writes them with encoding/json, so the bytes are Ollama's:
//   - GET /api/version  {"version":"0.12.6"}
//     (https://docs.ollama.com/api-reference/get-version);
//   - GET /api/tags     {"models":[{"name","model","modified_at","size",
//     "digest","details"}]};
//   - POST /api/show    {"model"} → "parameters" ("num_ctx  N" lines),
//     "details", "model_info" ({"general.architecture":"qwen2",
//     "qwen2.context_length":32768,...}), "capabilities";
//     404 {"error":"model 'x' not found"} for an unknown model;
//   - GET /api/ps       {"models":[{...,"expires_at","size_vram",
//     "context_length":4096}]} for loaded models
//     (https://docs.ollama.com/api/ps);
//   - GET /v1/models    {"object":"list","data":[{"id","object":"model",
//     "created","owned_by":"library"}]};
//   - POST /v1/chat/completions with "tools" for a model whose
//     capabilities lack "tools": HTTP 400 {"error":{"message":"stablelm2:latest
//     does not support tools","type":"api_error","param":null,"code":null}}
//     (the bytes in https://github.com/ollama/ollama/issues/6027).
// Other chat completions go to the scripted Server underneath.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// OllamaModel is one model the fake Ollama has pulled.
type OllamaModel struct {
	// Name is the model's name, e.g. "qwen2.5-coder:7b".
	Name string
	// Arch is general.architecture, e.g. "qwen2".
	Arch string
	// ContextLength is the trained window, model_info["<arch>.context_length"].
	ContextLength int
	// NumCtx is a Modelfile's PARAMETER num_ctx; 0 when not set.
	NumCtx int
	// Loaded, when > 0, is the context length the model is loaded with
	// (it is then listed by /api/ps).
	Loaded int
	// Capabilities default to ["completion","tools"].
	Capabilities []string
}

// Ollama is a fake Ollama server; its Server answers chat completions.
type Ollama struct {
	front
	version string
	mu      sync.Mutex
	models  []OllamaModel
}

// NewOllama starts a fake Ollama of version (e.g. "0.12.6") with models,
// closed at the end of the test when t is not nil.
func NewOllama(t testing.TB, version string, models ...OllamaModel) *Ollama {
	o := &Ollama{version: version, models: models}
	o.front = newFront(t, o.own)
	return o
}

// Load marks name loaded with a window of n tokens (0 unloads it), as a
// request with num_ctx or a new OLLAMA_CONTEXT_LENGTH would.
func (o *Ollama) Load(name string, n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range o.models {
		if o.models[i].Name == name {
			o.models[i].Loaded = n
		}
	}
}

type ollamaDetails struct {
	ParentModel       string   `json:"parent_model"`
	Format            string   `json:"format"`
	Family            string   `json:"family"`
	Families          []string `json:"families"`
	ParameterSize     string   `json:"parameter_size"`
	QuantizationLevel string   `json:"quantization_level"`
}

type ollamaShowResponse struct {
	License      string         `json:"license,omitempty"`
	Modelfile    string         `json:"modelfile,omitempty"`
	Parameters   string         `json:"parameters,omitempty"`
	Template     string         `json:"template,omitempty"`
	Details      ollamaDetails  `json:"details,omitempty"`
	ModelInfo    map[string]any `json:"model_info,omitempty"`
	Capabilities []string       `json:"capabilities,omitempty"`
	ModifiedAt   time.Time      `json:"modified_at,omitempty"`
}

type ollamaListModel struct {
	Name       string        `json:"name"`
	Model      string        `json:"model"`
	ModifiedAt time.Time     `json:"modified_at"`
	Size       int64         `json:"size"`
	Digest     string        `json:"digest"`
	Details    ollamaDetails `json:"details,omitempty"`
}

type ollamaProcessModel struct {
	Name          string        `json:"name"`
	Model         string        `json:"model"`
	Size          int64         `json:"size"`
	Digest        string        `json:"digest"`
	Details       ollamaDetails `json:"details,omitempty"`
	ExpiresAt     time.Time     `json:"expires_at"`
	SizeVRAM      int64         `json:"size_vram"`
	ContextLength int           `json:"context_length,omitempty"`
}

func (m OllamaModel) details() ollamaDetails {
	return ollamaDetails{Format: "gguf", Family: m.Arch, Families: []string{m.Arch}, ParameterSize: "7.6B", QuantizationLevel: "Q4_K_M"}
}

const ollamaDigest = "dae161e27b0e90dd1856c8bb3209201fd6736d8eb66298e75ed87571486f4364"

func (o *Ollama) own(w http.ResponseWriter, r *http.Request, body []byte) bool {
	o.mu.Lock()
	models := append([]OllamaModel(nil), o.models...)
	o.mu.Unlock()
	at := time.Unix(created, 0).UTC()
	switch r.Method + " " + r.URL.Path {
	case "GET /api/version":
		writeJSON(w, http.StatusOK, map[string]string{"version": o.version})
	case "GET /api/tags":
		list := struct {
			Models []ollamaListModel `json:"models"`
		}{Models: []ollamaListModel{}}
		for _, m := range models {
			list.Models = append(list.Models, ollamaListModel{Name: m.Name, Model: m.Name, ModifiedAt: at, Size: 4683087332, Digest: ollamaDigest, Details: m.details()})
		}
		writeJSON(w, http.StatusOK, list)
	case "GET /api/ps":
		ps := struct {
			Models []ollamaProcessModel `json:"models"`
		}{Models: []ollamaProcessModel{}}
		for _, m := range models {
			if m.Loaded > 0 {
				ps.Models = append(ps.Models, ollamaProcessModel{Name: m.Name, Model: m.Name, Size: 6654289920, Digest: ollamaDigest,
					Details: m.details(), ExpiresAt: at.Add(5 * time.Minute), SizeVRAM: 6654289920, ContextLength: m.Loaded})
			}
		}
		writeJSON(w, http.StatusOK, ps)
	case "POST /api/show":
		o.show(w, body, models, at)
	case "POST /v1/chat/completions":
		return o.refuseTools(w, body, models)
	case "GET /v1/models":
		type model struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Created int64  `json:"created"`
			OwnedBy string `json:"owned_by"`
		}
		list := struct {
			Object string  `json:"object"`
			Data   []model `json:"data"`
		}{Object: "list"} // no models: "data":null, as Ollama answers
		for _, m := range models {
			owner := "library"
			if i := strings.Index(m.Name, "/"); i > 0 {
				owner = m.Name[:i]
			}
			list.Data = append(list.Data, model{ID: m.Name, Object: "model", Created: created, OwnedBy: owner})
		}
		writeJSON(w, http.StatusOK, list)
	default:
		return false
	}
	return true
}

func (o *Ollama) show(w http.ResponseWriter, body []byte, models []OllamaModel, at time.Time) {
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	if name == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "model is required"})
		return
	}
	for _, m := range models {
		if m.Name != name && m.Name != name+":latest" {
			continue
		}
		params := []string{fmt.Sprintf("%-30s %v", "stop", `"<|im_end|>"`), fmt.Sprintf("%-30s %v", "temperature", 0.7)}
		modelfile := "FROM /root/.ollama/models/blobs/sha256-" + ollamaDigest + "\n"
		if m.NumCtx > 0 {
			params = append([]string{fmt.Sprintf("%-30s %d", "num_ctx", m.NumCtx)}, params...)
			modelfile += fmt.Sprintf("PARAMETER num_ctx %d\n", m.NumCtx)
		}
		caps := m.Capabilities
		if caps == nil {
			caps = []string{"completion", "tools"}
		}
		writeJSON(w, http.StatusOK, ollamaShowResponse{
			Modelfile: modelfile, Parameters: strings.Join(params, "\n"), Template: "{{- if .Messages }}...",
			Details: m.details(),
			ModelInfo: map[string]any{"general.architecture": m.Arch, "general.file_type": 15, "general.parameter_count": 7615616512,
				m.Arch + ".context_length": m.ContextLength, m.Arch + ".block_count": 28, "tokenizer.ggml.model": "gpt2"},
			Capabilities: caps, ModifiedAt: at,
		})
		return
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
}

// refuseTools answers a chat request with tools for a model without the
// tools capability as Ollama does; it reports whether it answered.
func (o *Ollama) refuseTools(w http.ResponseWriter, body []byte, models []OllamaModel) bool {
	var req struct {
		Model string            `json:"model"`
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Tools) == 0 {
		return false
	}
	for _, m := range models {
		if (m.Name == req.Model || m.Name == req.Model+":latest") && m.Capabilities != nil && !slices.Contains(m.Capabilities, "tools") {
			type apiError struct {
				Message string  `json:"message"`
				Type    string  `json:"type"`
				Param   *string `json:"param"`
				Code    *string `json:"code"`
			}
			b, _ := json.Marshal(map[string]apiError{"error": {Message: m.Name + " does not support tools", Type: "api_error"}})
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(b)
			return true
		}
	}
	return false
}

package llmtest

// A fake LM Studio. Besides its OpenAI-compatible API, LM Studio lists
// every downloaded model with the window it supports and, when loaded, the
// window it was loaded with. Shapes as LM Studio sends them:
//   - GET /api/v1/models (LM Studio 0.4.0+,
//     https://lmstudio.ai/docs/developer/rest/list): {"models":[{"type",
//     "publisher","key","display_name","architecture","quantization":
//     {"name","bits_per_weight"},"size_bytes","params_string",
//     "loaded_instances":[{"id","config":{"context_length":4096}}],
//     "max_context_length":32768,"format","capabilities":{"vision",
//     "trained_for_tool_use"},"description":null}]};
//   - GET /api/v0/models (https://lmstudio.ai/docs/developer/rest/endpoints):
//     {"data":[{"id","object":"model","type","publisher","arch",
//     "compatibility_type","quantization","state":"loaded",
//     "max_context_length":131072,"loaded_context_length":4096}],
//     "object":"list"} (loaded_context_length only on a loaded model, as in
//     https://github.com/zed-industries/zed/pull/25606);
//   - GET /v1/models: {"data":[{"id","object":"model","owned_by":
//     "organization_owner"}],"object":"list"};
//   - any other path: HTTP 200 with {"error":"Unexpected endpoint or
//     method. (GET /props)"}, as LM Studio answers
//     (https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/618).
// Chat completions (POST /v1/chat/completions) go to the scripted Server
// underneath.

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// LMStudioModel is one model downloaded in the fake LM Studio.
type LMStudioModel struct {
	// Key is the model's id, e.g. "qwen/qwen3-coder-30b".
	Key string
	// Arch is its architecture, e.g. "qwen3moe".
	Arch string
	// MaxContextLength is the window the model supports.
	MaxContextLength int
	// Loaded, when > 0, is the context length it is loaded with.
	Loaded int
}

// LMStudio is a fake LM Studio server; its Server answers chat completions.
type LMStudio struct {
	front
	mu     sync.Mutex
	models []LMStudioModel
	// noV1 makes /api/v1/models an unexpected endpoint, as before 0.4.0.
	noV1 bool
}

// NewLMStudio starts a fake LM Studio with models, closed at the end of
// the test when t is not nil.
func NewLMStudio(t testing.TB, models ...LMStudioModel) *LMStudio {
	l := &LMStudio{models: models}
	l.front = newFront(t, l.own)
	return l
}

// WithoutV1 makes the server answer as LM Studio before 0.4.0: no
// /api/v1/models, only /api/v0/models.
func (l *LMStudio) WithoutV1() *LMStudio {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.noV1 = true
	return l
}

type lmsV1Instance struct {
	ID     string `json:"id"`
	Config struct {
		ContextLength int `json:"context_length"`
	} `json:"config"`
}

type lmsV1Model struct {
	Type         string `json:"type"`
	Publisher    string `json:"publisher"`
	Key          string `json:"key"`
	DisplayName  string `json:"display_name"`
	Architecture string `json:"architecture"`
	Quantization struct {
		Name          string `json:"name"`
		BitsPerWeight int    `json:"bits_per_weight"`
	} `json:"quantization"`
	SizeBytes        int64           `json:"size_bytes"`
	ParamsString     string          `json:"params_string"`
	LoadedInstances  []lmsV1Instance `json:"loaded_instances"`
	MaxContextLength int             `json:"max_context_length"`
	Format           string          `json:"format"`
	Capabilities     struct {
		Vision            bool `json:"vision"`
		TrainedForToolUse bool `json:"trained_for_tool_use"`
	} `json:"capabilities"`
	Description *string `json:"description"`
}

type lmsV0Model struct {
	ID                  string `json:"id"`
	Object              string `json:"object"`
	Type                string `json:"type"`
	Publisher           string `json:"publisher"`
	Arch                string `json:"arch"`
	CompatibilityType   string `json:"compatibility_type"`
	Quantization        string `json:"quantization"`
	State               string `json:"state"`
	MaxContextLength    int    `json:"max_context_length"`
	LoadedContextLength int    `json:"loaded_context_length,omitempty"`
}

func publisher(key string) string {
	if i := strings.Index(key, "/"); i > 0 {
		return key[:i]
	}
	return "lmstudio-community"
}

func (l *LMStudio) own(w http.ResponseWriter, r *http.Request, _ []byte) bool {
	l.mu.Lock()
	models, noV1 := append([]LMStudioModel(nil), l.models...), l.noV1
	l.mu.Unlock()
	switch r.Method + " " + r.URL.Path {
	case "GET /api/v1/models":
		if noV1 {
			unexpected(w, r)
			return true
		}
		list := struct {
			Models []lmsV1Model `json:"models"`
		}{Models: []lmsV1Model{}}
		for _, m := range models {
			v := lmsV1Model{Type: "llm", Publisher: publisher(m.Key), Key: m.Key, DisplayName: m.Key, Architecture: m.Arch,
				SizeBytes: 4683087332, ParamsString: "7B", LoadedInstances: []lmsV1Instance{}, MaxContextLength: m.MaxContextLength, Format: "gguf"}
			v.Quantization.Name, v.Quantization.BitsPerWeight = "Q4_K_M", 4
			v.Capabilities.TrainedForToolUse = true
			if m.Loaded > 0 {
				in := lmsV1Instance{ID: m.Key}
				in.Config.ContextLength = m.Loaded
				v.LoadedInstances = append(v.LoadedInstances, in)
			}
			list.Models = append(list.Models, v)
		}
		writeJSON(w, http.StatusOK, list)
	case "GET /api/v0/models":
		list := struct {
			Data   []lmsV0Model `json:"data"`
			Object string       `json:"object"`
		}{Data: []lmsV0Model{}, Object: "list"}
		for _, m := range models {
			v := lmsV0Model{ID: m.Key, Object: "model", Type: "llm", Publisher: publisher(m.Key), Arch: m.Arch,
				CompatibilityType: "gguf", Quantization: "Q4_K_M", State: "not-loaded", MaxContextLength: m.MaxContextLength}
			if m.Loaded > 0 {
				v.State, v.LoadedContextLength = "loaded", m.Loaded
			}
			list.Data = append(list.Data, v)
		}
		writeJSON(w, http.StatusOK, list)
	case "GET /v1/models":
		type model struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			OwnedBy string `json:"owned_by"`
		}
		list := struct {
			Data   []model `json:"data"`
			Object string  `json:"object"`
		}{Data: []model{}, Object: "list"}
		for _, m := range models {
			list.Data = append(list.Data, model{ID: m.Key, Object: "model", OwnedBy: "organization_owner"})
		}
		writeJSON(w, http.StatusOK, list)
	case "POST /v1/chat/completions":
		return false
	default:
		unexpected(w, r)
	}
	return true
}

// unexpected answers as LM Studio does a path it does not serve.
func unexpected(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"error": "Unexpected endpoint or method. (" + r.Method + " " + r.URL.Path + ")"})
}

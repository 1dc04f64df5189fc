package discovery

// Ollama's silent window. Ollama's OpenAI-compatible endpoint
// (/v1/chat/completions) takes no num_ctx: it loads a model with the
// server's default context length whatever the model supports, and drops
// what does not fit. The default was 2048 tokens before v0.6.7, 4096 from
// v0.6.7 (https://github.com/ollama/ollama/releases/tag/v0.6.7), and from
// v0.15.5 depends on VRAM: 4096 below 24 GiB, 32768 up to 48 GiB, 262144
// above (https://github.com/ollama/ollama/releases/tag/v0.15.5,
// https://docs.ollama.com/context-length). OLLAMA_CONTEXT_LENGTH in the
// server's environment, or PARAMETER num_ctx in a Modelfile, raise it
// (https://docs.ollama.com/faq#how-can-i-specify-the-context-window-size);
// a request to the native /api/chat can carry options.num_ctx, which Zero
// does not use yet.
//
// So the window is read, most certain first: GET /api/ps context_length of
// the loaded model (https://docs.ollama.com/api/ps, field present in newer
// versions); POST /api/show "parameters" num_ctx; else the default of the
// server's version (GET /api/version), the smallest tier when it depends on
// VRAM, which is never more than Ollama gives. All are capped by the
// trained window, /api/show model_info["<arch>.context_length"].

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// ollamaShow is the part of POST /api/show's response Zero reads
// (api.ShowResponse in github.com/ollama/ollama/api/types.go).
type ollamaShow struct {
	Parameters   string                     `json:"parameters"`
	ModelInfo    map[string]json.RawMessage `json:"model_info"`
	Capabilities []string                   `json:"capabilities"`
}

// SupportsTools reports whether srv accepts native tool calls for model,
// and whether it knows: Ollama lists "tools" among a model's capabilities
// in POST /api/show (newer versions; older ones omit the field) and refuses a request with tools for a model
// without it (HTTP 400 "<model> does not support tools",
// https://github.com/ollama/ollama/issues/6027). known is false
// for other servers, for Ollama versions without capabilities, and when
// the server does not answer. A server of no known kind (a --base-url not
// probed) is asked too: only Ollama answers /api/show with capabilities.
func (p *Prober) SupportsTools(ctx context.Context, srv Server, model string) (ok, known bool) {
	switch srv.Kind {
	case Ollama, Unknown, "":
	default:
		return false, false
	}
	show, err := p.ollamaShow(ctx, srv, model)
	if err != nil || show.Capabilities == nil {
		return false, false
	}
	return slices.Contains(show.Capabilities, "tools"), true
}

// ollamaPs is the part of GET /api/ps's response Zero reads
// (api.ProcessResponse, api.ProcessModelResponse).
type ollamaPs struct {
	Models []struct {
		Name          string `json:"name"`
		Model         string `json:"model"`
		ContextLength int    `json:"context_length"`
	} `json:"models"`
}

// ollamaWindow reads the window Ollama runs model with (see the comment
// at the top of this file).
func (p *Prober) ollamaWindow(ctx context.Context, srv Server, model string) (Window, error) {
	show, err := p.ollamaShow(ctx, srv, model)
	if err != nil {
		return Window{}, err
	}
	trained := show.trained()
	if trained == 0 && numCtx(show.Parameters) == 0 {
		// Not Ollama's answer (LM Studio answers unknown paths with a 200
		// error body): nothing to go by, and no default to assume.
		return Window{}, fmt.Errorf("POST /api/show: no context_length in model_info")
	}
	w := Window{Model: trained}
	var ps ollamaPs
	if p.get(ctx, srv.Root()+"/api/ps", &ps) == nil {
		for _, m := range ps.Models {
			if m.ContextLength > 0 && (sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model)) {
				w.Tokens, w.Source = m.ContextLength, "ollama /api/ps"
			}
		}
	}
	if w.Tokens == 0 {
		if n := numCtx(show.Parameters); n > 0 {
			w.Tokens, w.Source = n, "ollama /api/show num_ctx"
		}
	}
	if w.Tokens == 0 {
		version := srv.Version
		if version == "" {
			version = p.ollamaVersion(ctx, srv)
		}
		w.Tokens, w.Source, w.Assumed = ollamaDefaultWindow(version), "ollama default", true
	}
	if trained > 0 && w.Tokens > trained {
		w.Tokens = trained
	}
	if w.Cut() {
		w.Warning = ollamaWarning(model, w)
	}
	return w, nil
}

// ollamaWarning tells the user the window is cut and how to raise it.
func ollamaWarning(model string, w Window) string {
	want := min(w.Model, 32768)
	how := fmt.Sprintf("set OLLAMA_CONTEXT_LENGTH=%d where `ollama serve` runs, or PARAMETER num_ctx %d in a Modelfile", want, want)
	if w.Assumed {
		return fmt.Sprintf("Ollama has not loaded %s yet and will load it with its default window "+
			"(assumed %d tokens; the model supports %d); Zero keeps to %d tokens: %s", model, w.Tokens, w.Model, w.Tokens, how)
	}
	return fmt.Sprintf("Ollama runs %s at a %d-token window (the model supports %d); Zero keeps to %d tokens: %s",
		model, w.Tokens, w.Model, w.Tokens, how)
}

// ollamaDefaultWindow is the context length Ollama of version v gives a
// model loaded without num_ctx: 2048 before 0.6.7, else 4096 (from 0.15.5
// the smallest VRAM tier). An unknown version gets 4096.
func ollamaDefaultWindow(v string) int {
	if ver, ok := parseVersion(v); ok && versionLess(ver, [3]int{0, 6, 7}) {
		return 2048
	}
	return 4096
}

func parseVersion(v string) ([3]int, bool) {
	var out [3]int
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, "-+ "); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return out, false
	}
	for i, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// sameOllamaModel compares Ollama model names, where "qwen3" means
// "qwen3:latest".
func sameOllamaModel(a, b string) bool {
	tag := func(s string) string {
		if i := strings.LastIndex(s, "/"); strings.Contains(s[i+1:], ":") {
			return s
		}
		return s + ":latest"
	}
	return a != "" && b != "" && tag(a) == tag(b)
}

// ollamaVersion reads GET /api/version ({"version":"0.12.6"},
// https://docs.ollama.com/api-reference/get-version); "" when it fails.
func (p *Prober) ollamaVersion(ctx context.Context, srv Server) string {
	var v struct {
		Version string `json:"version"`
	}
	if p.get(ctx, srv.Root()+"/api/version", &v) != nil {
		return ""
	}
	return v.Version
}

// ollamaShow reads Ollama's POST /api/show {"model"}.
func (p *Prober) ollamaShow(ctx context.Context, srv Server, model string) (ollamaShow, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	var show ollamaShow
	body, _ := json.Marshal(map[string]string{"model": model})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.Root()+"/api/show", bytes.NewReader(body))
	if err != nil {
		return show, err
	}
	req.Header.Set("Content-Type", "application/json")
	err = doJSON(p.client(), req, &show)
	return show, err
}

// trained is model_info["<general.architecture>.context_length"], or any
// "*.context_length" when the architecture key is missing; 0 when none.
func (s ollamaShow) trained() int {
	var arch string
	_ = json.Unmarshal(s.ModelInfo["general.architecture"], &arch)
	if arch != "" {
		if n := jsonInt(s.ModelInfo[arch+".context_length"]); n > 0 {
			return n
		}
	}
	for k, v := range s.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if n := jsonInt(v); n > 0 {
				return n
			}
		}
	}
	return 0
}

// numCtx finds "num_ctx N" in an Ollama parameters block (one
// "name value" pair per line).
func numCtx(params string) int {
	for _, line := range strings.Split(params, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

func jsonInt(raw json.RawMessage) int {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f <= 0 {
		return 0
	}
	return int(f)
}

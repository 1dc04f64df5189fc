package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// ErrNoWindow is wrapped when a server does not say its context window.
var ErrNoWindow = errors.New("server does not report its context window")

// ContextWindow asks srv for the context window, in tokens, it runs model
// with (see Prober.ContextWindow).
func ContextWindow(ctx context.Context, srv Server, model string) (int, error) {
	return (&Prober{}).ContextWindow(ctx, srv, model)
}

// ContextWindow asks srv for the context window, in tokens, it runs model
// with. Sources, by kind (the others are tried after, in case the kind was
// guessed wrong):
//   - vLLM: max_model_len from GET /v1/models;
//   - llama.cpp: GET /props, default_generation_settings.n_ctx (or n_ctx);
//   - Ollama: POST /api/show {"model"}: num_ctx from "parameters" when the
//     model sets it, else model_info["<arch>.context_length"] (the trained
//     window; Ollama may load the model with less unless num_ctx is set);
//   - LM Studio: GET /api/v0/models, loaded_context_length of the loaded
//     model, else max_context_length.
//
// Each request is bounded by the prober's timeout. A server that reports
// nothing gives an error wrapping ErrNoWindow.
func (p *Prober) ContextWindow(ctx context.Context, srv Server, model string) (int, error) {
	if n := srv.MaxModelLen[model]; n > 0 {
		return n, nil
	}
	order := []ServerKind{srv.Kind}
	for _, k := range []ServerKind{LlamaCpp, Ollama, LMStudio} {
		if k != srv.Kind {
			order = append(order, k)
		}
	}
	var errs []error
	for _, k := range order {
		var n int
		var err error
		switch k {
		case LlamaCpp:
			n, err = p.llamaProps(ctx, srv)
		case Ollama:
			n, err = p.ollamaShow(ctx, srv, model)
		case LMStudio:
			n, err = p.lmstudioModels(ctx, srv, model)
		default:
			continue
		}
		if err == nil && n > 0 {
			return n, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return 0, fmt.Errorf("%w: %s (model %s): %w", ErrNoWindow, srv.BaseURL, model, errors.Join(errs...))
}

func (p *Prober) get(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	return getJSON(ctx, p.client(), url, v)
}

// llamaProps reads llama.cpp's GET /props.
func (p *Prober) llamaProps(ctx context.Context, srv Server) (int, error) {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Defaults struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if err := p.get(ctx, srv.Root()+"/props", &props); err != nil {
		return 0, err
	}
	if props.Defaults.NCtx > 0 {
		return props.Defaults.NCtx, nil
	}
	return props.NCtx, nil
}

// ollamaShow reads Ollama's POST /api/show.
func (p *Prober) ollamaShow(ctx context.Context, srv Server, model string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	body, _ := json.Marshal(map[string]string{"model": model})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.Root()+"/api/show", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	var show struct {
		Parameters string                     `json:"parameters"`
		ModelInfo  map[string]json.RawMessage `json:"model_info"`
	}
	if err := doJSON(p.client(), req, &show); err != nil {
		return 0, err
	}
	if n := numCtx(show.Parameters); n > 0 {
		return n, nil
	}
	var arch string
	_ = json.Unmarshal(show.ModelInfo["general.architecture"], &arch)
	if arch != "" {
		if n := jsonInt(show.ModelInfo[arch+".context_length"]); n > 0 {
			return n, nil
		}
	}
	// No architecture key: any "*.context_length".
	for k, v := range show.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if n := jsonInt(v); n > 0 {
				return n, nil
			}
		}
	}
	return 0, nil
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

// lmstudioModels reads LM Studio's GET /api/v0/models.
func (p *Prober) lmstudioModels(ctx context.Context, srv Server, model string) (int, error) {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			State               string `json:"state"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if err := p.get(ctx, srv.Root()+"/api/v0/models", &list); err != nil {
		return 0, err
	}
	for _, m := range list.Data {
		if m.ID != model {
			continue
		}
		if m.LoadedContextLength > 0 {
			return m.LoadedContextLength, nil
		}
		return m.MaxContextLength, nil
	}
	return 0, nil
}

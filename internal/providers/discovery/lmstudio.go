package discovery

// LM Studio's window. LM Studio lists every downloaded model with the
// window it supports and, for a loaded one, the window it was loaded with:
//   - GET /api/v1/models (LM Studio 0.4.0+): models[].key,
//     max_context_length, loaded_instances[].config.context_length
//     (https://lmstudio.ai/docs/developer/rest/list);
//   - GET /api/v0/models (0.3.6+): data[].id, state, max_context_length,
//     and loaded_context_length on a loaded model
//     (https://lmstudio.ai/docs/developer/rest/endpoints; the loaded field
//     as LM Studio 0.3.15 sends it is quoted in
//     https://github.com/zed-industries/zed/pull/25606).
//
// A model that is not loaded is loaded on demand (just-in-time) with the
// context length in LM Studio's settings, which is not in either list and
// is often 4096 (the loader picks 4K-8K by free VRAM); Zero then assumes
// 4096 and says how to load the model with more.

import (
	"context"
	"fmt"
)

// lmstudioAssumed is the window assumed for a model LM Studio has not
// loaded yet.
const lmstudioAssumed = 4096

// lmstudioWindow reads the window LM Studio runs (or will run) model with.
func (p *Prober) lmstudioWindow(ctx context.Context, srv Server, model string) (Window, error) {
	maxLen, loaded, found, err := p.lmstudioV1(ctx, srv, model)
	source := "lmstudio /api/v1/models"
	if err != nil || !found {
		var err0 error
		maxLen, loaded, found, err0 = p.lmstudioV0(ctx, srv, model)
		source = "lmstudio /api/v0/models"
		if err0 != nil {
			if err == nil {
				err = err0
			}
			return Window{}, err
		}
	}
	if !found {
		return Window{}, nil
	}
	w := Window{Tokens: loaded, Model: maxLen, Source: source}
	if w.Tokens == 0 {
		w.Tokens, w.Assumed, w.Source = lmstudioAssumed, true, "lmstudio default"
	}
	if maxLen > 0 && w.Tokens > maxLen {
		w.Tokens = maxLen
	}
	if w.Cut() {
		want := min(w.Model, 32768)
		how := fmt.Sprintf("load it with a larger context length first: `lms load %s --context-length %d` "+
			"(or the Context Length setting in LM Studio's model loader)", model, want)
		if w.Assumed {
			w.Warning = fmt.Sprintf("LM Studio has not loaded %s yet and will load it with its default context length "+
				"(assumed %d tokens; the model supports %d); Zero keeps to %d tokens: %s", model, w.Tokens, w.Model, w.Tokens, how)
		} else {
			w.Warning = fmt.Sprintf("LM Studio runs %s at a %d-token window (the model supports %d); Zero keeps to %d tokens: %s",
				model, w.Tokens, w.Model, w.Tokens, how)
		}
	}
	return w, nil
}

// lmstudioV1 reads GET /api/v1/models for model: its maximum, its loaded
// instance's context length (0 when not loaded), and whether it is listed.
func (p *Prober) lmstudioV1(ctx context.Context, srv Server, model string) (maxLen, loaded int, found bool, err error) {
	var list struct {
		Models []struct {
			Key              string `json:"key"`
			MaxContextLength int    `json:"max_context_length"`
			LoadedInstances  []struct {
				ID     string `json:"id"`
				Config struct {
					ContextLength int `json:"context_length"`
				} `json:"config"`
			} `json:"loaded_instances"`
		} `json:"models"`
	}
	if err := p.get(ctx, srv.Root()+"/api/v1/models", &list); err != nil {
		return 0, 0, false, err
	}
	for _, m := range list.Models {
		for _, in := range m.LoadedInstances {
			// A request names a model by key or by instance id.
			if (m.Key == model || in.ID == model) && in.Config.ContextLength > 0 {
				return m.MaxContextLength, in.Config.ContextLength, true, nil
			}
		}
	}
	for _, m := range list.Models {
		if m.Key == model {
			return m.MaxContextLength, 0, true, nil
		}
	}
	return 0, 0, false, nil
}

// lmstudioV0 reads GET /api/v0/models for model, as lmstudioV1.
func (p *Prober) lmstudioV0(ctx context.Context, srv Server, model string) (maxLen, loaded int, found bool, err error) {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			State               string `json:"state"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if err := p.get(ctx, srv.Root()+"/api/v0/models", &list); err != nil {
		return 0, 0, false, err
	}
	for _, m := range list.Data {
		if m.ID != model {
			continue
		}
		if m.State == "loaded" && m.LoadedContextLength > 0 {
			return m.MaxContextLength, m.LoadedContextLength, true, nil
		}
		maxLen, found = m.MaxContextLength, true
	}
	return maxLen, 0, found, nil
}

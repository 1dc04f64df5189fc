package discovery

import (
	"context"
	"strings"
)

// PickModel chooses the model to use on srv when the user named none: the
// chat model the server has loaded already (Ollama GET /api/ps, LM Studio
// GET /api/v1/models or /api/v0/models), so that starting Zero neither
// waits for a load nor evicts the user's model; else the first listed
// model that is not an embedding model; else the first listed.
func (p *Prober) PickModel(ctx context.Context, srv Server) string {
	if len(srv.Models) == 0 {
		return ""
	}
	listed := map[string]bool{}
	for _, m := range srv.Models {
		listed[m] = true
	}
	var loaded []string
	switch srv.Kind {
	case Ollama:
		loaded = p.ollamaLoaded(ctx, srv)
	case LMStudio:
		loaded = p.lmstudioLoaded(ctx, srv)
	}
	for _, m := range loaded {
		if listed[m] && !embedding(m) {
			return m
		}
	}
	for _, m := range srv.Models {
		if !embedding(m) {
			return m
		}
	}
	return srv.Models[0]
}

// embedding reports whether a model id names an embedding model
// ("nomic-embed-text", "text-embedding-nomic-embed-text-v1.5",
// "mxbai-embed-large"), which cannot chat.
func embedding(id string) bool { return strings.Contains(strings.ToLower(id), "embed") }

// ollamaLoaded lists the models GET /api/ps shows loaded.
func (p *Prober) ollamaLoaded(ctx context.Context, srv Server) []string {
	var ps ollamaPs
	if p.get(ctx, srv.Root()+"/api/ps", &ps) != nil {
		return nil
	}
	var out []string
	for _, m := range ps.Models {
		out = append(out, m.Name, m.Model)
	}
	return out
}

// lmstudioLoaded lists the LLMs LM Studio has loaded (v1, else v0).
func (p *Prober) lmstudioLoaded(ctx context.Context, srv Server) []string {
	var v1 struct {
		Models []struct {
			Type            string     `json:"type"`
			Key             string     `json:"key"`
			LoadedInstances []struct{} `json:"loaded_instances"`
		} `json:"models"`
	}
	var out []string
	if p.get(ctx, srv.Root()+"/api/v1/models", &v1) == nil {
		for _, m := range v1.Models {
			if m.Type == "llm" && len(m.LoadedInstances) > 0 {
				out = append(out, m.Key)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	var v0 struct {
		Data []struct {
			ID    string `json:"id"`
			Type  string `json:"type"`
			State string `json:"state"`
		} `json:"data"`
	}
	if p.get(ctx, srv.Root()+"/api/v0/models", &v0) == nil {
		for _, m := range v0.Data {
			if m.State == "loaded" && (m.Type == "llm" || m.Type == "vlm") {
				out = append(out, m.ID)
			}
		}
	}
	return out
}

package discovery

import "context"

// Vision asks a llama.cpp server whether the model it runs takes images:
// GET /props says modalities.vision (true when it was started with a
// multimodal projector, --mmproj; https://github.com/ggml-org/llama.cpp/tree/master/tools/server).
// known is false when the server is not llama.cpp or does not say.
func (p *Prober) Vision(ctx context.Context, srv Server) (vision, known bool) {
	var props struct {
		Modalities *struct {
			Vision bool `json:"vision"`
		} `json:"modalities"`
	}
	if err := p.get(ctx, srv.Root()+"/props", &props); err != nil || props.Modalities == nil {
		return false, false
	}
	return props.Modalities.Vision, true
}

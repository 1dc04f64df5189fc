package discovery

import (
	"context"
	"errors"
	"fmt"
)

// ErrNoWindow is wrapped when a server does not say its context window.
var ErrNoWindow = errors.New("server does not report its context window")

// Window is what a server says about the context window it runs a model
// with.
type Window struct {
	// Tokens is the window requests must fit in: the one the server runs
	// (or will run) the model with. Compaction must keep under it.
	Tokens int
	// Model is the window the model supports (Ollama's trained
	// context_length, LM Studio's max_context_length); 0 when the server
	// does not say. It may exceed Tokens when the server cuts the window.
	Model int
	// Source says where Tokens came from, e.g. "ollama /api/ps".
	Source string
	// Kind is the server that answered (LlamaCpp for /props).
	Kind ServerKind
	// Assumed is true when Tokens is the server's documented default
	// because the model is not loaded yet, not a figure the server gave.
	Assumed bool
	// Warning, when not empty, is one line for the user: the window is
	// smaller than the model's and how to raise it.
	Warning string
	// Slots is how many requests the server runs at once (llama.cpp's
	// /props total_slots, set by -np); 0 when it does not say.
	Slots int
}

// Cut reports whether the server runs the model with less than it supports.
func (w Window) Cut() bool { return w.Model > 0 && w.Tokens < w.Model }

// ContextWindow asks srv for the context window, in tokens, it runs model
// with (see Prober.Window).
func ContextWindow(ctx context.Context, srv Server, model string) (int, error) {
	return (&Prober{}).ContextWindow(ctx, srv, model)
}

// ContextWindow returns Window(ctx, srv, model).Tokens.
func (p *Prober) ContextWindow(ctx context.Context, srv Server, model string) (int, error) {
	w, err := p.Window(ctx, srv, model)
	return w.Tokens, err
}

// Window asks srv for the context window it runs model with. Sources, by
// kind (the others are tried after, in case the kind was guessed wrong):
//   - vLLM: max_model_len from GET /v1/models;
//   - llama.cpp: GET /props, default_generation_settings.n_ctx (or n_ctx);
//   - Ollama: the loaded window from GET /api/ps, else num_ctx from POST
//     /api/show "parameters", else Ollama's default for a model it has not
//     loaded yet (ollama.go), never more than the model's
//     model_info["<arch>.context_length"];
//   - LM Studio: the loaded instance's context length from GET
//     /api/v1/models or GET /api/v0/models, else its default for a model
//     it loads on demand (lmstudio.go).
//
// Each request is bounded by the prober's timeout. A server that reports
// nothing gives an error wrapping ErrNoWindow.
func (p *Prober) Window(ctx context.Context, srv Server, model string) (Window, error) {
	if n := srv.MaxModelLen[model]; n > 0 {
		return Window{Tokens: n, Model: n, Source: "vllm max_model_len", Kind: VLLM}, nil
	}
	order := []ServerKind{srv.Kind}
	for _, k := range []ServerKind{LlamaCpp, Ollama, LMStudio} {
		if k != srv.Kind {
			order = append(order, k)
		}
	}
	var errs []error
	for _, k := range order {
		var w Window
		var err error
		switch k {
		case LlamaCpp:
			w, err = p.llamaProps(ctx, srv)
		case Ollama:
			w, err = p.ollamaWindow(ctx, srv, model)
		case LMStudio:
			w, err = p.lmstudioWindow(ctx, srv, model)
		default:
			continue
		}
		if err == nil && w.Tokens > 0 {
			w.Kind = k
			return w, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return Window{}, fmt.Errorf("%w: %s (model %s): %w", ErrNoWindow, srv.BaseURL, model, errors.Join(errs...))
}

func (p *Prober) get(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	return getJSON(ctx, p.client(), url, v)
}

// llamaProps reads llama.cpp's GET /props.
func (p *Prober) llamaProps(ctx context.Context, srv Server) (Window, error) {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Slots    int `json:"total_slots"`
		Defaults struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if err := p.get(ctx, srv.Root()+"/props", &props); err != nil {
		return Window{}, err
	}
	n := props.NCtx
	if props.Defaults.NCtx > 0 {
		n = props.Defaults.NCtx
	}
	return Window{Tokens: n, Source: "llama.cpp /props", Slots: props.Slots}, nil
}

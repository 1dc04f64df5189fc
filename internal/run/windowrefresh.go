package run

import (
	"context"
	"fmt"
	"time"

	"github.com/zero-agent/zero/internal/providers/discovery"
)

// refreshAssumedWindow follows the window a local server really loaded
// the model with, once: at start a model Ollama or LM Studio had not
// loaded yet got the server's documented default (discovery.Window,
// Assumed), but the first request loads it, at a window that may differ
// (Ollama 0.15.5+ picks it by VRAM; LM Studio by its settings). After a
// prompt the server says (Ollama's /api/ps, LM Studio's loaded instance),
// so later prompts compact by that figure. Not during a prompt.
func (s *Session) refreshAssumedWindow() {
	rt := s.rt
	rt.mu.Lock()
	assumed, model, old := rt.windowAssumed, rt.Active.Model, rt.Window
	rt.windowAssumed = false
	rt.mu.Unlock()
	if !assumed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	w, err := (&discovery.Prober{}).Window(ctx, discovery.Server{BaseURL: rt.Active.BaseURL}, model)
	cancel()
	if err != nil || w.Assumed || w.Tokens == old {
		return
	}
	s.agent.SetContextWindow(w.Tokens)
	s.fitWindow(w.Tokens)
	rt.setModel(model, w.Tokens)
	fmt.Fprintf(rt.warnings(), "zero: the server loaded %s with a %d-token window (%s), not the %d assumed at start; Zero now keeps to %d tokens\n",
		model, w.Tokens, w.Source, old, w.Tokens)
}

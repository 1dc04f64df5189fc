package run

import (
	"context"
	"fmt"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/openai"
)

// DefaultModel is the model Zero uses on the OpenAI-compatible server r
// names when no model is configured: on a server on this machine or the
// local network, the one discovery picks (the chat model it has loaded,
// else its first chat model: discovery.PickModel), as when nothing is
// configured at all; elsewhere, or when the server does not answer
// discovery without a key, the first model GET /models lists.
func DefaultModel(ctx context.Context, r *config.Resolved) (string, error) {
	if localHost(r.BaseURL) {
		p := &discovery.Prober{Timeout: 2 * time.Second}
		if srv, err := p.Identify(ctx, r.BaseURL); err == nil {
			return p.PickModel(ctx, *srv), nil
		}
	}
	ids, err := openai.ListModels(ctx, r.BaseURL, r.APIKey)
	if err != nil {
		return "", err
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("%s lists no models", r.BaseURL)
	}
	return ids[0], nil
}

// LocalServer reports whether base names a server on this machine or the
// local network, which Zero asks for its window and loaded model (a
// remote API is not probed).
func LocalServer(base string) bool { return localHost(base) }

package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// ListModels asks an OpenAI-compatible server for its models (GET
// {base}/models, base normalised as in Options.BaseURL) and returns their
// ids in the server's order, each once: llama-server answers with both an
// OpenAI "data" array and an Ollama-style "models" array naming the same
// model (handle_models in ggml-org/llama.cpp tools/server/server.cpp;
// testdata/models/llama-server.json), so `zero models` and `zero doctor`
// would otherwise count it twice. key may be empty. Errors are the transport's
// *llm.ProviderError: ErrConnect when nothing listens, otherwise the
// classified HTTP error. Bound the call with ctx; there is no retry.
func ListModels(ctx context.Context, baseURL, key string) ([]string, error) {
	base, err := apiBase(baseURL)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	u, _ := url.Parse(base)
	tc := &transport.Client{Provider: "openai", ConnectAttempts: 1, StartHint: StartHint(u, "")}
	resp, err := tc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, err
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		// Ollama's native /api/tags shape, for a base URL pointing there.
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, &llm.ProviderError{Kind: llm.ErrBadRequest, Provider: "openai", Status: resp.StatusCode,
			Message: "the models list is not JSON", Err: err, Hint: "check that the base URL points at an OpenAI-compatible server"}
	}
	ids := make([]string, 0, len(list.Data)+len(list.Models))
	seen := make(map[string]bool, cap(ids))
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, m := range list.Data {
		add(m.ID)
	}
	for _, m := range list.Models {
		add(m.Name)
	}
	return ids, nil
}

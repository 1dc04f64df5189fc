package mcp

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
)

// httpTransport is the SDK's streamable HTTP or legacy SSE client
// transport for cfg, sending cfg's headers and, when BearerTokenEnv names
// a set variable, Authorization: Bearer with its value; otherwise the
// OAuth token store holds for it (streamable HTTP only: the SDK's SSE
// client transport takes no OAuth handler).
func httpTransport(cfg mcpconfig.Server, getenv func(string) string, store mcpauth.Store) (mcp.Transport, error) {
	if cfg.URL == "" {
		return nil, fmt.Errorf("no url configured (add \"url\" to the server's entry)")
	}
	headers := http.Header{}
	for k, v := range cfg.Headers {
		headers.Set(k, v)
	}
	if cfg.BearerTokenEnv != "" {
		tok := strings.TrimSpace(getenv(cfg.BearerTokenEnv))
		if tok == "" {
			return nil, fmt.Errorf("bearer token variable %s is not set (export it, or remove bearer_token_env_var)", cfg.BearerTokenEnv)
		}
		headers.Set("Authorization", "Bearer "+tok)
	}
	client := &http.Client{Transport: &headerTransport{headers: headers, base: http.DefaultTransport}}
	if cfg.Transport == mcpconfig.SSE {
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}, nil
	}
	t := &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}
	if headers.Get("Authorization") == "" && store.Dir != "" {
		h, err := store.Handler(cfg.Name, cfg.URL)
		if err != nil {
			return nil, err
		}
		if h != nil {
			t.OAuthHandler = h
		}
	}
	return t, nil
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	headers http.Header
	base    http.RoundTripper
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.headers {
		req.Header[k] = vs
	}
	return t.base.RoundTrip(req)
}

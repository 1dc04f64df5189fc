package mcptest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// OAuthServer is an MCP server behind OAuth, with its own authorization
// server on the same origin, as the MCP authorization spec lays it out
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization):
// /mcp answers 401 with a resource_metadata challenge until a valid
// bearer token comes; /.well-known/oauth-protected-resource/mcp names
// the authorization server (RFC 9728); /.well-known/oauth-authorization-server
// describes it (RFC 8414); /register registers a client (RFC 7591);
// /authorize approves at once (the user's consent, simulated) and
// redirects with a code; /token exchanges the code, checking PKCE (RFC
// 7636), and refreshes. Serve it with httptest on 127.0.0.1.
type OAuthServer struct {
	// Base is the server's origin, http://127.0.0.1:PORT; set it before
	// the first request (httptest.NewUnstartedServer, then Listener.Addr).
	Base string

	// Authorized counts codes exchanged; Refreshed refresh grants;
	// Refused requests to /mcp without a valid token.
	Authorized, Refreshed, Refused atomic.Int32

	mu      sync.Mutex
	life    time.Duration
	clients map[string][]string // client id → redirect URIs
	codes   map[string]grant    // code → grant
	access  map[string]time.Time
	refresh map[string]string // refresh token → client id
	mcp     http.Handler
}

type grant struct{ client, redirect, challenge string }

// NewOAuthServer returns the server; its MCP endpoint is Base+"/mcp".
func NewOAuthServer() *OAuthServer {
	o := &OAuthServer{
		clients: map[string][]string{}, codes: map[string]grant{},
		access: map[string]time.Time{}, refresh: map[string]string{},
	}
	srv := NewServer(Options{})
	o.mcp = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return o
}

func (o *OAuthServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: o.Base + "/mcp", AuthorizationServers: []string{o.Base},
			ScopesSupported: []string{"tools"},
		}).ServeHTTP(w, r)
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer": o.Base, "authorization_endpoint": o.Base + "/authorize",
			"token_endpoint": o.Base + "/token", "registration_endpoint": o.Base + "/register",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"tools", "offline_access"},
		})
	case "/register":
		o.register(w, r)
	case "/authorize":
		o.authorize(w, r)
	case "/token":
		o.token(w, r)
	case "/mcp":
		auth.RequireBearerToken(o.verify, &auth.RequireBearerTokenOptions{
			ResourceMetadataURL: o.Base + "/.well-known/oauth-protected-resource/mcp",
		})(o.mcp).ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// SetTokenLife sets how long the access tokens issued from now on live;
// zero is an hour. oauth2 refreshes a token 10 s before its expiry, so a
// life under that makes every new connection refresh.
func (o *OAuthServer) SetTokenLife(d time.Duration) {
	o.mu.Lock()
	o.life = d
	o.mu.Unlock()
}

func (o *OAuthServer) verify(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
	o.mu.Lock()
	exp, ok := o.access[tok]
	o.mu.Unlock()
	if !ok || time.Now().After(exp) {
		o.Refused.Add(1)
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: []string{"tools"}, Expiration: exp}, nil
}

func (o *OAuthServer) register(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := secret()
	o.mu.Lock()
	o.clients[id] = meta.RedirectURIs
	o.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{
		"client_id": id, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "none",
		"grant_types": meta.GrantTypes, "response_types": meta.ResponseTypes, "client_name": meta.ClientName,
	})
}

func (o *OAuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	o.mu.Lock()
	uris, known := o.clients[q.Get("client_id")]
	o.mu.Unlock()
	redirect := q.Get("redirect_uri")
	if !known || !contains(uris, redirect) {
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "PKCE with S256 is required", http.StatusBadRequest)
		return
	}
	code := secret()
	o.mu.Lock()
	o.codes[code] = grant{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge")}
	o.mu.Unlock()
	to, _ := url.Parse(redirect)
	v := to.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	to.RawQuery = v.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

func (o *OAuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		g, ok := o.codes[r.PostForm.Get("code")]
		delete(o.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || g.client != r.PostForm.Get("client_id") || g.redirect != r.PostForm.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		o.Authorized.Add(1)
		o.issue(w, g.client)
	case "refresh_token":
		client, ok := o.refresh[r.PostForm.Get("refresh_token")]
		delete(o.refresh, r.PostForm.Get("refresh_token"))
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		o.Refreshed.Add(1)
		o.issue(w, client)
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

// issue answers a new access and refresh token; o.mu is held.
func (o *OAuthServer) issue(w http.ResponseWriter, client string) {
	life := o.life
	if life == 0 {
		life = time.Hour
	}
	acc, ref := secret(), secret()
	o.access[acc] = time.Now().Add(life)
	o.refresh[ref] = client
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": acc, "token_type": "Bearer", "refresh_token": ref,
		"expires_in": int(life.Seconds()), "scope": "tools",
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func secret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return fmt.Sprintf("%x", b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Package mcpauth owns OAuth for remote MCP servers: `zero mcp login`
// runs the authorization code flow (PKCE, dynamic client registration,
// a loopback redirect) through the official SDK's
// auth.AuthorizationCodeHandler, and the Store keeps each server's client
// registration and token in its own file (mode 0600) so later runs send
// the token and refresh it when it expires. Authorization follows
// https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization.
//
// It must not start servers or decide which servers exist (internal/mcp
// and internal/mcp/mcpconfig do); a run never opens a browser: when a
// stored token is missing or refused, the run's error says to log in.
package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// ErrLoginNeeded is the error of a request a server refused for want of
// authorization when Zero holds no usable token for it.
var ErrLoginNeeded = errors.New("the server needs authorization")

// Store is the folder holding one file per logged-in server,
// <Dir>/<name>.json. The zero value is unusable; Dir must be set.
type Store struct{ Dir string }

// Record is what a login leaves: the client registration the
// authorization server gave Zero and the latest token.
type Record struct {
	Server string `json:"server"`
	// URL is the server's endpoint at login; a record for another URL is
	// not used (the server's entry changed).
	URL          string        `json:"url"`
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	AuthURL      string        `json:"auth_url"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	RedirectURL  string        `json:"redirect_url,omitempty"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

// config is the oauth2 client configuration the record was made with.
func (r *Record) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: r.ClientID, ClientSecret: r.ClientSecret,
		Endpoint:    oauth2.Endpoint{AuthURL: r.AuthURL, TokenURL: r.TokenURL, AuthStyle: oauth2.AuthStyle(r.AuthStyle)},
		RedirectURL: r.RedirectURL, Scopes: r.Scopes,
	}
}

func newRecord(server, url string, cfg *oauth2.Config, tok *oauth2.Token) *Record {
	return &Record{
		Server: server, URL: url, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		AuthURL: cfg.Endpoint.AuthURL, TokenURL: cfg.Endpoint.TokenURL, AuthStyle: int(cfg.Endpoint.AuthStyle),
		RedirectURL: cfg.RedirectURL, Scopes: cfg.Scopes, Token: tok,
	}
}

// Path is the file of server name.
func (s Store) Path(name string) string {
	return filepath.Join(s.Dir, fileName(name)+".json")
}

// fileName keeps a server name safe as a file name (names come from the
// user's config and may hold anything).
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, strings.TrimLeft(name, "."))
}

// Load returns the record of name for url; (nil, nil) when there is none
// or it was made for another URL.
func (s Store) Load(name, url string) (*Record, error) {
	b, err := os.ReadFile(s.Path(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v (run zero mcp login %s again)", s.Path(name), err, name)
	}
	if r.URL != url || r.Token == nil {
		return nil, nil
	}
	return &r, nil
}

// Save writes r, readable by the user only.
func (s Store) Save(r *Record) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(s.Path(r.Server), append(b, '\n'), 0o600)
}

// Remove deletes the record of name; it reports whether there was one.
func (s Store) Remove(name string) (bool, error) {
	err := os.Remove(s.Path(name))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Handler is the OAuth handler a run gives the server's transport: it
// sends the stored token, refreshing it (and saving the new one) when it
// expired, and answers a refusal with ErrLoginNeeded instead of opening
// a browser. It is nil when Zero holds no token for the server.
func (s Store) Handler(name, url string) (auth.OAuthHandler, error) {
	r, err := s.Load(name, url)
	if r == nil || err != nil {
		return nil, err
	}
	return &stored{store: s, rec: r}, nil
}

// stored is Handler's auth.OAuthHandler.
type stored struct {
	store Store
	rec   *Record
	once  sync.Once
	src   oauth2.TokenSource
}

func (h *stored) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.once.Do(func() {
		// The token source outlives this call (the transport keeps using it),
		// so its refreshes must not use a request's context.
		cfg := h.rec.config()
		h.src = saving(cfg.TokenSource(context.WithoutCancel(ctx), h.rec.Token), h.rec.Token, func(t *oauth2.Token) error {
			return h.store.Save(newRecord(h.rec.Server, h.rec.URL, cfg, t))
		})
	})
	return h.src, nil
}

func (h *stored) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	return fmt.Errorf("%w (%s): run zero mcp login %s", ErrLoginNeeded, resp.Status, h.rec.Server)
}

// saving wraps src to call save whenever the access token changes (a
// refresh), so the next run starts from the newest token.
func saving(src oauth2.TokenSource, initial *oauth2.Token, save func(*oauth2.Token) error) oauth2.TokenSource {
	s := &savingSource{src: src, save: save}
	if initial != nil {
		s.last = initial.AccessToken
	}
	return s
}

type savingSource struct {
	mu   sync.Mutex
	src  oauth2.TokenSource
	save func(*oauth2.Token) error
	last string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.src.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: refreshing the token failed: %v", ErrLoginNeeded, err)
	}
	if t.AccessToken != s.last {
		s.last = t.AccessToken
		if err := s.save(t); err != nil {
			return nil, fmt.Errorf("saving the refreshed token: %w", err)
		}
	}
	return t, nil
}

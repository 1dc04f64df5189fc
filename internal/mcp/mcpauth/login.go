package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// LoginOptions configure Login.
type LoginOptions struct {
	// Out receives the authorization URL and progress lines.
	Out io.Writer
	// Open opens the authorization URL in the user's browser; nil prints
	// it only. Browser is the usual choice.
	Open func(url string) error
	// Version is Zero's version, sent as the client's in initialize.
	Version string
}

// Login authorizes Zero with the remote server name at endpoint (the
// streamable HTTP transport) and stores the result: it listens on a
// loopback port for the redirect, lets the SDK discover the
// authorization server (RFC 9728, RFC 8414), register Zero (RFC 7591)
// and send the user to the authorization URL, exchanges the code (PKCE)
// and keeps the token. It returns once the server accepted the token in
// an initialize, or with the reason it did not.
func Login(ctx context.Context, s Store, name, endpoint string, opts LoginOptions) error {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening for the authorization redirect: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://%s/callback", ln.Addr())
	codes := make(chan callback, 1)
	srv := &http.Server{Handler: callbackHandler(codes)}
	go srv.Serve(ln)
	defer srv.Close()

	var saveErr error
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName:              "Zero",
				RedirectURIs:            []string{redirect},
				GrantTypes:              []string{"authorization_code", "refresh_token"},
				ResponseTypes:           []string{"code"},
				TokenEndpointAuthMethod: "none",
			},
		},
		RedirectURL:         redirect,
		RequestRefreshToken: true,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			fmt.Fprintf(opts.Out, "Open this address to authorize Zero with %s:\n  %s\n", name, args.URL)
			if opts.Open != nil {
				if err := opts.Open(args.URL); err != nil {
					fmt.Fprintf(opts.Out, "(could not open a browser: %v; open the address yourself)\n", err)
				}
			}
			fmt.Fprintln(opts.Out, "Waiting for the authorization to finish…")
			select {
			case c := <-codes:
				if c.err != "" {
					return nil, fmt.Errorf("the authorization server refused: %s", c.err)
				}
				return &auth.AuthorizationResult{Code: c.code, State: c.state, Iss: c.iss}, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("no authorization arrived: %w", ctx.Err())
			}
		},
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			saveErr = s.Save(newRecord(name, endpoint, cfg, tok))
			return saving(cfg.TokenSource(ctx, tok), tok, func(t *oauth2.Token) error {
				return s.Save(newRecord(name, endpoint, cfg, t))
			}), nil
		},
	})
	if err != nil {
		return err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "zero", Version: opts.Version}, nil)
	sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: h}, nil)
	if saveErr != nil {
		return fmt.Errorf("saving the token: %w", saveErr)
	}
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", endpoint, err)
	}
	sess.Close()
	if r, _ := s.Load(name, endpoint); r == nil {
		return errors.New("the server accepted Zero without authorization: there is nothing to log in to")
	}
	return nil
}

// callback is what the authorization server's redirect carried.
type callback struct{ code, state, iss, err string }

// callbackHandler takes the first redirect to /callback and tells the
// browser it may close the tab.
func callbackHandler(out chan<- callback) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		c := callback{code: q.Get("code"), state: q.Get("state"), iss: q.Get("iss"), err: q.Get("error")}
		if d := q.Get("error_description"); d != "" {
			c.err += ": " + d
		}
		if c.code == "" && c.err == "" {
			c.err = "the redirect carried no code"
		}
		select {
		case out <- c:
		default:
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if c.err != "" {
			fmt.Fprintf(w, "Zero: authorization failed (%s). You can close this tab.\n", c.err)
			return
		}
		fmt.Fprintln(w, "Zero is authorized. You can close this tab and return to the terminal.")
	})
}

// Browser opens u with $BROWSER when set (a command; "%s" in it is
// replaced by the address, otherwise the address is its last argument),
// else xdg-open or open where present.
func Browser(getenv func(string) string) func(u string) error {
	return func(u string) error {
		if _, err := url.Parse(u); err != nil {
			return err
		}
		if b := strings.TrimSpace(getenv("BROWSER")); b != "" {
			args := strings.Fields(b)
			replaced := false
			for i, a := range args {
				if strings.Contains(a, "%s") {
					args[i] = strings.ReplaceAll(a, "%s", u)
					replaced = true
				}
			}
			if !replaced {
				args = append(args, u)
			}
			return start(exec.Command(args[0], args[1:]...))
		}
		for _, opener := range []string{"xdg-open", "open"} {
			if p, err := exec.LookPath(opener); err == nil {
				return start(exec.Command(p, u))
			}
		}
		return errors.New("no browser found (set BROWSER)")
	}
}

// start runs cmd without waiting for it (a browser may keep running),
// reaping it when it ends.
func start(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

package mcpauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// serve starts the OAuth-protected test server on 127.0.0.1.
func serve(t *testing.T) (*mcptest.OAuthServer, string) {
	t.Helper()
	o := mcptest.NewOAuthServer()
	ts := httptest.NewUnstartedServer(o)
	o.Base = "http://" + ts.Listener.Addr().String()
	ts.Start()
	t.Cleanup(ts.Close)
	return o, o.Base + "/mcp"
}

// visit plays the user's browser: it follows the authorization URL's
// redirects to Zero's loopback callback.
func visit(u string) error {
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

func login(t *testing.T, s mcpauth.Store, endpoint string) string {
	t.Helper()
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := mcpauth.Login(ctx, s, "remote", endpoint, mcpauth.LoginOptions{Out: &out, Open: visit}); err != nil {
		t.Fatalf("Login: %v\n%s", err, out.String())
	}
	return out.String()
}

// connect opens a session with the stored token and calls echo.
func connect(t *testing.T, s mcpauth.Store, endpoint string) error {
	t.Helper()
	h, err := s.Handler("remote", endpoint)
	if err != nil {
		return err
	}
	if h == nil {
		return errors.New("no stored token")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: h}, nil)
	if err != nil {
		return err
	}
	defer sess.Close()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		return err
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "hi" {
		return errors.New("echo answered " + got)
	}
	return nil
}

func TestLoginStoresATokenLaterRunsSend(t *testing.T) {
	o, endpoint := serve(t)
	s := mcpauth.Store{Dir: t.TempDir() + "/auth"}
	out := login(t, s, endpoint)
	if !strings.Contains(out, o.Base+"/authorize?") {
		t.Errorf("the user is not shown the authorization address:\n%s", out)
	}
	if o.Authorized.Load() != 1 {
		t.Fatalf("codes exchanged = %d, want 1", o.Authorized.Load())
	}
	fi, err := os.Stat(s.Path("remote"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	if err := connect(t, s, endpoint); err != nil {
		t.Fatalf("a later run with the stored token: %v", err)
	}
	if o.Authorized.Load() != 1 {
		t.Errorf("a later run authorized again (%d codes)", o.Authorized.Load())
	}
}

func TestExpiredTokenIsRefreshedAndSaved(t *testing.T) {
	o, endpoint := serve(t)
	s := mcpauth.Store{Dir: t.TempDir()}
	o.SetTokenLife(5 * time.Second) // inside oauth2's 10 s margin: expired at once
	login(t, s, endpoint)
	before, _ := s.Load("remote", endpoint)
	o.SetTokenLife(time.Hour)
	refreshed := o.Refreshed.Load()
	if err := connect(t, s, endpoint); err != nil {
		t.Fatal(err)
	}
	if o.Refreshed.Load() <= refreshed {
		t.Fatal("the expired token was not refreshed")
	}
	after, _ := s.Load("remote", endpoint)
	if after.Token.AccessToken == before.Token.AccessToken {
		t.Error("the refreshed token was not saved for the next run")
	}
}

func TestRefusedTokenSaysToLogIn(t *testing.T) {
	_, endpoint := serve(t)
	s := mcpauth.Store{Dir: t.TempDir()}
	login(t, s, endpoint)
	// A second server at the same address knows none of the first's tokens
	// (revoked, or the server's sessions were reset).
	_, endpoint2 := serve(t)
	r, _ := s.Load("remote", endpoint)
	r.URL = endpoint2
	if err := s.Save(r); err != nil {
		t.Fatal(err)
	}
	err := connect(t, s, endpoint2)
	if err == nil || !strings.Contains(err.Error(), "zero mcp login remote") {
		t.Fatalf("err = %v, want one naming zero mcp login remote", err)
	}
}

func TestStoreIgnoresARecordForAnotherURLAndRemoves(t *testing.T) {
	_, endpoint := serve(t)
	s := mcpauth.Store{Dir: t.TempDir()}
	login(t, s, endpoint)
	if h, err := s.Handler("remote", "http://127.0.0.1:1/other"); h != nil || err != nil {
		t.Errorf("a record made for another URL was used: %v %v", h, err)
	}
	if ok, err := s.Remove("remote"); !ok || err != nil {
		t.Fatalf("Remove = %v, %v", ok, err)
	}
	if ok, _ := s.Remove("remote"); ok {
		t.Error("a second Remove found a record")
	}
	if h, _ := s.Handler("remote", endpoint); h != nil {
		t.Error("a removed record is still used")
	}
}

func TestLoginToAnOpenServerSaysThereIsNothingToDo(t *testing.T) {
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcptest.NewServer(mcptest.Options{}) }, nil))
	defer ts.Close()
	err := mcpauth.Login(context.Background(), mcpauth.Store{Dir: t.TempDir()}, "open", ts.URL, mcpauth.LoginOptions{Open: visit})
	if err == nil || !strings.Contains(err.Error(), "without authorization") {
		t.Fatalf("err = %v", err)
	}
}

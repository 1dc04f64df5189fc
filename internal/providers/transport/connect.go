// The connect retry: the only one in Zero. A request whose connection
// could not be made is tried again (nothing reached the server, so it is
// safe), a couple of times and briefly: a refused connection means no
// server is listening, and waiting seconds more rarely changes that. The
// agent loop does not retry llm.ErrConnect again (llm.ProviderError's
// Retryable), so a refused 127.0.0.1 ends a run in well under a second
// with one message saying what to do.

package transport

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// Defaults of the connect retry: at most two attempts, 200 ms apart.
const (
	DefaultConnectAttempts = 2
	DefaultConnectBackoff  = 200 * time.Millisecond
)

// connect sends req in ctx, trying again (ConnectAttempts in all) when the
// connection could not be made and another attempt may help.
func (c *Client) connect(ctx context.Context, req *http.Request) (*http.Response, error) {
	attempts := c.ConnectAttempts
	if attempts == 0 {
		attempts = DefaultConnectAttempts
	}
	backoff := c.ConnectBackoff
	if backoff <= 0 {
		backoff = DefaultConnectBackoff
	}
	r := req.WithContext(ctx)
	for attempt := 1; ; attempt++ {
		resp, err := c.httpClient().Do(r)
		if err == nil || attempt >= attempts || !isConnectError(err) || !worthRetry(err) || ctx.Err() != nil {
			return resp, err
		}
		next, rerr := resend(ctx, req)
		if rerr != nil {
			return nil, err
		}
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, err
		}
		backoff *= 2
		r = next
	}
}

// resend is a copy of req in ctx with a fresh body, or an error when the
// body cannot be read again.
func resend(ctx context.Context, req *http.Request) (*http.Request, error) {
	r := req.Clone(ctx)
	if req.Body == nil || req.Body == http.NoBody {
		return r, nil
	}
	if req.GetBody == nil {
		return nil, errors.New("transport: request body cannot be replayed")
	}
	b, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r.Body = b
	return r, nil
}

// isConnectError reports a failure to establish the connection (DNS
// included), the only kind that is safe to retry: nothing reached the
// server.
func isConnectError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// worthRetry reports a connect failure another attempt may fix: not an
// unknown host, and not a dial that already waited out its own timeout.
func worthRetry(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false
	}
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// connect describes a connection that could not be made: what failed,
// where, and what to do.
func (e errorSource) connect(u *url.URL, err error) *llm.ProviderError {
	host := hostPort(u)
	check := "check the network and the base URL (--base-url)"
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		hint := "check that the server at " + host + " is running and the base URL (--base-url)"
		if isLoopback(u.Hostname()) {
			hint = e.c.StartHint
			if hint == "" {
				hint = "start it or pass --base-url"
			}
		}
		return e.make(llm.ErrConnect, err, "no server is listening on "+host, hint)
	case errors.As(err, &dns):
		return e.make(llm.ErrConnect, err, "cannot resolve host "+u.Hostname(), check)
	case errors.As(err, &ne) && ne.Timeout():
		return e.make(llm.ErrConnect, err, "connecting to "+host+" timed out", check)
	}
	cause := err.Error()
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		cause = op.Err.Error()
	}
	return e.make(llm.ErrConnect, err, "cannot connect to "+host+": "+cause, check)
}

// hostPort is u's host with its port, the scheme's default when u names
// none.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// isLoopback reports a host name on this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

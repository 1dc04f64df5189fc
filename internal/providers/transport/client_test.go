package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// closedPort returns a 127.0.0.1 address nothing listens on.
func closedPort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// countingClient is a real HTTP client that counts its dial attempts.
func countingClient(dials *atomic.Int32) *http.Client {
	d := &net.Dialer{}
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}}}
}

// TestRefusedLoopbackFailsWithinTwoSecondsWithOneMessage: a refused
// 127.0.0.1 is tried DefaultConnectAttempts times (the only connect retry
// in Zero), well within 2 s of waiting, and fails with one message that
// says no server listens there and what to do.
func TestRefusedLoopbackFailsWithinTwoSecondsWithOneMessage(t *testing.T) {
	addr := closedPort(t)
	synctest.Test(t, func(t *testing.T) {
		var dials atomic.Int32
		hc := countingClient(&dials)
		defer hc.CloseIdleConnections()
		c := &Client{Provider: "llama.cpp", HTTP: hc, StartHint: "start it (llama-server) or pass --base-url"}
		start := time.Now()
		_, err := c.Post(context.Background(), "http://"+addr+"/v1/chat/completions", "qwen", []byte(`{}`))
		waited := time.Since(start)
		if n := dials.Load(); n != DefaultConnectAttempts {
			t.Errorf("%d connect attempts, want %d", n, DefaultConnectAttempts)
		}
		if waited >= 2*time.Second || waited != DefaultConnectBackoff {
			t.Errorf("waited %v between attempts, want %v (well under 2 s)", waited, DefaultConnectBackoff)
		}
		var pe *llm.ProviderError
		if !errors.As(err, &pe) || pe.Kind != llm.ErrConnect || llm.IsRetryable(err) {
			t.Fatalf("err = %v, want a connect error the agent loop does not retry", err)
		}
		want := "llama.cpp: connect (model qwen): no server is listening on " + addr + " — start it (llama-server) or pass --base-url"
		if err.Error() != want {
			t.Errorf("message\n %q\nwant\n %q", err.Error(), want)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("the cause is lost: %v", pe.Err)
		}
	})
}

// BenchmarkRefusedLoopback measures the wall time of a request to a
// 127.0.0.1 port nothing listens on, connect retry included (goal: well
// under 2 s).
func BenchmarkRefusedLoopback(b *testing.B) {
	url := "http://" + closedPort(b) + "/v1/chat/completions"
	c := &Client{Provider: "local"}
	for b.Loop() {
		if _, err := c.Post(context.Background(), url, "m", []byte(`{}`)); llm.KindOf(err) != llm.ErrConnect {
			b.Fatal(err)
		}
	}
}

func TestRefusedHintDependsOnTheHost(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &net.OpError{Err: syscall.ECONNREFUSED}}
	for _, tc := range []struct{ url, msg, hint string }{
		{"http://localhost:11434/v1", "no server is listening on localhost:11434", "start it or pass --base-url"},
		{"https://api.example.com/v1", "no server is listening on api.example.com:443", "check that the server at api.example.com:443 is running"},
	} {
		req, _ := http.NewRequest(http.MethodPost, tc.url, nil)
		e := errorSource{&Client{Provider: "p"}, "m"}.connect(req.URL, refused)
		if e.Kind != llm.ErrConnect || e.Message != tc.msg || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("%s: %q / %q, want %q / %q", tc.url, e.Message, e.Hint, tc.msg, tc.hint)
		}
	}
}

func TestConnectFailuresWorthRetrying(t *testing.T) {
	dial := func(err error) error { return &net.OpError{Op: "dial", Net: "tcp", Err: err} }
	for _, tc := range []struct {
		name  string
		err   error
		retry bool
	}{
		{"refused", dial(syscall.ECONNREFUSED), true},
		{"unreachable", dial(syscall.ENETUNREACH), true},
		{"unknown host", dial(&net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}), false},
		{"dns timeout", dial(&net.DNSError{Err: "i/o timeout", Name: "slow", IsTimeout: true}), false},
		{"dial timeout", dial(&timeoutError{}), false},
	} {
		if !isConnectError(tc.err) || worthRetry(tc.err) != tc.retry {
			t.Errorf("%s: connect=%v retry=%v, want retry=%v", tc.name, isConnectError(tc.err), worthRetry(tc.err), tc.retry)
		}
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// roundTrip is an in-memory http.RoundTripper.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func response(status int, header http.Header, body io.ReadCloser) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	return &http.Response{StatusCode: status, Header: header, Body: body}
}

// TestConnectRetryResendsTheSameBytes: the second attempt sends the same
// body and headers as the first would have.
func TestConnectRetryResendsTheSameBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var attempts int
		var got []byte
		var auth string
		hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			attempts++
			if attempts == 1 {
				return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
			}
			got, _ = io.ReadAll(r.Body)
			auth = r.Header.Get("Authorization")
			return response(200, nil, io.NopCloser(strings.NewReader("data: {}\n\n"))), nil
		})}
		c := &Client{HTTP: hc, Header: http.Header{"Authorization": {"Bearer k"}}}
		s, err := c.Post(context.Background(), "http://127.0.0.1:1/x", "m", []byte(`{"a":1}`))
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if attempts != 2 || string(got) != `{"a":1}` || auth != "Bearer k" {
			t.Errorf("attempts %d body %q auth %q", attempts, got, auth)
		}
	})
}

func TestPostClassifiesAnErrorStatus(t *testing.T) {
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return response(429, http.Header{"Retry-After": {"7"}},
			io.NopCloser(strings.NewReader(`{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`))), nil
	})}
	_, err := (&Client{Provider: "openai", HTTP: hc}).Post(context.Background(), "http://h/x", "m", nil)
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || pe.Kind != llm.ErrRateLimit || pe.RetryAfter != 7*time.Second || pe.Status != 429 || pe.Model != "m" {
		t.Fatalf("err = %#v", err)
	}
}

// TestNoHeadersWithinFirstByteTimeoutIsAStall: a server that accepts the
// request and never answers fails with ErrStreamStall after
// FirstByteTimeout, not with a hang.
func TestNoHeadersWithinFirstByteTimeoutIsAStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})}
		c := &Client{Provider: "p", HTTP: hc, FirstByteTimeout: 5 * time.Minute, IdleTimeout: time.Minute}
		start := time.Now()
		_, err := c.Post(context.Background(), "http://h/x", "m", nil)
		if llm.KindOf(err) != llm.ErrStreamStall || time.Since(start) != 5*time.Minute {
			t.Fatalf("after %v: %v, want stream_stall after 5m", time.Since(start), err)
		}
		if !strings.Contains(err.Error(), "ZERO_FIRST_BYTE_TIMEOUT") {
			t.Errorf("%v does not say which knob to raise", err)
		}
	})
}

// TestRunEndsWithOneErrorEvent: a decoder error is the last event, typed,
// and the channel closes after it; the idle watchdog turns a stream that
// goes quiet into a stall.
func TestRunEndsWithOneErrorEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			go func() {
				pw.Write([]byte("data: one\n\n"))
				<-r.Context().Done()
				pw.CloseWithError(r.Context().Err())
			}()
			return response(200, nil, pr), nil
		})}
		c := &Client{Provider: "p", HTTP: hc, IdleTimeout: time.Second}
		s, err := c.Post(context.Background(), "http://h/x", "m", nil)
		if err != nil {
			t.Fatal(err)
		}
		ch := s.Run(func(emit func(llm.Event) bool) error {
			r := s.Events()
			for {
				ev, err := r.Next()
				if err != nil {
					return err
				}
				emit(llm.Event{Type: llm.EventTextDelta, Text: ev.Data})
			}
		})
		var evs []llm.Event
		for ev := range ch {
			evs = append(evs, ev)
		}
		if len(evs) != 2 || evs[0].Text != "one" || evs[1].Type != llm.EventError || llm.KindOf(evs[1].Err) != llm.ErrStreamStall {
			t.Fatalf("events %+v", evs)
		}
	})
}

func TestRunReportsCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return response(200, nil, silent{r.Context()}), nil
	})}
	s, err := (&Client{Provider: "p", HTTP: hc}).Post(ctx, "http://h/x", "m", nil)
	if err != nil {
		t.Fatal(err)
	}
	ch := s.Run(func(emit func(llm.Event) bool) error {
		_, err := io.ReadAll(s.Body())
		return err
	})
	cancel()
	var last llm.Event
	for ev := range ch {
		last = ev
	}
	if llm.KindOf(last.Err) != llm.ErrCanceled || !errors.Is(last.Err, context.Canceled) {
		t.Fatalf("last event %+v, want canceled", last)
	}
}

// TestDoServesAnSDK: Do, as an SDK's HTTP client, returns a watched 2xx
// body and a classified error for any other status.
func TestDoServesAnSDK(t *testing.T) {
	status := 200
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if status != 200 {
			return response(status, nil, io.NopCloser(strings.NewReader(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))), nil
		}
		return response(200, nil, io.NopCloser(strings.NewReader("event: ping\n\n"))), nil
	})}
	c := &Client{Provider: "anthropic", HTTP: hc, IdleTimeout: time.Minute}
	req, _ := http.NewRequest(http.MethodPost, "http://h/v1/messages", bytes.NewReader([]byte(`{}`)))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := resp.Body.(*body); !ok {
		t.Error("the 2xx body is not read under the watchdog")
	}
	resp.Body.Close()
	status = 529
	req, _ = http.NewRequest(http.MethodPost, "http://h/v1/messages", bytes.NewReader([]byte(`{}`)))
	if _, err := c.Do(req); llm.KindOf(err) != llm.ErrOverloaded {
		t.Errorf("529 gave %v", err)
	}
}

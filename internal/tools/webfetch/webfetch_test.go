package webfetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/tools"
)

// stubResolver answers from a table: each host has a list of successive
// answers; the last one repeats. Unknown hosts fail like NXDOMAIN.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	calls   map[string]int
}

func newStub(answers map[string][][]string) *stubResolver {
	return &stubResolver{answers: answers, calls: map[string]int{}}
}

func (r *stubResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(r.calls[host], len(seq)-1)
	r.calls[host]++
	var out []net.IPAddr
	for _, s := range seq[i] {
		a := netip.MustParseAddr(s)
		out = append(out, net.IPAddr{IP: net.IP(a.AsSlice()), Zone: a.Zone()})
	}
	return out, nil
}

// recordingDial records every address the tool dials and connects only
// where route maps it (to a 127.0.0.1 test server); anything else fails
// without touching the network.
type recordingDial struct {
	mu    sync.Mutex
	seen  []string
	route map[string]string
}

func (d *recordingDial) dial(ctx context.Context, network, address string) (net.Conn, error) {
	d.mu.Lock()
	d.seen = append(d.seen, address)
	to, ok := d.route[address]
	d.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("test dialer: %s is not routed", address)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, to)
}

func (d *recordingDial) dialled() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.seen...)
}

// allowOnly is a test policy: exactly the given 127.0.0.1 servers pass,
// every other address goes through the production policy.
func allowOnly(servers ...*httptest.Server) policy {
	ok := map[netip.AddrPort]bool{}
	for _, s := range servers {
		ok[serverAddr(s)] = true
	}
	return func(ap netip.AddrPort) error {
		if ok[ap] {
			return nil
		}
		return publicOnly(ap)
	}
}

func serverAddr(s *httptest.Server) netip.AddrPort {
	return netip.MustParseAddrPort(s.Listener.Addr().String())
}

func serverPort(s *httptest.Server) uint16 { return serverAddr(s).Port() }

// counted wraps h and counts the requests that reached it.
func counted(h http.HandlerFunc) (http.HandlerFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) { n.Add(1); h(w, r) }, &n
}

func run(t *testing.T, tl tools.Tool, args string) tools.Result {
	t.Helper()
	res, err := tl.Run(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("Run(%s) error: %v", args, err)
	}
	return res
}

func urlArgs(u string) string {
	b, _ := json.Marshal(map[string]string{"url": u})
	return string(b)
}

func TestToolShape(t *testing.T) {
	tl := New(Options{})
	if tl.Name() != "web_fetch" || tl.SideEffect() != tools.SideNetwork {
		t.Fatalf("name %q side effect %q", tl.Name(), tl.SideEffect())
	}
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(tl.Schema(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || s.Properties["url"] == nil || s.Properties["max_bytes"] == nil || len(s.Required) != 1 || s.Required[0] != "url" {
		t.Fatalf("schema %s", tl.Schema())
	}
	if !strings.Contains(tl.Description(), "2097152") {
		t.Fatalf("description does not state the default cap: %q", tl.Description())
	}
}

// TestRefusedByResolution runs the production policy with a stub resolver:
// a name whose answers include any refused address is refused before any
// dial, and the message names the address and its class.
func TestRefusedByResolution(t *testing.T) {
	tests := []struct {
		host    string
		answers []string
		why     string
	}{
		{"loop.test", []string{"127.0.0.1"}, "loopback"},
		{"ten.test", []string{"10.0.0.1"}, "private"},
		{"meta.test", []string{"169.254.169.254"}, "metadata"},
		{"v6loop.test", []string{"::1"}, "loopback"},
		{"mapped.test", []string{"::ffff:10.0.0.1"}, "private"},
		{"mixed.test", []string{"93.184.216.34", "10.0.0.1"}, "10.0.0.1"},
		{"mixed6.test", []string{"2606:4700::1", "fd00::1"}, "unique-local"},
		{"cgnat.test", []string{"100.64.1.1"}, "carrier-grade"},
		{"zero.test", []string{"0.0.0.0"}, "this network"},
		{"nat64.test", []string{"64:ff9b::a9fe:a9fe"}, "metadata"},
		{"linklocal6.test", []string{"fe80::1"}, "link-local"},
		{"mcast.test", []string{"224.0.0.251"}, "multicast"},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			d := &recordingDial{}
			tl := newTool(Options{Resolver: newStub(map[string][][]string{tc.host: {tc.answers}})}, publicOnly, d.dial)
			res := run(t, tl, urlArgs("http://"+tc.host+"/"))
			if !res.IsError || !strings.Contains(res.Content, tc.host) || !strings.Contains(res.Content, tc.why) {
				t.Fatalf("content %q (IsError %v), want a refusal of %s mentioning %q", res.Content, res.IsError, tc.host, tc.why)
			}
			if !strings.Contains(res.Content, "public internet hosts") {
				t.Fatalf("refusal does not say what web_fetch can reach: %q", res.Content)
			}
			if got := d.dialled(); len(got) != 0 {
				t.Fatalf("dialled %v for a refused host", got)
			}
		})
	}
}

func TestRefusedSchemesAndLiterals(t *testing.T) {
	d := &recordingDial{}
	tl := newTool(Options{Resolver: newStub(nil)}, publicOnly, d.dial)
	for _, u := range []string{
		"file:///etc/passwd", "ftp://example.com/", "data:text/plain,hi", "javascript:alert(1)",
		"gopher://example.com/", "http://user:pw@example.com/", "http://127.0.0.1:1/",
		"http://[::1]:1/", "http://169.254.169.254/", "http://localhost/", "http://metadata.google.internal/",
	} {
		res := run(t, tl, urlArgs(u))
		if !res.IsError || !strings.Contains(res.Content, "refused") {
			t.Errorf("%s: %q (IsError %v), want refused", u, res.Content, res.IsError)
		}
	}
	if got := d.dialled(); len(got) != 0 {
		t.Fatalf("dialled %v", got)
	}
}

// TestGuardedDialerRefusesLoopback proves the last line of defence: the
// production dialer's Control hook refuses a loopback address even when
// handed one directly, and the live server there sees no request.
func TestGuardedDialerRefusesLoopback(t *testing.T) {
	h, hits := counted(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "SECRET") })
	srv := httptest.NewServer(h)
	defer srv.Close()
	dial := guardedDialer(publicOnly)
	c, err := dial(context.Background(), "tcp", srv.Listener.Addr().String())
	if err == nil {
		c.Close()
		t.Fatal("guarded dialer connected to a loopback address")
	}
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("dial error %v, want a loopback RefusedError", err)
	}
	if _, err := dial(context.Background(), "tcp", "localhost:80"); err == nil {
		t.Fatal("guarded dialer accepted a host name")
	}
	if hits.Load() != 0 {
		t.Fatalf("server saw %d requests", hits.Load())
	}
}

// TestFetchPinnedHostHeader: the name resolves (stub) to the test server's
// address, which the test policy allows; the request carries the original
// Host header although the socket went to the IP.
func TestFetchPinnedHostHeader(t *testing.T) {
	var gotHost string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "hello from docs\n")
	}))
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(map[string][][]string{"docs.test": {{"127.0.0.1"}}})}, allowOnly(srv), nil)
	u := fmt.Sprintf("http://docs.test:%d/readme.txt", serverPort(srv))
	res := run(t, tl, urlArgs(u))
	want := u + " · 200 OK · text/plain; charset=utf-8\n\nhello from docs\n"
	if res.IsError || res.Content != want {
		t.Fatalf("content %q (IsError %v), want %q", res.Content, res.IsError, want)
	}
	if gotHost != fmt.Sprintf("docs.test:%d", serverPort(srv)) {
		t.Fatalf("server saw Host %q", gotHost)
	}
}

// TestFetchTLSKeepsSNI: over https the TLS server name and certificate
// check use the URL's name (example.com, in httptest's certificate) while
// the dial goes to 127.0.0.1.
func TestFetchTLSKeepsSNI(t *testing.T) {
	var sni, host string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sni, host = r.TLS.ServerName, r.Host
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below is expected
	srv.StartTLS()
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(map[string][][]string{"example.com": {{"127.0.0.1"}}})}, allowOnly(srv), nil)
	tl.roots = srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	u := fmt.Sprintf("https://example.com:%d/api", serverPort(srv))
	res := run(t, tl, urlArgs(u))
	if res.IsError || res.Content != u+" · 200 OK · application/json\n\n{\"ok\":true}\n" {
		t.Fatalf("content %q (IsError %v)", res.Content, res.IsError)
	}
	if sni != "example.com" || host != fmt.Sprintf("example.com:%d", serverPort(srv)) {
		t.Fatalf("server saw SNI %q Host %q", sni, host)
	}

	// The same server under a name its certificate does not hold fails
	// verification: the name, not the IP, is what TLS checks.
	tl2 := newTool(Options{Resolver: newStub(map[string][][]string{"other.test": {{"127.0.0.1"}}})}, allowOnly(srv), nil)
	tl2.roots = tl.roots
	res = run(t, tl2, urlArgs(fmt.Sprintf("https://other.test:%d/api", serverPort(srv))))
	if !res.IsError || !strings.Contains(res.Content, "certificate") {
		t.Fatalf("content %q, want a certificate error", res.Content)
	}
}

// TestRebindingCannotReachPrivate: the resolver answers a public address
// first and a private one afterwards. The dial goes to the address that was
// checked, never to the name again, so the private server is never reached;
// a redirect to the same name resolves again and is then refused.
func TestRebindingCannotReachPrivate(t *testing.T) {
	pub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/again" {
			fmt.Fprint(w, "public again")
			return
		}
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/again", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "public content")
	}))
	defer pub.Close()
	privH, privHits := counted(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "SECRET") })
	priv := httptest.NewServer(privH)
	defer priv.Close()

	for _, path := range []string{"/", "/hop"} {
		t.Run(path, func(t *testing.T) {
			d := &recordingDial{route: map[string]string{
				"93.184.216.34:80": pub.Listener.Addr().String(),
				"10.0.0.1:80":      priv.Listener.Addr().String(),
			}}
			stub := newStub(map[string][][]string{"rebind.test": {{"93.184.216.34"}, {"10.0.0.1"}}})
			tl := newTool(Options{Resolver: stub}, publicOnly, d.dial)
			res := run(t, tl, urlArgs("http://rebind.test"+path))
			if strings.Contains(res.Content, "SECRET") || privHits.Load() != 0 {
				t.Fatalf("reached the private server: %q", res.Content)
			}
			if got := d.dialled(); len(got) != 1 || got[0] != "93.184.216.34:80" {
				t.Fatalf("dialled %v, want only the checked 93.184.216.34:80", got)
			}
			if path == "/" {
				if res.IsError || !strings.HasSuffix(res.Content, "\n\npublic content\n") {
					t.Fatalf("content %q (IsError %v)", res.Content, res.IsError)
				}
				return
			}
			if !res.IsError || !strings.Contains(res.Content, "redirect from http://rebind.test/hop") || !strings.Contains(res.Content, "10.0.0.1") {
				t.Fatalf("content %q, want the redirect's new answer refused", res.Content)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	otherH, otherHits := counted(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "SECRET") })
	other := httptest.NewServer(otherH) // a live loopback server the policy does not allow
	defer other.Close()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-private":
			http.Redirect(w, r, "http://internal.test/admin", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/iam/", http.StatusMovedPermanently)
		case "/to-loopback-server":
			http.Redirect(w, r, other.URL+"/", http.StatusTemporaryRedirect)
		case "/to-localhost":
			http.Redirect(w, r, "http://localhost/", http.StatusSeeOther)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/to-credentials":
			http.Redirect(w, r, "http://admin:hunter2@site.test/", http.StatusFound)
		case "/to-mapped":
			http.Redirect(w, r, "http://[::ffff:10.0.0.1]/", http.StatusPermanentRedirect)
		case "/final":
			fmt.Fprint(w, "landed")
		default:
			var n int
			if _, err := fmt.Sscanf(r.URL.Path, "/chain/%d", &n); err == nil {
				if n == 0 {
					http.Redirect(w, r, "/final", http.StatusFound)
					return
				}
				http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
				return
			}
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	stub := newStub(map[string][][]string{"site.test": {{"127.0.0.1"}}, "internal.test": {{"10.0.0.1"}}})
	tl := newTool(Options{Resolver: stub}, allowOnly(srv), nil)
	base := fmt.Sprintf("http://site.test:%d", serverPort(srv))

	refusedCases := []struct{ path, why string }{
		{"/to-private", "10.0.0.1, a private"},
		{"/to-metadata", "metadata"},
		{"/to-loopback-server", "loopback"},
		{"/to-localhost", "local machine"},
		{"/to-file", "only http and https"},
		{"/to-mapped", "private"},
		{"/to-credentials", "credentials"},
	}
	for _, tc := range refusedCases {
		res := run(t, tl, urlArgs(base+tc.path))
		if !res.IsError || !strings.Contains(res.Content, "redirect from "+base+tc.path) || !strings.Contains(res.Content, tc.why) || strings.Contains(res.Content, "hunter2") {
			t.Errorf("%s: %q, want the redirect refused mentioning %q", tc.path, res.Content, tc.why)
		}
	}
	if otherHits.Load() != 0 {
		t.Fatalf("the refused loopback server saw %d requests", otherHits.Load())
	}

	// /chain/4 -> 3 -> 2 -> 1 -> 0 -> /final: five redirects are followed.
	res := run(t, tl, urlArgs(base+"/chain/4"))
	wantFrom := "redirected from: " + base + "/chain/4 -> " + base + "/chain/3 -> " + base + "/chain/2 -> " + base + "/chain/1 -> " + base + "/chain/0\n"
	if res.IsError || !strings.HasPrefix(res.Content, base+"/final · 200 OK · ") || !strings.Contains(res.Content, wantFrom) || !strings.HasSuffix(res.Content, "\n\nlanded\n") {
		t.Fatalf("five redirects: %q", res.Content)
	}
	// Six are not.
	res = run(t, tl, urlArgs(base+"/chain/5"))
	if !res.IsError || !strings.Contains(res.Content, "too many redirects (more than 5)") {
		t.Fatalf("six redirects: %q", res.Content)
	}
}

func TestContentTypes(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 4096)...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a": [1, 2]}`)
		case "/problem":
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"title": "not found"}`)
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(png)
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.7\n...")
		case "/octet-text":
			w.Header().Set("Content-Type", "application/octet-stream")
			fmt.Fprint(w, "package main\n")
		case "/octet-bin":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2, 3, 0xff})
		case "/untyped-html":
			w.Header()["Content-Type"] = nil // no sniffing by net/http either
			fmt.Fprint(w, "<!DOCTYPE html><html><body><h1>Sniffed</h1></body></html>")
		case "/nul-text":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("text\x00with nul"))
		case "/latin1":
			w.Header().Set("Content-Type", "text/plain; charset=windows-1252")
			w.Write([]byte("caf\xe9 \x80 na\xefve"))
		case "/latin1-html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><meta charset="iso-8859-1"><title>Caf` + "\xe9" + `</title></head><body><p>na` + "\xef" + `ve</p></body></html>`))
		case "/long-title":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<title>"+strings.Repeat("é", 400)+"</title><p>body</p>")
		case "/gone":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusGone)
			fmt.Fprint(w, "<p>This page is <b>gone</b>.</p>")
		}
	}))
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(nil)}, allowOnly(srv), nil)
	tests := []struct {
		path    string
		isError bool
		want    string // exact content after the first line
	}{
		{"/json", false, "\n{\"a\": [1, 2]}\n"},
		{"/problem", true, "\n{\"title\": \"not found\"}\n"},
		{"/png", true, "\nnot shown: the body is binary (image/png); web_fetch returns only HTML, text, JSON and XML\n"},
		{"/pdf", true, "\nnot shown: the body is binary (application/pdf); web_fetch returns only HTML, text, JSON and XML\n"},
		{"/octet-text", false, "\npackage main\n"},
		{"/octet-bin", true, "\nnot shown: the body is binary (application/octet-stream); web_fetch returns only HTML, text, JSON and XML\n"},
		{"/untyped-html", false, "\n# Sniffed\n"},
		{"/nul-text", true, "\nnot shown: the body is binary (text/plain with NUL bytes); web_fetch returns only HTML, text, JSON and XML\n"},
		{"/latin1", false, "\ncafé € naïve\n"},
		{"/latin1-html", false, "title: Café\n\nnaïve\n"},
		{"/gone", true, "\nThis page is **gone**.\n"},
		{"/long-title", false, "title: " + strings.Repeat("é", 150) + "…\n\nbody\n"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			res := run(t, tl, urlArgs(srv.URL+tc.path))
			first, rest, _ := strings.Cut(res.Content, "\n")
			if !strings.HasPrefix(first, srv.URL+tc.path+" · ") {
				t.Fatalf("first line %q", first)
			}
			if res.IsError != tc.isError || rest != tc.want {
				t.Fatalf("got IsError %v %q, want %v %q", res.IsError, rest, tc.isError, tc.want)
			}
		})
	}
}

func TestSizeCap(t *testing.T) {
	body := strings.Repeat("0123456789", 500) // 5000 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush() // no Content-Length: the size is unknown
		} else {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		}
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(nil), MaxBytes: 1000}, allowOnly(srv), nil)
	tests := []struct {
		path, args string
		keep       int
		note       string
	}{
		{"/sized", "", 1000, "[cut: body capped at 1000 bytes; 4000 of 5000 bytes were not read]\n"},
		{"/chunked", "", 1000, "[cut: body capped at 1000 bytes; the size of the rest is unknown]\n"},
		{"/sized", `,"max_bytes":"100"`, 100, "[cut: body capped at 100 bytes; 4900 of 5000 bytes were not read; raise max_bytes (up to 1000) to read more]\n"},
		{"/sized", `,"max_bytes":99999`, 1000, "[cut: body capped at 1000 bytes; 4000 of 5000 bytes were not read]\n"},
		{"/sized", `,"max_bytes":5000`, 1000, "[cut: body capped at 1000 bytes; 4000 of 5000 bytes were not read]\n"},
	}
	for _, tc := range tests {
		res := run(t, tl, `{"url":"`+srv.URL+tc.path+`"`+tc.args+`}`)
		want := srv.URL + tc.path + " · 200 OK · text/plain\n\n" + body[:tc.keep] + "\n" + tc.note
		if res.IsError || res.Content != want {
			t.Errorf("%s%s: got %q, want %q", tc.path, tc.args, res.Content, want)
		}
	}
	// A body exactly at the cap is not cut.
	tl = newTool(Options{Resolver: newStub(nil), MaxBytes: 5000}, allowOnly(srv), nil)
	res := run(t, tl, urlArgs(srv.URL+"/sized"))
	if res.IsError || strings.Contains(res.Content, "[cut") || !strings.HasSuffix(res.Content, body+"\n") {
		t.Fatalf("body at the cap: %q", res.Content)
	}
}

// TestTimeout: stalled servers (before and after the headers) end in an
// error result naming the timeout. No timing is asserted.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/after-headers" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "partial")
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	tl := newTool(Options{Resolver: newStub(nil), Timeout: 200 * time.Millisecond}, allowOnly(srv), nil)
	for _, path := range []string{"/before-headers", "/after-headers"} {
		res := run(t, tl, urlArgs(srv.URL+path))
		if !res.IsError || !strings.Contains(res.Content, "timed out after 200ms") {
			t.Errorf("%s: %q, want a timeout error", path, res.Content)
		}
	}
}

// TestCancelled: cancelling the caller's context is an error, not a result.
func TestCancelled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(nil)}, allowOnly(srv), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tl.Run(ctx, json.RawMessage(urlArgs(srv.URL)))
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: %v", err)
	}
}

func TestArgs(t *testing.T) {
	tl := newTool(Options{Resolver: newStub(nil)}, publicOnly, (&recordingDial{}).dial)
	tests := []struct{ args, want string }{
		{``, "url is required"},
		{`{}`, "url is required"},
		{`{"url": "  "}`, "url is required"},
		{`{"url": 5}`, "invalid arguments"},
		{`{"url": "https://x.test/", "max_bytes": "lots"}`, "max_bytes: want a non-negative integer"},
		{`{"url": "https://x.test/", "max_bytes": -1}`, "max_bytes: want a non-negative integer"},
		{`{"url": "https://x.test/", "max_bytes": 1.5}`, "max_bytes: want a non-negative integer"},
		{`not json`, "invalid arguments"},
		{`{"url": "https://nx.test/"}`, "cannot resolve nx.test"},
	}
	for _, tc := range tests {
		res := run(t, tl, tc.args)
		if !res.IsError || !strings.Contains(res.Content, tc.want) {
			t.Errorf("%s: %q, want an error mentioning %q", tc.args, res.Content, tc.want)
		}
	}
}

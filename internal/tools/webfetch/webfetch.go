// Package webfetch is the web_fetch tool: GET one public http(s) URL and
// return its text (HTML as markdown, plain text and JSON as is).
//
// The hard lesson it encodes is server-side request forgery: a model that
// can fetch URLs can be talked into fetching http://169.254.169.254/ (cloud
// credentials), http://localhost:8080/admin or a router on 192.168.0.1. So
// the guard lives here, at the connection: every hop's host is resolved,
// every answer is checked (CheckAddr), and the socket is dialled to exactly
// an address that passed, never to the name again, so a DNS answer that
// changes between check and connect (rebinding) cannot reach a refused
// address. Redirects are followed by hand, each one checked the same way.
// HTTP_PROXY and HTTPS_PROXY are ignored on purpose: a proxy would resolve
// the name itself, unchecked.
//
// It owns fetching and converting; it must not decide permissions (the
// side effect is tools.SideNetwork and internal/permission asks the user),
// and must not cap output for the context window (internal/contextmgr
// does). Its only loosening seam, the address policy, is unexported so
// that no caller can switch the guard off.
package webfetch

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/tools"
)

// Defaults for Options.
const (
	// DefaultMaxBytes caps the response body read (bytes, after
	// transfer decompression): 2 MiB.
	DefaultMaxBytes = 2 << 20
	// DefaultTimeout caps a whole call: resolution, connects, redirects
	// and the body.
	DefaultTimeout = 20 * time.Second
	// MaxRedirects is how many redirects one call follows.
	MaxRedirects = 5
	// DefaultUserAgent is sent when Options.UserAgent is empty.
	DefaultUserAgent = "Zero-web_fetch/1 (+coding agent; one request on a user's behalf)"
)

// Options configures the tool. The zero value is the production setting.
type Options struct {
	// Resolver looks up host names; nil uses net.DefaultResolver. Every
	// address it returns is still checked by CheckAddr, so a custom
	// resolver cannot open a way to private addresses.
	Resolver Resolver
	// MaxBytes caps the body read per call (bytes); 0 means
	// DefaultMaxBytes. The model's max_bytes can lower it, never raise it.
	MaxBytes int64
	// Timeout caps a whole call; 0 means DefaultTimeout.
	Timeout time.Duration
	// UserAgent is the User-Agent header; "" means DefaultUserAgent.
	UserAgent string
}

// New returns the web_fetch tool (side effect tools.SideNetwork). Its
// arguments are {"url": string, "max_bytes"?: int}; see Run for the output.
func New(opts Options) tools.Tool { return newTool(opts, publicOnly, nil) }

// newTool is New with the address policy and the dial function replaced;
// only tests in this package pass anything but publicOnly and nil (the
// guarded dialer).
func newTool(opts Options, pol policy, dial dialFunc) *tool {
	if opts.Resolver == nil {
		opts.Resolver = net.DefaultResolver
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	if dial == nil {
		dial = guardedDialer(pol)
	}
	return &tool{opts: opts, pol: pol, dial: dial}
}

type tool struct {
	opts  Options
	pol   policy
	dial  dialFunc
	roots *x509.CertPool // nil: system roots; tests trust their TLS server
}

// Name implements tools.Tool.
func (*tool) Name() string { return "web_fetch" }

// Description implements tools.Tool.
func (t *tool) Description() string {
	return fmt.Sprintf("Fetch a public http(s) URL (GET) and return its text: HTML as markdown, plain text, JSON and XML as is. "+
		"Local, private and cloud-metadata addresses are refused. max_bytes caps the body read (default and maximum %d).", t.opts.MaxBytes)
}

// Schema implements tools.Tool.
func (*tool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"},"max_bytes":{"type":"integer"}},"required":["url"]}`)
}

// SideEffect implements tools.Tool.
func (*tool) SideEffect() tools.SideEffect { return tools.SideNetwork }

type fetchArgs struct {
	URL      string   `json:"url"`
	MaxBytes flexSize `json:"max_bytes"`
}

// Run implements tools.Tool. The content's first line is
// "<final URL> · <status> · <content type>"; a "redirected from" line
// and a "title:" line may follow, then a blank line and the body (HTML
// converted to markdown, text as received, decoded to UTF-8). A body cut
// at the byte cap ends with a "[cut: ...]" line saying how much was not
// read. A refusal, a timeout, a network failure, a binary body or an HTTP
// status >= 400 is a Result with IsError; error is returned only when ctx
// itself is cancelled.
func (t *tool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a fetchArgs
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return errorResult("invalid arguments (%v); expected {\"url\": string, \"max_bytes\"?: int}", err), nil
	}
	if strings.TrimSpace(a.URL) == "" {
		return errorResult("url is required, for example {\"url\": \"https://go.dev/doc/\"}"), nil
	}
	limit := t.opts.MaxBytes
	if a.MaxBytes > 0 && int64(a.MaxBytes) < limit {
		limit = int64(a.MaxBytes)
	}
	cctx, cancel := context.WithTimeout(ctx, t.opts.Timeout)
	defer cancel()
	page, err := t.fetch(cctx, a.URL, limit)
	if ctx.Err() != nil {
		return tools.Result{}, ctx.Err()
	}
	if err != nil {
		return failure(err, t.opts.Timeout, cctx), nil
	}
	return page.result(), nil
}

// failure turns a fetch error into a message the model can act on.
func failure(err error, timeout time.Duration, cctx context.Context) tools.Result {
	var re *RefusedError
	switch {
	case errors.As(err, &re):
		return errorResult("%v. web_fetch only reaches public internet hosts; to read a local service, use bash (for example curl) so the user can approve it", err)
	case errors.Is(cctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return errorResult("timed out after %s (%v); the server is slow or stalled - try again later or another URL", timeout, err)
	}
	return errorResult("fetch failed: %v", err)
}

func errorResult(format string, a ...any) tools.Result {
	return tools.Result{Content: fmt.Sprintf(format, a...), IsError: true}
}

// page is one fetched response, ready to render.
type page struct {
	finalURL   string
	redirects  []string // URLs that redirected, in order
	status     string
	code       int
	ctype      string
	title      string
	text       string
	cut        bool
	read       int64 // body bytes read
	total      int64 // Content-Length, -1 if unknown
	limit      int64
	fullLimit  int64 // Options.MaxBytes
	binaryKind string
}

// isRedirect reports the statuses that carry a Location to follow.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// fetch requests raw, following up to MaxRedirects redirects by hand; each
// hop is checked (checkURL), resolved and checked (resolve), and dialled
// through a transport pinned to the checked addresses.
func (t *tool) fetch(ctx context.Context, raw string, limit int64) (*page, error) {
	var chain []string
	cur, shown := raw, raw // shown: cur without a password, for messages
	for hop := 0; ; hop++ {
		resp, u, err := t.hop(ctx, cur)
		if err != nil {
			if len(chain) > 0 {
				return nil, fmt.Errorf("redirect from %s to %s: %w", chain[len(chain)-1], shown, err)
			}
			return nil, err
		}
		loc := resp.Header.Get("Location")
		if isRedirect(resp.StatusCode) && loc != "" {
			resp.Body.Close()
			next, perr := u.Parse(loc)
			if perr != nil {
				return nil, fmt.Errorf("%s redirected to an unreadable Location %q: %v", u, loc, perr)
			}
			if hop == MaxRedirects {
				return nil, fmt.Errorf("too many redirects (more than %d); the last one pointed to %s", MaxRedirects, next.Redacted())
			}
			chain = append(chain, u.String())
			cur, shown = next.String(), next.Redacted()
			continue
		}
		defer resp.Body.Close()
		p, err := t.read(resp, limit)
		if err != nil {
			return nil, err
		}
		p.finalURL, p.redirects = u.String(), chain
		return p, nil
	}
}

// hop sends one GET to raw after checking it, over a transport that can
// only reach the checked addresses. The caller closes the body.
func (t *tool) hop(ctx context.Context, raw string) (*http.Response, *url.URL, error) {
	u, name, ip, err := checkURL(raw)
	if err != nil {
		return nil, nil, err
	}
	port := defaultPort(u.Scheme)
	if p := u.Port(); p != "" {
		n, _ := parsePort(p)
		port = uint16(n)
	}
	tgt, err := resolve(ctx, t.opts.Resolver, t.pol, name, ip, port)
	if err != nil {
		return nil, nil, err
	}
	tr := pinnedTransport(tgt, t.dial, t.roots)
	client := &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot build a request for %s: %v", u.Redacted(), err)
	}
	req.Header.Set("User-Agent", t.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		tr.CloseIdleConnections()
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.Redacted(), ctx.Err())
		}
		return nil, nil, err // a *url.Error; errors.As still finds a dialer's RefusedError
	}
	return resp, u, nil
}

func defaultPort(scheme string) uint16 {
	if scheme == "https" {
		return 443
	}
	return 80
}

// read classifies the body and reads at most limit bytes of it.
func (t *tool) read(resp *http.Response, limit int64) (*page, error) {
	p := &page{
		status: resp.Status, code: resp.StatusCode, ctype: resp.Header.Get("Content-Type"),
		total: resp.ContentLength, limit: limit, fullLimit: t.opts.MaxBytes,
	}
	if p.status == "" {
		p.status = strconv.Itoa(resp.StatusCode)
	}
	// Classify from the header and the first bytes, so a binary body is
	// refused without downloading it.
	head := make([]byte, min(sniffLen, limit+1))
	n, err := io.ReadFull(resp.Body, head)
	head = head[:n]
	kind, media := classify(p.ctype, head)
	if kind == kindBinary {
		p.binaryKind, p.read = media, int64(n)
		return p, nil
	}
	var body []byte
	if err == nil {
		rest, rerr := io.ReadAll(io.LimitReader(resp.Body, limit+1-int64(n)))
		body = append(head, rest...)
		err = rerr
	} else {
		body = head
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the body failed after %d bytes: %w", len(body), err)
	}
	if int64(len(body)) > limit {
		body, p.cut = body[:limit], true
	}
	p.read = int64(len(body))
	if kind == kindText && looksBinary(body) {
		kind, media = kindBinary, "text type but contains NUL bytes"
	}
	switch kind {
	case kindBinary:
		p.binaryKind = media
	case kindHTML:
		text, title, err := htmlToMarkdown(body, p.ctype, resp.Request.URL)
		if err != nil {
			return nil, fmt.Errorf("converting HTML to markdown failed: %v", err)
		}
		p.text, p.title = text, title
	default:
		p.text = decodeText(body, p.ctype)
	}
	return p, nil
}

// result renders p as the tool result.
func (p *page) result() tools.Result {
	var sb strings.Builder
	ctype := p.ctype
	if ctype == "" {
		ctype = "(no content type)"
	}
	fmt.Fprintf(&sb, "%s · %s · %s\n", p.finalURL, p.status, ctype)
	if len(p.redirects) > 0 {
		fmt.Fprintf(&sb, "redirected from: %s\n", strings.Join(p.redirects, " -> "))
	}
	if p.binaryKind != "" {
		fmt.Fprintf(&sb, "\nnot shown: the body is binary (%s); web_fetch returns only HTML, text, JSON and XML\n", p.binaryKind)
		return tools.Result{Content: sb.String(), IsError: true}
	}
	if p.title != "" {
		fmt.Fprintf(&sb, "title: %s\n", capTitle(p.title))
	}
	sb.WriteString("\n")
	sb.WriteString(p.text)
	if !strings.HasSuffix(p.text, "\n") {
		sb.WriteString("\n")
	}
	if p.cut {
		sb.WriteString(p.cutNote())
	}
	return tools.Result{Content: sb.String(), IsError: p.code >= 400}
}

// cutNote says how much of a capped body was not read.
func (p *page) cutNote() string {
	rest := "the size of the rest is unknown"
	if p.total > p.read {
		rest = fmt.Sprintf("%d of %d bytes were not read", p.total-p.read, p.total)
	}
	more := ""
	if p.limit < p.fullLimit {
		more = fmt.Sprintf("; raise max_bytes (up to %d) to read more", p.fullLimit)
	}
	return fmt.Sprintf("[cut: body capped at %d bytes; %s%s]\n", p.limit, rest, more)
}

// flexSize is a JSON integer or a string holding one (local models often
// quote numbers); null and "" are 0.
type flexSize int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexSize) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) || f < 0 {
		return fmt.Errorf("max_bytes: want a non-negative integer, got %s", b)
	}
	*n = flexSize(f)
	return nil
}

// maxTitleBytes caps the title line (bytes).
const maxTitleBytes = 300

// capTitle shortens a title past maxTitleBytes on a rune boundary.
func capTitle(s string) string {
	if len(s) <= maxTitleBytes {
		return s
	}
	cut := maxTitleBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

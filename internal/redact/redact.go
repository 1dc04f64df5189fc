// Package redact masks secrets — API keys, tokens, private keys and
// password assignments — in text before it reaches the model, the screen
// or the session log (issue 5, acceptance 7). Every tool result passes
// through it first (SPEC §4: redaction → budget → ceiling → spill).
//
// It is a pure text transform: no I/O, no state beyond the patterns, safe
// for concurrent use. It must not import other Zero packages but the leaf
// internal/lazyregexp (a pattern is compiled the first time its hint
// occurs, not at start-up). It aims at formats with a recognisable shape
// (vendor prefixes, JWT, PEM) and treats generic `password=` style
// assignments conservatively, so that ordinary code and logs pass through
// unchanged.
package redact

import (
	"slices"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Mask is what a secret is replaced with: "[REDACTED:" + kind + "]".
func Mask(kind string) string { return "[REDACTED:" + kind + "]" }

// pattern is one secret format. A match must start where one of hints
// occurs (compared in ASCII lower case when fold is set); re is anchored
// there and tried on a window of at most window bytes (default 4 KiB).
// Scanning for literal hints first keeps 1 MB of output fast: Go's regexp
// cannot skip ahead on patterns that begin with \b or an alternation.
// group selects the part to mask (0: the whole match; -1: the first
// submatch that matched). boundary requires the byte before the match not
// to be a letter or digit.
type pattern struct {
	kind     string
	hints    []string
	fold     bool
	re       *lazyregexp.Regexp
	group    int
	boundary bool
	window   int
}

// Formats are from the vendors' documentation of their key prefixes:
// OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-),
// AWS access key ids (AKIA/ASIA...) and secret keys named in context,
// GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), Slack (xox?-, hook
// URLs), Google (AIza), Stripe (sk_live_), Hugging Face (hf_), GitLab
// (glpat-), npm (npm_), SendGrid (SG.), DigitalOcean (dop_v1_ and kin),
// PyPI (pypi-), Azure storage and Service Bus connection strings
// (AccountKey=, SharedAccessKey=) and SAS URLs (sig=), HTTP Basic
// credentials (RFC 7617), JWT (RFC 7519 compact form), PEM private keys
// (RFC 7468). testdata/secrets.txt holds a fake of each.
var patterns = []pattern{
	{kind: "private-key", hints: []string{"-----BEGIN"}, window: 64 << 10, re: lazyregexp.New(
		`^-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`)},
	{kind: "anthropic-key", hints: []string{"sk-ant-"}, boundary: true, re: lazyregexp.New(`^sk-ant-[A-Za-z0-9_-]{20,}`)},
	{kind: "openai-key", hints: []string{"sk-"}, boundary: true, re: lazyregexp.New(`^sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`)},
	{kind: "aws-access-key-id", hints: []string{"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA"},
		boundary: true, re: lazyregexp.New(`^A[A-Z]{3}[A-Z0-9]{16}\b`)},
	{kind: "aws-secret-key", hints: []string{"aws", "secret"}, fold: true, re: lazyregexp.New(
		`^(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)(?:_?id)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b`), group: 1},
	{kind: "github-token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, boundary: true,
		re: lazyregexp.New(`^gh[pousr]_[A-Za-z0-9]{36,255}\b`)},
	{kind: "github-token", hints: []string{"github_pat_"}, boundary: true, re: lazyregexp.New(`^github_pat_[A-Za-z0-9_]{22,255}\b`)},
	{kind: "gitlab-token", hints: []string{"glpat-"}, boundary: true, re: lazyregexp.New(`^glpat-[A-Za-z0-9_-]{20,}\b`)},
	{kind: "slack-token", hints: []string{"xox"}, boundary: true, re: lazyregexp.New(`^xox[abposre]-[A-Za-z0-9-]{10,}\b`)},
	{kind: "slack-webhook", hints: []string{"https://hooks.slack.com/"}, re: lazyregexp.New(`^https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}`)},
	{kind: "google-api-key", hints: []string{"AIza"}, boundary: true, re: lazyregexp.New(`^AIza[0-9A-Za-z_-]{35}\b`)},
	{kind: "stripe-key", hints: []string{"sk_live_", "rk_live_"}, boundary: true, re: lazyregexp.New(`^[sr]k_live_[0-9A-Za-z]{20,}\b`)},
	{kind: "huggingface-token", hints: []string{"hf_"}, boundary: true, re: lazyregexp.New(`^hf_[A-Za-z0-9]{34,}\b`)},
	{kind: "npm-token", hints: []string{"npm_"}, boundary: true, re: lazyregexp.New(`^npm_[A-Za-z0-9]{36}\b`)},
	{kind: "sendgrid-key", hints: []string{"SG."}, boundary: true, re: lazyregexp.New(`^SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`)},
	{kind: "digitalocean-token", hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, boundary: true, re: lazyregexp.New(`^do[opr]_v1_[A-Za-z0-9]{64}\b`)},
	{kind: "pypi-token", hints: []string{"pypi-"}, boundary: true, re: lazyregexp.New(`^pypi-[A-Za-z0-9_-]{50,}`)},
	{kind: "azure-key", hints: []string{"AccountKey=", "SharedAccessKey="}, re: lazyregexp.New(
		`^(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})`), group: 1},
	{kind: "azure-sas", hints: []string{"&sig=", "?sig="}, re: lazyregexp.New(`^[?&]sig=([A-Za-z0-9%+/=]{20,})`), group: 1},
	{kind: "basic-auth", hints: []string{"authorization"}, fold: true, re: lazyregexp.New(
		`^(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{8,}={0,2})`), group: 1},
	{kind: "jwt", hints: []string{"eyJ"}, boundary: true, re: lazyregexp.New(`^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{kind: "bearer-token", hints: []string{"bearer"}, fold: true, boundary: true, re: lazyregexp.New(
		`^(?i)bearer\s+([A-Za-z0-9._~+/-]{20,}=*)`), group: 1},
	{kind: "url-password", hints: []string{"://"}, re: lazyregexp.New(`^://[^/\s:@]*:([^/\s@]{3,})@`), group: 1},
	{kind: "password", hints: []string{"password", "passwd", "passphrase", "secret", "token", "api", "private", "access"},
		fold: true, boundary: true, group: -1, re: lazyregexp.New(
			`^(?i)(?:password|passwd|passphrase|secret(?:_?key)?|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key)` +
				`["']?\s*[:=]\s*(?:"([^"\n]{6,})"|'([^'\n]{6,})'|([^\s"',;&)}\]]{8,}))`)},
}

// String masks the secrets in s and returns the result and how many
// secrets it masked. Text without secrets comes back unchanged.
func String(s string) (string, int) {
	return defaultRedactor.String(s)
}

var defaultRedactor = &Redactor{}

// Redactor masks the built-in formats plus known secret values (for
// example the API keys Zero itself was configured with).
type Redactor struct {
	known []string
}

// New returns a Redactor that also masks each of known verbatim. Values
// shorter than 8 bytes are ignored (they would mask ordinary words).
func New(known ...string) *Redactor {
	r := &Redactor{}
	for _, k := range known {
		if len(k) >= 8 {
			r.known = append(r.known, k)
		}
	}
	return r
}

// String masks the secrets in s; see the package function String.
func (r *Redactor) String(s string) (string, int) {
	n := 0
	for _, k := range r.known {
		if c := strings.Count(s, k); c > 0 {
			s = strings.ReplaceAll(s, k, Mask("configured-key"))
			n += c
		}
	}
	lower := ""
	for _, p := range patterns {
		hay := s
		if p.fold {
			if lower == "" {
				lower = asciiLower(s)
			}
			hay = lower
		}
		out, m := replace(s, hay, p)
		if m > 0 {
			s, n, lower = out, n+m, ""
		}
	}
	s, m := assignments(s)
	return s, n + m
}

// asciiLower lower-cases ASCII letters only, so byte offsets in the
// result are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// assignBoundary reports whether a secret name may start at s[i] though
// a word byte precedes it: after '_' or '-' (DB_PASSWORD), or at a
// camelCase hump (SessionToken, _authToken).
func assignBoundary(s string, i int) bool {
	prev, c := s[i-1], s[i]
	return prev == '_' || prev == '-' || prev >= 'a' && prev <= 'z' && c >= 'A' && c <= 'Z'
}

// span is a masked range of s.
type span struct{ start, end int }

// replace masks every match of p in s; hay is s or its lower-case form,
// searched for the hints.
func replace(s, hay string, p pattern) (string, int) {
	var spans []span
	window := p.window
	if window == 0 {
		window = 4 << 10
	}
	for _, h := range p.hints {
		for off := 0; off < len(hay); {
			i := strings.Index(hay[off:], h)
			if i < 0 {
				break
			}
			i += off
			off = i + 1
			if p.boundary && i > 0 && isWordByte(s[i-1]) && !(p.group == -1 && assignBoundary(s, i)) {
				continue
			}
			end := min(len(s), i+window)
			m := p.re.FindStringSubmatchIndex(s[i:end])
			if m == nil {
				continue
			}
			start, stop := m[0], m[1]
			switch {
			case p.group > 0:
				start, stop = m[2*p.group], m[2*p.group+1]
			case p.group < 0:
				start, stop = -1, -1
				for g := 1; 2*g < len(m); g++ {
					if m[2*g] >= 0 {
						start, stop = m[2*g], m[2*g+1]
						break
					}
				}
			}
			if start < 0 || placeholder(s[i+start:i+stop]) {
				continue
			}
			spans = append(spans, span{i + start, i + stop})
			off = i + m[1]
		}
	}
	if len(spans) == 0 {
		return s, 0
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	last, n := 0, 0
	for _, sp := range spans {
		if sp.start < last {
			continue
		}
		b.WriteString(s[last:sp.start])
		b.WriteString(Mask(p.kind))
		last = sp.end
		n++
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// placeholder reports values that are clearly not secrets: already
// masked, variable references, templates, stars, and code that reads a
// secret rather than holding it.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	switch {
	case strings.HasPrefix(v, "[REDACTED"), strings.HasPrefix(v, "$"), strings.HasPrefix(v, "<"),
		strings.HasPrefix(v, "{{"), strings.HasPrefix(v, "%"), strings.Trim(v, "*xX•.-_") == "",
		strings.Contains(l, "getenv"), strings.Contains(l, "environ"), strings.Contains(l, "process.env"),
		strings.Contains(l, "os.env"), strings.HasPrefix(l, "env."), strings.HasPrefix(l, "os."),
		strings.HasPrefix(l, "self."), strings.HasPrefix(l, "this."), strings.HasPrefix(l, "config."),
		strings.HasPrefix(l, "settings."), strings.HasPrefix(l, "cfg."), strings.HasPrefix(l, "opts."),
		strings.HasPrefix(l, "req."), strings.HasPrefix(l, "args."), strings.Contains(l, "("),
		l == "none", l == "null", l == "undefined", l == "changeme", l == "password", l == "redacted":
		return true
	}
	return false
}

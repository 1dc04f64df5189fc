package webfetch

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// RefusedError says why a URL, host name or address may not be fetched.
// Its text is written for the model: what was refused and why.
type RefusedError struct {
	// Target is what was refused: a URL, a host name or an address.
	Target string
	// Reason names the class, for example "a private (RFC 1918) address".
	Reason string
}

// Error implements error: "<target> is refused: <reason>".
func (e *RefusedError) Error() string { return e.Target + " is refused: " + e.Reason }

func refused(target, format string, a ...any) error {
	return &RefusedError{Target: target, Reason: fmt.Sprintf(format, a...)}
}

// special is one address range that web_fetch never dials, with the name
// the model is told. Sources: the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890 and updates), RFC 6598 (CGNAT), RFC 6052
// (NAT64), RFC 9637 (3fff::/20), and the cloud providers' metadata
// service documentation.
type special struct {
	prefix netip.Prefix
	why    string
}

// metadataAddrs are instance-metadata endpoints that hand out cloud
// credentials (AWS, GCP, Azure, Oracle: 169.254.169.254; AWS IPv6:
// fd00:ec2::254; Alibaba: 100.100.100.200). Each is also inside a refused
// range; they are named separately so the refusal says what it is.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
}

// refusedV4 lists IPv4 ranges that are not public unicast.
var refusedV4 = []special{
	{netip.MustParsePrefix("0.0.0.0/8"), `a "this network" (0.0.0.0/8) address`},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private (RFC 1918) address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT (100.64.0.0/10) address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private (RFC 1918) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol-assignment (192.0.0.0/24) address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation (TEST-NET-1) address"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay anycast address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private (RFC 1918) address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking (198.18.0.0/15) address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation (TEST-NET-2) address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation (TEST-NET-3) address"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("255.255.255.255/32"), "the broadcast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved (240.0.0.0/4) address"},
}

// refusedV6 lists IPv6 ranges refused before the global-unicast test, so
// the message names them precisely.
var refusedV6 = []special{
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "an IPv4-translated (SIIT) address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 (64:ff9b:1::/48) address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only (100::/64) address"},
	{netip.MustParsePrefix("2001::/32"), "a Teredo tunnel address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation (2001:db8::/32) address"},
	{netip.MustParsePrefix("2001::/23"), "an IETF protocol-assignment (2001::/23) address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation (3fff::/20) address"},
	{netip.MustParsePrefix("5f00::/16"), "a segment-routing (5f00::/16) address"},
	{netip.MustParsePrefix("fc00::/7"), "a unique-local (private, fc00::/7) address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
}

var (
	nat64WellKnown = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	globalUnicast  = netip.MustParsePrefix("2000::/3")
)

// CheckAddr returns nil if a is a public unicast address that web_fetch
// may dial, else a *RefusedError naming the class: loopback, private
// (RFC 1918, fc00::/7), link-local, cloud metadata, unspecified,
// multicast, broadcast, CGNAT, 0.0.0.0/8, documentation and other
// special-purpose ranges. IPv6 forms that carry an IPv4 address
// (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are
// judged by the embedded IPv4 address; other IPv6 outside 2000::/3 is
// refused. Addresses with a zone (fe80::1%eth0) are refused.
func CheckAddr(a netip.Addr) error {
	if !a.IsValid() {
		return refused("(no address)", "not a valid IP address")
	}
	if a.Zone() != "" {
		return refused(a.String(), "an address with a zone is link-scoped")
	}
	for _, m := range metadataAddrs {
		if a.Unmap() == m {
			return refused(a.String(), "a cloud instance-metadata endpoint (it hands out credentials)")
		}
	}
	if a.Is4In6() {
		if err := checkV4(a.Unmap()); err != nil {
			return refused(a.String(), "an IPv4-mapped form of %s", err.(*RefusedError).Reason)
		}
		return nil
	}
	if a.Is4() {
		return checkV4(a)
	}
	return checkV6(a)
}

func checkV4(a netip.Addr) error {
	for _, s := range refusedV4 {
		if s.prefix.Contains(a) {
			return refused(a.String(), "%s", s.why)
		}
	}
	return nil
}

func checkV6(a netip.Addr) error {
	for _, s := range refusedV6 {
		if s.prefix.Contains(a) {
			return refused(a.String(), "%s", s.why)
		}
	}
	b := a.As16()
	switch {
	case nat64WellKnown.Contains(a):
		v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		if err := CheckAddr(v4); err != nil {
			return refused(a.String(), "a NAT64 form of %s", err.(*RefusedError).Reason)
		}
		return nil
	case sixToFour.Contains(a):
		v4 := netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		if err := CheckAddr(v4); err != nil {
			return refused(a.String(), "a 6to4 form of %s", err.(*RefusedError).Reason)
		}
		return nil
	case !globalUnicast.Contains(a):
		return refused(a.String(), "not a global unicast IPv6 address")
	}
	return nil
}

// refusedNames are host names refused before any lookup: they name the
// local machine or a metadata service on every network (RFC 6761 for
// localhost; GCP and AWS docs for the metadata names).
var refusedNames = map[string]string{
	"localhost":                "the local machine",
	"metadata.google.internal": "the GCP instance-metadata service (it hands out credentials)",
	"metadata.goog":            "the GCP instance-metadata service (it hands out credentials)",
	"metadata":                 "a cloud instance-metadata service name",
	"instance-data":            "the AWS instance-metadata service (it hands out credentials)",
}

// refusedSuffixes are name suffixes reserved for local or private use
// (RFC 6761 .localhost, RFC 6762 .local mDNS, ICANN's .internal, the
// home.arpa of RFC 8375).
var refusedSuffixes = []string{".localhost", ".local", ".internal", ".home.arpa", ".lan"}

// hostProfile maps host names the way browsers do (WHATWG URL: UTS #46
// non-transitional, CheckHyphens and UseSTD3ASCIIRules off), so names
// with underscores or "--" in the middle are accepted; checkHostName then
// limits the ASCII result to letters, digits, '-' and '_'.
var hostProfile = idna.New(idna.MapForLookup(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false), idna.BidiRule())

// normalizeHost turns the host part of a URL into the form that is
// resolved and sent: lower-case, no trailing dot, IDNA A-labels
// (punycode). It refuses names that are not valid DNS names and numeric
// forms that some resolvers read as IPv4 (2130706433, 0x7f.1, 127.1).
// An IP literal comes back as ip with name "".
func normalizeHost(host string) (name string, ip netip.Addr, err error) {
	if host == "" {
		return "", netip.Addr{}, refused("(empty host)", "the URL has no host")
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if a, perr := netip.ParseAddr(host); perr == nil {
		return "", a, nil
	}
	if strings.Contains(host, ":") || strings.Contains(host, "%") {
		return "", netip.Addr{}, refused(host, "not a valid IP address or host name")
	}
	if !utf8.ValidString(host) {
		return "", netip.Addr{}, refused(strings.ToValidUTF8(host, "\uFFFD"), "not a valid host name (not UTF-8)")
	}
	ascii, ierr := hostProfile.ToASCII(strings.TrimSuffix(host, "."))
	if ierr == nil {
		// An A-label must itself pass IDNA (xn--... that decodes to
		// nonsense does not), so the name sent is one a resolver accepts.
		_, ierr = hostProfile.ToASCII(ascii)
	}
	if ierr != nil {
		return "", netip.Addr{}, refused(host, "not a valid host name (%v)", ierr)
	}
	ascii = strings.ToLower(ascii)
	if err := checkHostName(ascii); err != nil {
		return "", netip.Addr{}, err
	}
	return ascii, netip.Addr{}, nil
}

// checkHostName refuses malformed, numeric-looking and reserved names.
// name is already lower-case ASCII without a trailing dot.
func checkHostName(name string) error {
	if len(name) == 0 || len(name) > 253 {
		return refused(name, "not a valid host name (length)")
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 {
			return refused(name, "not a valid host name (empty or over-long label)")
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return refused(name, "not a valid host name (character %q)", c)
			}
		}
	}
	if numericLabel(labels[len(labels)-1]) {
		// WHATWG URL parsing reads such a host as an IPv4 address in an
		// odd notation; only canonical dotted quads are accepted.
		return refused(name, "a numeric host that is not a dotted-quad IPv4 address; write the address as a.b.c.d")
	}
	if why, ok := refusedNames[name]; ok {
		return refused(name, "%s", why)
	}
	for _, s := range refusedSuffixes {
		if strings.HasSuffix(name, s) {
			return refused(name, "a name under %s, reserved for local networks", s)
		}
	}
	return nil
}

// numericLabel reports whether l is a decimal number or a 0x hex number.
func numericLabel(l string) bool {
	if strings.HasPrefix(l, "0x") {
		l = l[2:]
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

// errScheme is wrapped by checkURL for a non-http(s) URL.
var errScheme = errors.New("only http and https URLs can be fetched")

// checkURL parses raw and checks what can be checked without DNS: scheme
// http or https, no user:password, a valid host name that is not refused
// by name, or an IP literal (judged later by the policy in resolve, like
// any resolved address). It returns the URL to request
// with its host normalized (IDNA, lower case, no fragment), the name to
// resolve ("" for an IP literal) and the literal address if any.
func checkURL(raw string) (u *url.URL, name string, ip netip.Addr, err error) {
	u, err = url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, "", netip.Addr{}, refused(raw, "not a valid URL (%v)", err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "":
		hint := ""
		if u.Host == "" && u.Path != "" && !strings.HasPrefix(u.Path, "/") {
			hint = fmt.Sprintf(" (did you mean https://%s?)", strings.TrimSpace(raw))
		}
		return nil, "", netip.Addr{}, refused(raw, "%v; the URL has no scheme%s", errScheme, hint)
	case scheme != "http" && scheme != "https":
		return nil, "", netip.Addr{}, refused(raw, "%v, not %s:", errScheme, scheme)
	}
	if u.Opaque != "" {
		return nil, "", netip.Addr{}, refused(raw, "not a valid http URL (write %s://host/path)", scheme)
	}
	if u.User != nil {
		return nil, "", netip.Addr{}, refused(redact(u), "URLs with credentials (user:password@) are never fetched")
	}
	name, ip, err = normalizeHost(u.Hostname())
	if err != nil {
		return nil, "", netip.Addr{}, err
	}
	if p := u.Port(); p != "" {
		if n, ok := parsePort(p); !ok || n == 0 {
			return nil, "", netip.Addr{}, refused(raw, "port %q is not a valid port", p)
		}
	}
	out := *u
	out.Scheme = scheme
	out.Fragment, out.RawFragment = "", ""
	host := name
	if ip.IsValid() {
		host = ip.String()
		if ip.Is6() {
			host = "[" + host + "]"
		}
	}
	if p := u.Port(); p != "" {
		host += ":" + p
	}
	out.Host = host
	return &out, name, ip, nil
}

// parsePort parses a decimal TCP port.
func parsePort(p string) (int, bool) {
	if len(p) == 0 || len(p) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return 0, false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n, n <= 65535
}

// redact shows u without its password, for messages.
func redact(u *url.URL) string { return u.Redacted() }

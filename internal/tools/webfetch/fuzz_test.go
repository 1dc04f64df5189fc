package webfetch

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzCheckAddr: CheckAddr never passes an address that netip itself calls
// loopback, private, link-local, multicast, unspecified or non-global, and
// an IPv4 address gets the same verdict in its IPv4-mapped, NAT64
// (64:ff9b::/96) and 6to4 (2002::/16) forms.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{
		"127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:10.0.0.1", "93.184.216.34",
		"100.64.0.1", "0.0.0.0", "255.255.255.255", "fd00:ec2::254", "64:ff9b::a00:1", "2002:a00:1::",
		"2606:4700::1111", "fe80::1", "ff02::1", "2001::1", "8.8.8.8",
	} {
		f.Add(netip.MustParseAddr(s).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		err := CheckAddr(a)
		if err == nil {
			if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
				a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() {
				t.Fatalf("CheckAddr(%s) allowed a special address", a)
			}
		}
		if !a.Is4() {
			return
		}
		v4 := a.As4()
		var nat64, sixto4 [16]byte
		copy(nat64[:], netip.MustParseAddr("64:ff9b::").AsSlice())
		copy(nat64[12:], v4[:])
		sixto4[0], sixto4[1] = 0x20, 0x02
		copy(sixto4[2:6], v4[:])
		sixto4[15] = 1
		for _, form := range []netip.Addr{netip.AddrFrom16(a.As16()), netip.AddrFrom16(nat64), netip.AddrFrom16(sixto4)} {
			if (CheckAddr(form) == nil) != (err == nil) {
				t.Fatalf("CheckAddr(%s) = %v but CheckAddr(%s) = %v", a, err, form, CheckAddr(form))
			}
		}
	})
}

// FuzzCheckURL: checkURL never panics, and whatever it accepts is an
// http(s) URL without credentials or fragment whose host is exactly the
// name to resolve (valid lower-case DNS name, not refused by name) or the
// IP literal, and accepting is stable: checking the result again gives
// the same URL.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://go.dev/doc/#install", "http://bücher.example/", "http://[::ffff:127.0.0.1]/",
		"http://[fe80::1%25eth0]/", "file:///etc/passwd", "javascript:alert(1)", "http://user:pw@example.com/",
		"http://2130706433/", "http://0x7f.1/", "http://127.1/", "http://localhost./", "http://metadata.google.internal/",
		"example.com/page", "http:example.com", "HTTP://EXAMPLE.COM:8080/a?b#c", "http://a.b.c.d.e.f.g/x",
		"https://xn--bcher-kva.example./", "http://[2606:4700::1111]:443/", "gopher://x/", "http://%31%32%37.0.0.1/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, name, ip, err := checkURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted scheme %q from %q", u.Scheme, raw)
		}
		if u.User != nil || u.Fragment != "" || u.Opaque != "" {
			t.Fatalf("accepted %#v from %q", u, raw)
		}
		switch {
		case name != "" && ip.IsValid(), name == "" && !ip.IsValid():
			t.Fatalf("name %q and ip %v from %q", name, ip, raw)
		case name != "":
			if u.Hostname() != name || name != strings.ToLower(name) || checkHostName(name) != nil {
				t.Fatalf("host %q, name %q from %q", u.Hostname(), name, raw)
			}
		default:
			if h, perr := netip.ParseAddr(u.Hostname()); perr != nil || h != ip {
				t.Fatalf("host %q, ip %v from %q", u.Hostname(), ip, raw)
			}
		}
		u2, name2, ip2, err := checkURL(u.String())
		if err != nil || u2.String() != u.String() || name2 != name || ip2 != ip {
			t.Fatalf("not stable: %q -> %q -> %v, %v", raw, u, u2, err)
		}
	})
}

// FuzzHTMLToMarkdown: any bytes convert without panicking (a converter
// panic is turned into an error, which would fail this target too).
func FuzzHTMLToMarkdown(f *testing.F) {
	f.Add([]byte("<html><head><title>t</title></head><body><main><p>x</p></main></body></html>"))
	f.Add([]byte("<table><tr><td>a<td>b<tr><td colspan=3>c</table><pre><code>x</code></pre>"))
	f.Add([]byte("<ul><li><ol><li>deep</ol></ul><a href='../x'>y</a><img src='data:x'>"))
	f.Add([]byte("<meta charset=shift_jis>\x82\xa0<svg><math><nav hidden>z"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, err := htmlToMarkdown(b, "text/html", nil); err != nil {
			t.Fatalf("htmlToMarkdown: %v", err)
		}
	})
}

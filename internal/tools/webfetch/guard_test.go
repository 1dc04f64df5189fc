package webfetch

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr string
		why  string // "" means allowed; else a substring of the reason
	}{
		// Public unicast, including the edges of refused ranges.
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.216.34", ""},
		{"9.255.255.255", ""},
		{"11.0.0.0", ""},
		{"100.63.255.255", ""},
		{"100.128.0.0", ""},
		{"126.255.255.255", ""},
		{"128.0.0.0", ""},
		{"169.253.255.255", ""},
		{"169.255.0.0", ""},
		{"172.15.255.255", ""},
		{"172.32.0.0", ""},
		{"192.167.255.255", ""},
		{"192.169.0.0", ""},
		{"223.255.255.255", ""},
		{"2606:4700:4700::1111", ""},
		{"2a00:1450:4001:82b::200e", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},     // NAT64 of 8.8.8.8
		{"2002:808:808::1", ""},      // 6to4 of 8.8.8.8
		{"2001:4860:4860::8888", ""}, // outside 2001::/23

		// IPv4 special ranges.
		{"0.0.0.0", "this network"},
		{"0.1.2.3", "this network"},
		{"10.0.0.1", "private"},
		{"10.255.255.255", "private"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.255", "carrier-grade NAT"},
		{"100.100.100.200", "metadata"},
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"169.254.0.1", "link-local"},
		{"169.254.169.254", "metadata"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.0.0.8", "IETF"},
		{"192.0.2.10", "documentation"},
		{"192.88.99.1", "6to4 relay"},
		{"192.168.1.1", "private"},
		{"198.18.0.1", "benchmarking"},
		{"198.19.255.255", "benchmarking"},
		{"198.51.100.7", "documentation"},
		{"203.0.113.9", "documentation"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "broadcast"},

		// IPv6 special ranges.
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"::127.0.0.1", "IPv4-compatible"},
		{"::a00:1", "IPv4-compatible"},
		{"::ffff:0:a00:1", "SIIT"},
		{"fc00::1", "unique-local"},
		{"fd12:3456:789a::1", "unique-local"},
		{"fd00:ec2::254", "metadata"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "zone"},
		{"fec0::1", "site-local"},
		{"ff02::1", "multicast"},
		{"ff0e::1", "multicast"},
		{"100::1", "discard"},
		{"2001::1", "Teredo"},
		{"2001:db8::1", "documentation"},
		{"2001:10::1", "IETF"},
		{"3fff::1", "documentation"},
		{"5f00::1", "segment-routing"},
		{"4000::1", "not a global unicast"},

		// IPv4 addresses in IPv6 clothing.
		{"::ffff:127.0.0.1", "IPv4-mapped form of a loopback"},
		{"::ffff:10.0.0.1", "IPv4-mapped form of a private"},
		{"::ffff:169.254.169.254", "metadata"},
		{"::ffff:0.0.0.0", "IPv4-mapped form of a \"this network\""},
		{"64:ff9b::a00:1", "NAT64 form of a private"},
		{"64:ff9b::7f00:1", "NAT64 form of a loopback"},
		{"64:ff9b::a9fe:a9fe", "NAT64 form of a cloud instance-metadata"},
		{"64:ff9b:1::a00:1", "local-use NAT64"},
		{"2002:a00:1::1", "6to4 form of a private"},
		{"2002:7f00:1::", "6to4 form of a loopback"},
		{"2002:a9fe:a9fe::", "6to4 form of a cloud instance-metadata"},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			err := CheckAddr(netip.MustParseAddr(tc.addr))
			if tc.why == "" {
				if err != nil {
					t.Fatalf("CheckAddr(%s) = %v, want allowed", tc.addr, err)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("CheckAddr(%s) = %v, want a *RefusedError", tc.addr, err)
			}
			if !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("CheckAddr(%s) = %q, want it to mention %q", tc.addr, err, tc.why)
			}
		})
	}
	if err := CheckAddr(netip.Addr{}); err == nil {
		t.Fatal("CheckAddr(zero Addr) allowed it")
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		raw      string
		why      string // "" means accepted
		wantURL  string // when accepted
		wantName string // when accepted: the name to resolve ("" for an IP literal)
	}{
		{"https://go.dev/doc/#install", "", "https://go.dev/doc/", "go.dev"},
		{"  HTTP://Example.COM:8080/a?b=c  ", "", "http://example.com:8080/a?b=c", "example.com"},
		{"https://example.com./x", "", "https://example.com/x", "example.com"},
		{"http://bücher.example/", "", "http://xn--bcher-kva.example/", "xn--bcher-kva.example"},
		{"http://8.8.8.8/", "", "http://8.8.8.8/", ""},
		{"http://[2606:4700:4700::1111]:443/", "", "http://[2606:4700:4700::1111]:443/", ""},

		// Schemes.
		{raw: "file:///etc/passwd", why: "only http and https"},
		{raw: "ftp://ftp.example.com/pub", why: "only http and https"},
		{raw: "data:text/html,<script>alert(1)</script>", why: "only http and https"},
		{raw: "javascript:alert(1)", why: "only http and https"},
		{raw: "gopher://example.com:70/_GET", why: "only http and https"},
		{raw: "ws://example.com/socket", why: "only http and https"},
		{raw: "example.com/page", why: "did you mean https://example.com/page"},
		{raw: "//example.com/page", why: "no scheme"},
		{raw: "http:example.com", why: "not a valid http URL"},

		// Credentials.
		{raw: "http://user:secret@example.com/", why: "credentials"},
		{raw: "https://token@example.com/", why: "credentials"},

		// Hosts refused by name or literal.
		{raw: "http://localhost/", why: "local machine"},
		{raw: "http://LOCALHOST.:8080/", why: "local machine"},
		{raw: "http://api.localhost/", why: ".localhost"},
		{raw: "http://printer.local/", why: ".local"},
		{raw: "http://metadata.google.internal/computeMetadata/v1/", why: "metadata"},
		{raw: "http://metadata/", why: "metadata"},
		{raw: "http://db.corp.internal/", why: ".internal"},
		{raw: "http://%6c%6f%63%61%6c%68%6f%73%74/", why: "not a valid URL"}, // Go refuses escapes in hosts
		{raw: "http://127.0.0.1/", why: "loopback"},
		{raw: "http://127.0.0.1:8080/admin", why: "loopback"},
		{raw: "http://10.0.0.1/", why: "private"},
		{raw: "http://169.254.169.254/latest/meta-data/", why: "metadata"},
		{raw: "http://[::1]/", why: "loopback"},
		{raw: "http://[::ffff:127.0.0.1]/", why: "loopback"},
		{raw: "http://[::ffff:a00:1]/", why: "private"},
		{raw: "http://[fe80::1%25eth0]/", why: "zone"},
		{raw: "http://0.0.0.0:8000/", why: "this network"},
		{raw: "http://2130706433/", why: "numeric host"},
		{raw: "http://0x7f000001/", why: "numeric host"},
		{raw: "http://127.1/", why: "numeric host"},
		{raw: "http://0177.0.0.1/", why: "numeric host"},
		{raw: "http://017700000001/", why: "numeric host"},
		{raw: "http://example.com:0/", why: "not a valid port"},
		{raw: "http:///path", why: "no host"},
		{raw: "http://exa$mple.com/", why: "not a valid host name"},
		{"http://my_host.example.com/", "", "http://my_host.example.com/", "my_host.example.com"},
		{"http://ab--cd.example/", "", "http://ab--cd.example/", "ab--cd.example"},
		{"http://faß.de/", "", "http://xn--fa-hia.de/", "xn--fa-hia.de"},
		{raw: "http://\xba/", why: "not UTF-8"},
		{raw: "http://xn--zn7c/", why: "not a valid host name"},
		{raw: "http://a..b/", why: "not a valid host name"},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			u, name, ip, err := checkURL(tc.raw)
			if err == nil && ip.IsValid() {
				// An IP literal is judged by the policy in resolve, as
				// every resolved address is; production uses CheckAddr.
				err = CheckAddr(ip)
			}
			if tc.why != "" {
				if err == nil {
					t.Fatalf("checkURL(%q) accepted %v, want refusal mentioning %q", tc.raw, u, tc.why)
				}
				var re *RefusedError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.why) {
					t.Fatalf("checkURL(%q) = %q, want a RefusedError mentioning %q", tc.raw, err, tc.why)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Fatalf("refusal leaks the password: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("checkURL(%q) = %v, want accepted", tc.raw, err)
			}
			if u.String() != tc.wantURL || name != tc.wantName {
				t.Fatalf("checkURL(%q) = %q, name %q; want %q, %q", tc.raw, u, name, tc.wantURL, tc.wantName)
			}
			if name == "" && !ip.IsValid() {
				t.Fatalf("checkURL(%q): neither a name nor an address", tc.raw)
			}
		})
	}
}

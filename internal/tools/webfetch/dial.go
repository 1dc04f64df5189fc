package webfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// Resolver looks up the addresses of a host name. *net.Resolver (and so
// net.DefaultResolver) satisfies it; tests pass a stub.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// policy decides whether one address and port may be dialled; nil error
// means yes. Production uses publicOnly; tests in this package replace it
// so they can reach 127.0.0.1 httptest servers. It is deliberately not
// part of Options: no caller outside this package can loosen the guard.
type policy func(netip.AddrPort) error

// publicOnly is the production policy: CheckAddr on the address, any port.
func publicOnly(ap netip.AddrPort) error { return CheckAddr(ap.Addr()) }

// dialFunc connects to address ("ip:port", always an IP literal that the
// policy accepted). Tests replace it to record what would be dialled.
type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// connectTimeout bounds one TCP connect attempt.
const connectTimeout = 10 * time.Second

// guardedDialer returns the production dial: a net.Dialer whose Control
// hook checks the address of the socket about to connect against pol once
// more, so even a dial that somehow skipped resolve-and-check cannot reach
// a refused address.
func guardedDialer(pol policy) dialFunc {
	d := &net.Dialer{
		Timeout: connectTimeout,
		ControlContext: func(_ context.Context, network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("web_fetch: refusing to dial %q: not an IP address", address)
			}
			return pol(ap)
		},
	}
	return d.DialContext
}

// target is one hop's checked destination: the URL's host name (or IP
// literal), the port, and the addresses that passed the policy.
type target struct {
	host  string
	port  uint16
	addrs []netip.Addr
}

// resolve looks up name (or takes the literal ip), and refuses the whole
// hop if ANY address fails the policy: a name that answers with one public
// and one private address is refused, since either could be dialled.
func resolve(ctx context.Context, r Resolver, pol policy, name string, ip netip.Addr, port uint16) (target, error) {
	t := target{host: name, port: port}
	if ip.IsValid() {
		t.host = ip.String()
		t.addrs = []netip.Addr{ip}
	} else {
		ias, err := r.LookupIPAddr(ctx, name)
		if err != nil {
			if ctx.Err() != nil {
				return t, ctx.Err()
			}
			return t, fmt.Errorf("cannot resolve %s: %w", name, err)
		}
		for _, ia := range ias {
			a, ok := netip.AddrFromSlice(ia.IP)
			if !ok {
				return t, refused(name, "it resolved to an unreadable address %v", ia.IP)
			}
			// net.IP keeps IPv4 in 16-byte (::ffff:a.b.c.d) form; dial
			// the plain IPv4 address. CheckAddr judges both forms alike.
			a = a.Unmap()
			if ia.Zone != "" {
				a = a.WithZone(ia.Zone) // refused by CheckAddr
			}
			t.addrs = append(t.addrs, a)
		}
		if len(t.addrs) == 0 {
			return t, fmt.Errorf("cannot resolve %s: no addresses", name)
		}
	}
	for _, a := range t.addrs {
		if err := pol(netip.AddrPortFrom(a, port)); err != nil {
			var re *RefusedError
			if errors.As(err, &re) && name != "" {
				return t, refused(name, "it resolves to %s, %s", re.Target, re.Reason)
			}
			return t, err
		}
	}
	return t, nil
}

// pinnedTransport returns a transport that can only connect to t's checked
// addresses: whatever host:port net/http asks for, the dial goes to one of
// t.addrs (tried in order). The URL keeps its host name, so the Host
// header and the TLS server name (SNI and certificate check) are the
// original name's, while DNS is never consulted again: a rebinding answer
// cannot swap the address between check and connect. Proxies from the
// environment are ignored (Proxy is nil), since a proxy would do its own,
// unchecked resolution. roots nil means the system roots; only tests set it.
func pinnedTransport(t target, dial dialFunc, roots *x509.CertPool) *http.Transport {
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var errs []error
			for _, a := range t.addrs {
				addr := net.JoinHostPort(a.WithZone("").String(), strconv.Itoa(int(t.port)))
				c, err := dial(ctx, "tcp", addr)
				if err == nil {
					return c, nil
				}
				errs = append(errs, err)
				if ctx.Err() != nil {
					break
				}
			}
			return nil, errors.Join(errs...)
		},
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots},
		TLSHandshakeTimeout:    connectTimeout,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      true,
	}
}

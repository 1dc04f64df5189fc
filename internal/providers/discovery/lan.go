package discovery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// The LAN scan is the app's `/scan --lan` only, never a default or a
// headless command: it dials every host of the machine's /24, which a
// person must ask for.

// lanParallel bounds the probes in flight during a LAN scan (a /24 on
// eight ports is 2,032 probes; at DefaultTimeout each, about 5 s).
const lanParallel = 128

// ErrNoLAN is returned when the machine has no non-loopback IPv4 address.
var ErrNoLAN = errors.New("no network interface with a non-loopback IPv4 address: /scan --lan has nothing to scan")

// LocalLAN returns the /24 around the machine's first non-loopback,
// non-link-local IPv4 interface address, and that address.
func LocalLAN() (netip.Prefix, netip.Addr, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return netip.Prefix{}, netip.Addr{}, fmt.Errorf("reading the network interfaces: %w", err)
	}
	return LANOf(addrs)
}

// LANOf picks LocalLAN's address from addrs: the first IPv4 one that is
// not loopback, link-local (169.254/16) or unspecified; the LAN is its /24.
func LANOf(addrs []net.Addr) (netip.Prefix, netip.Addr, error) {
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(ipn.IP)
		if !ok {
			continue
		}
		ip = ip.Unmap()
		if !ip.Is4() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
			continue
		}
		p, _ := ip.Prefix(24)
		return p, ip, nil
	}
	return netip.Prefix{}, netip.Addr{}, ErrNoLAN
}

// LANHosts lists the IPv4 host addresses of p, a /24 or narrower, without
// its network and broadcast addresses and without skip (the machine's
// own address, whose servers the loopback scan finds).
func LANHosts(p netip.Prefix, skip netip.Addr) ([]netip.Addr, error) {
	if !p.Addr().Is4() || p.Bits() < 24 {
		return nil, fmt.Errorf("a LAN scan covers an IPv4 /24 or narrower, not %s", p)
	}
	p = p.Masked()
	var out []netip.Addr
	for a := p.Addr(); p.Contains(a); a = a.Next() {
		edge := a == p.Addr() || !p.Contains(a.Next())
		if (edge && p.Bits() < 31) || a == skip {
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// ScanHosts probes every host on ports, at most lanParallel at once, and
// returns the servers that listed a model, host by host in order.
func ScanHosts(ctx context.Context, hosts []netip.Addr, ports []int) []Server {
	type job struct{ host, port int }
	found := make([][]*Server, len(hosts))
	for i := range found {
		found[i] = make([]*Server, len(ports))
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range min(lanParallel, len(hosts)*len(ports)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				p := &Prober{Host: hosts[j.host].String()}
				found[j.host][j.port] = p.probe(ctx, Candidate{Port: ports[j.port], Kind: kindOfPort(ports[j.port])}).Server
			}
		}()
	}
	for h := range hosts {
		for p := range ports {
			jobs <- job{h, p}
		}
	}
	close(jobs)
	wg.Wait()
	var out []Server
	for _, row := range found {
		for _, s := range row {
			if s != nil {
				out = append(out, *s)
			}
		}
	}
	return out
}

// ScanLANAndRemember scans loopback, then every host of lan but self, on
// ports (nil: ScanPorts), and replaces servers.json in dir with all it
// found.
func ScanLANAndRemember(ctx context.Context, dir string, ports []int, lan netip.Prefix, self netip.Addr) (Remembered, error) {
	if len(ports) == 0 {
		ports = ScanPorts()
	}
	hosts, err := LANHosts(lan, self)
	if err != nil {
		return Remembered{}, err
	}
	r := Remembered{Scanned: time.Now().UTC(), Servers: ScanLoopback(ctx, ports)}
	r.Servers = append(r.Servers, ScanHosts(ctx, hosts, ports)...)
	if r.Servers == nil {
		r.Servers = []Server{}
	}
	return r, SaveServers(ServersFile(dir), r)
}

package tui

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
)

// discoverer is a Backend that finds local model servers: /scan,
// /scan --lan, /servers and /connect N.
type discoverer interface {
	Scan(ctx context.Context) (string, error)
	ScanLAN(ctx context.Context) (string, error)
	Servers(ctx context.Context) (string, error)
	Connect(ctx context.Context, arg string) (string, error)
}

// scanPorts overrides the ports /scan and the setup probe (tests; nil:
// ZERO_SCAN_PORTS, else the common
// ones, discovery.ScanPorts).
var scanPorts []int

// Scan implements discoverer: probe loopback, refresh servers.json, keep
// the list for /connect.
func (b *RunBackend) Scan(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := discovery.ScanAndRemember(ctx, config.Dir(), setupPorts())
	b.mu.Lock()
	b.scanned = r.Servers
	b.mu.Unlock()
	if err != nil {
		return "", err
	}
	if len(r.Servers) == 0 {
		return "no model server on 127.0.0.1 (ports " + ports(setupPorts()) + ")", nil
	}
	var sb strings.Builder
	discovery.WriteScan(&sb, r.Servers)
	sb.WriteString("attach one with /connect N")
	return sb.String(), nil
}

// localLAN is the network /scan --lan probes and the machine's own
// address on it (tests: a 127.0.0.0/24 "LAN", so only loopback is ever
// dialed).
var localLAN = discovery.LocalLAN

// ScanLAN implements discoverer: loopback, then every other host of the
// machine's /24 on the same ports; servers.json keeps all it found.
func (b *RunBackend) ScanLAN(ctx context.Context) (string, error) {
	lan, self, err := localLAN()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	r, err := discovery.ScanLANAndRemember(ctx, config.Dir(), setupPorts(), lan, self)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	b.scanned = r.Servers
	b.mu.Unlock()
	if len(r.Servers) == 0 {
		return fmt.Sprintf("no model server on 127.0.0.1 or %s (ports %s)", lan, ports(setupPorts())), nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "scanned 127.0.0.1 and %s (ports %s)\n", lan, ports(setupPorts()))
	discovery.WriteScan(&sb, r.Servers)
	sb.WriteString("attach one with /connect N")
	return sb.String(), nil
}

func ports(over []int) string {
	if over == nil {
		over = discovery.ScanPorts()
	}
	s := make([]string, len(over))
	for i, p := range over {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}

// Servers implements discoverer: what servers.json remembers.
func (b *RunBackend) Servers(context.Context) (string, error) {
	r, err := discovery.LoadServers(discovery.ServersFile(config.Dir()))
	if err != nil {
		return "", err
	}
	if len(r.Servers) == 0 {
		return "no servers remembered: /scan finds them", nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "servers found by the scan of %s:\n", r.Scanned.Local().Format("2006-01-02 15:04"))
	discovery.WriteScan(&sb, r.Servers)
	return strings.TrimSuffix(sb.String(), "\n"), nil
}

// Connect implements discoverer: model N of the last scan (of this app,
// else of servers.json), saved as the active profile of the user config.
// The session switches to it now: the model on the server it already
// talks to, else the provider (run.Session.UseProvider).
func (b *RunBackend) Connect(ctx context.Context, arg string) (string, error) {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return "", fmt.Errorf("usage: /connect N (a number /scan printed)")
	}
	b.mu.Lock()
	servers := b.scanned
	b.mu.Unlock()
	if servers == nil {
		r, err := discovery.LoadServers(discovery.ServersFile(config.Dir()))
		if err != nil {
			return "", err
		}
		servers = r.Servers
	}
	choices := discovery.Choices(servers)
	if n > len(choices) {
		return "", fmt.Errorf("no model %d: the last scan found %d (/scan again)", n, len(choices))
	}
	c := choices[n-1]
	name := profileName(c.Server)
	if err := config.SaveUser(func(f *config.File) { saveProfile(f, name, c) }); err != nil {
		return "", err
	}
	if sameServer(b.rt.ActiveProfile().BaseURL, c.Server.BaseURL) {
		b.Session().SetModel(c.Model)
		return fmt.Sprintf("connected: %s on %s (saved as profile %q)", c.Model, c.Server.BaseURL, name), nil
	}
	b.rt.Config.AddProfile(localProfile(name, c))
	if _, err := b.Session().UseProvider(ctx, name, c.Model); err != nil {
		return "", fmt.Errorf("saved %s on %s as profile %q, the active one from the next start; this session stays: %w", c.Model, c.Server.BaseURL, name, err)
	}
	return fmt.Sprintf("connected: %s on %s (saved as profile %q, the active one)", c.Model, c.Server.BaseURL, name), nil
}

// localProfile is the profile of model c of a scanned server.
func localProfile(name string, c discovery.Choice) config.Provider {
	return config.Provider{Name: name, Kind: config.KindOpenAICompatible, BaseURL: c.Server.BaseURL, Model: c.Model}
}

// profileName names the profile of a scanned server: its kind and port,
// and for a server on another host (/scan --lan) that host too.
func profileName(s discovery.Server) string {
	port := strings.TrimSuffix(s.BaseURL[strings.LastIndex(s.BaseURL, ":")+1:], "/v1")
	kind := strings.ReplaceAll(string(s.Kind), ".", "")
	if u, err := url.Parse(s.BaseURL); err == nil && u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" {
		return "lan-" + kind + "-" + strings.ReplaceAll(u.Hostname(), ".", "-") + "-" + port
	}
	return "local-" + kind + "-" + port
}

// saveProfile adds or replaces profile name for c and makes it active.
func saveProfile(f *config.File, name string, c discovery.Choice) {
	p := localProfile(name, c)
	for i := range f.Providers {
		if f.Providers[i].Name == name {
			f.Providers[i] = p
			f.ActiveProvider = name
			return
		}
	}
	f.Providers = append(f.Providers, p)
	f.ActiveProvider = name
}

func sameServer(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimSuffix(strings.TrimRight(s, "/"), "/v1")
		return strings.Replace(s, "://localhost:", "://127.0.0.1:", 1)
	}
	return norm(a) == norm(b)
}

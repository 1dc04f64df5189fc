package tui

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/run"
)

func portOf(t *testing.T, raw string) int {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestConnectSwitchesTheSessionAndSavesTheProfile: /scan lists
// both servers, /servers reads servers.json back, /connect on the
// session's own server switches the model now, on another saves the
// active profile and moves the session to it; a bad number loses nothing.
func TestConnectSwitchesTheSessionAndSavesTheProfile(t *testing.T) {
	here := llmtest.NewServer(t)
	here.SetModels("m", "other-model")
	there := llmtest.NewServer(t)
	there.SetModels("far-model")
	b, _ := testBackend(t, here)
	scanPorts = []int{portOf(t, here.URL()), portOf(t, there.URL())}
	t.Cleanup(func() { scanPorts = nil })
	ctx := context.Background()

	out, err := b.Scan(ctx)
	if err != nil || !strings.Contains(out, "  2. other-model") || !strings.Contains(out, "  3. far-model") {
		t.Fatalf("Scan = %q, %v", out, err)
	}
	out, err = b.Servers(ctx)
	if err != nil || !strings.Contains(out, there.URL()+"/v1") {
		t.Fatalf("Servers = %q, %v", out, err)
	}

	if out, err = b.Connect(ctx, "2"); err != nil || !strings.Contains(out, "connected: other-model") {
		t.Fatalf("Connect 2 = %q, %v", out, err)
	}
	if got := b.Info().Model; got != "other-model" {
		t.Errorf("model after /connect 2 = %q", got)
	}

	if out, err = b.Connect(ctx, "3"); err != nil || !strings.Contains(out, "connected: far-model on "+there.URL()+"/v1") {
		t.Fatalf("Connect 3 = %q, %v", out, err)
	}
	if i := b.Info(); i.Model != "far-model" || i.Host != run.HostOf(there.URL()) {
		t.Errorf("/connect to another server left the session on %s · %s", i.Model, i.Host)
	}
	path, _ := config.UserPath()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := config.ParseFile(path, data)
	if err != nil {
		t.Fatalf("user config: %v\n%s", err, data)
	}
	name := profileName(discovery.Server{Kind: discovery.Unknown, BaseURL: there.URL() + "/v1"})
	found := false
	for _, p := range f.Providers {
		found = found || p.Name == name && p.BaseURL == there.URL()+"/v1" && p.Model == "far-model"
	}
	if f.ActiveProvider != name || !found {
		t.Errorf("user config after /connect 3:\n%s", data)
	}

	for _, bad := range []string{"", "0", "4", "x"} {
		if _, err := b.Connect(ctx, bad); err == nil {
			t.Errorf("Connect(%q) succeeded", bad)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(data) {
		t.Errorf("a bad /connect changed the user config:\n%s", after)
	}
}

// TestScanLANFindsServersOnOtherHostsOfTheSubnet: /scan --lan probes
// loopback, then the other hosts of the machine's /24, here a 127.0.0.0/24
// "LAN" so that nothing but loopback is dialed; /connect N saves the LAN
// server under a profile naming its host.
func TestScanLANFindsServersOnOtherHostsOfTheSubnet(t *testing.T) {
	here := llmtest.NewServer(t)
	there := llmtest.NewServerOn(t, "127.0.0.9")
	there.SetModels("lan-model")
	b, _ := testBackend(t, here)
	scanPorts = []int{portOf(t, here.URL()), portOf(t, there.URL())}
	localLAN = func() (netip.Prefix, netip.Addr, error) {
		return netip.MustParsePrefix("127.0.0.0/24"), netip.MustParseAddr("127.0.0.1"), nil
	}
	t.Cleanup(func() { scanPorts, localLAN = nil, discovery.LocalLAN })
	ctx := context.Background()

	out, err := b.ScanLAN(ctx)
	if err != nil || !strings.Contains(out, "scanned 127.0.0.1 and 127.0.0.0/24") ||
		!strings.Contains(out, here.URL()+"/v1\n  1. llmtest-model") || !strings.Contains(out, there.URL()+"/v1\n  2. lan-model") {
		t.Fatalf("ScanLAN = %q, %v", out, err)
	}
	if strings.Count(out, "/v1\n") != 2 {
		t.Fatalf("ScanLAN found more than the two servers:\n%s", out)
	}
	if out, err := b.Servers(ctx); err != nil || !strings.Contains(out, there.URL()+"/v1") {
		t.Fatalf("Servers = %q, %v", out, err)
	}
	out, err = b.Connect(ctx, "2")
	want := fmt.Sprintf("lan-openai-compatible-127-0-0-9-%d", portOf(t, there.URL()))
	if err != nil || !strings.Contains(out, `profile "`+want+`"`) {
		t.Fatalf("Connect 2 = %q, %v (want profile %s)", out, err, want)
	}
}

package discovery

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func ipnet(s string) *net.IPNet {
	ip, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	n.IP = ip
	return n
}

func TestLANOfPicksTheFirstRoutableIPv4Address(t *testing.T) {
	tests := []struct {
		addrs      []net.Addr
		lan, self  string
		wantErrNoL bool
	}{
		{[]net.Addr{ipnet("127.0.0.1/8"), ipnet("::1/128"), ipnet("fe80::1/64"), ipnet("192.168.50.125/24")}, "192.168.50.0/24", "192.168.50.125", false},
		{[]net.Addr{ipnet("169.254.3.4/16"), ipnet("10.1.2.3/8")}, "10.1.2.0/24", "10.1.2.3", false},
		{[]net.Addr{ipnet("2001:db8::5/64"), ipnet("172.16.9.9/12")}, "172.16.9.0/24", "172.16.9.9", false},
		{[]net.Addr{ipnet("127.0.0.1/8"), ipnet("::1/128")}, "", "", true},
		{nil, "", "", true},
	}
	for _, tt := range tests {
		lan, self, err := LANOf(tt.addrs)
		if tt.wantErrNoL {
			if err != ErrNoLAN {
				t.Errorf("%v: %v %v %v, want ErrNoLAN", tt.addrs, lan, self, err)
			}
			continue
		}
		if err != nil || lan.String() != tt.lan || self.String() != tt.self {
			t.Errorf("%v: %v %v %v, want %s %s", tt.addrs, lan, self, err, tt.lan, tt.self)
		}
	}
}

func TestLANHostsLeavesOutNetworkBroadcastAndSelf(t *testing.T) {
	hosts, err := LANHosts(netip.MustParsePrefix("127.0.0.0/24"), netip.MustParseAddr("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 253 || hosts[0].String() != "127.0.0.2" || hosts[252].String() != "127.0.0.254" {
		t.Fatalf("%d hosts: %v … %v", len(hosts), hosts[0], hosts[len(hosts)-1])
	}
	if narrow, _ := LANHosts(netip.MustParsePrefix("192.168.1.130/26"), netip.Addr{}); len(narrow) != 62 || narrow[0].String() != "192.168.1.129" {
		t.Fatalf("/26: %v", narrow)
	}
	for _, wide := range []string{"10.0.0.0/8", "192.168.0.0/23", "fd00::/120"} {
		if _, err := LANHosts(netip.MustParsePrefix(wide), netip.Addr{}); err == nil || !strings.Contains(err.Error(), "/24 or narrower") {
			t.Errorf("%s: %v", wide, err)
		}
	}
}

// The LAN scan finds a server on another host of the /24; the test's
// "LAN" is 127.0.0.0/24, so nothing but loopback is ever dialed.
func TestScanLANFindsAServerOnAnotherHostOfTheSubnet(t *testing.T) {
	srv := llmtest.NewServerOn(t, "127.0.0.7")
	srv.SetModels("lan-model")
	u, _ := url.Parse(srv.URL())
	port, _ := strconv.Atoi(u.Port())
	r, err := ScanLANAndRemember(context.Background(), t.TempDir(), []int{port},
		netip.MustParsePrefix("127.0.0.0/24"), netip.MustParseAddr("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("http://127.0.0.7:%d/v1", port)
	if len(r.Servers) != 1 || r.Servers[0].BaseURL != want || r.Servers[0].Models[0] != "lan-model" {
		t.Fatalf("servers %+v, want one at %s", r.Servers, want)
	}
}

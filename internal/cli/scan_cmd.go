package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
)

// scanCmd is `zero scan`: probe the loopback ports local model servers
// use, print every model found, remember the servers in servers.json.
func scanCmd(s stdio) *cobra.Command {
	var asJSON bool
	var ports []int
	c := &cobra.Command{
		Use:   "scan",
		Short: "Find model servers on this machine (127.0.0.1) and list their models",
		Long: `Probes 127.0.0.1 on the ports local model servers use (` + portList(discovery.ScanPorts()) + `)
in parallel, reads each one's GET /v1/models (Ollama's /api/tags when that does not
answer) and prints every model found, numbered. The servers found replace
servers.json in the config directory. Only loopback is probed. Finding nothing
exits 1.`,
		GroupID: groupSetup,
		Args:    cobra.NoArgs,
		RunE: ran(func(c *cobra.Command, _ []string) error {
			return runScan(c.Context(), s, ports, asJSON)
		}),
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"scanned","servers":[{"kind","baseURL","models"}]}`)
	c.Flags().IntSliceVar(&ports, "ports", nil, "probe these loopback `PORTS` instead (comma-separated)")
	return c
}

func runScan(ctx context.Context, s stdio, ports []int, asJSON bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	for _, p := range ports {
		if p < 1 || p > 65535 {
			return usagef("--ports %d: a TCP port is 1 to 65535", p)
		}
	}
	if len(ports) == 0 {
		ports = discovery.ScanPorts()
	}
	r, err := discovery.ScanAndRemember(ctx, config.Dir(), ports)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		discovery.WriteScan(s.out, r.Servers)
	}
	if len(r.Servers) == 0 {
		return fmt.Errorf("no model server on 127.0.0.1 (tried ports %s)", portList(ports))
	}
	return nil
}

func portList(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = fmt.Sprint(p)
	}
	return strings.Join(s, ", ")
}

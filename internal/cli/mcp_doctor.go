package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/mcp"
	"github.com/zero-agent/zero/internal/run"
)

func mcpDoctorCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Start every configured MCP server once and say which work: tools, errors, logs",
		Long: `Starts every enabled MCP server of this folder's configuration (as a run
would, in parallel, each up to its start-up timeout), prints each one's
state, tool count, origin and log file, then stops them. Exits 1 when a
server did not start.`,
		Args: cobra.NoArgs,
		RunE: ran(func(*cobra.Command, []string) error { return mcpDoctor(s) }),
	}
}

func mcpDoctor(s stdio) error {
	o, loaded, err := mcpLoad()
	if err != nil {
		return err
	}
	for _, w := range loaded.Warnings {
		fmt.Fprintln(s.err, "zero: warning:", w)
	}
	for _, sk := range loaded.Skipped {
		fmt.Fprintf(s.out, "%-16s skipped: %s (%s)\n", sk.Name, sk.Reason, sk.Origin)
	}
	if len(loaded.Servers) == 0 {
		if err := unreadable(loaded, len(loaded.Skipped)); err != nil {
			return err
		}
		fmt.Fprintln(s.out, "no MCP servers configured (zero mcp add NAME -- COMMAND, or zero mcp import --from claude)")
		return nil
	}
	logDir := os.TempDir()
	if st, err := openStore(); err == nil {
		logDir = run.MCPLogDir(st.Dir())
	}
	var m mcp.Manager
	m.Start(context.Background(), loaded.Servers, mcp.Options{LogDir: logDir, ClientVersion: Version, Roots: []string{o.Workspace}, Auth: run.MCPAuthStore()})
	defer m.Close()
	m.Wait(context.Background())
	failed := false
	for _, st := range m.Status() {
		fmt.Fprintf(s.out, "%-16s %s (%s)\n", st.Name, st.Summary(), st.Origin)
		if st.LogPath != "" {
			fmt.Fprintf(s.out, "  log: %s\n", st.LogPath)
		}
		failed = failed || st.State == mcp.StateFailed
	}
	if failed {
		return &exitError{ExitFailed, errors.New("an MCP server did not start (its log says why)")}
	}
	return nil
}

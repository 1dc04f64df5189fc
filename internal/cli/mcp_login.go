package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/mcp/mcpauth"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/run"
)

// loginTimeout bounds how long `zero mcp login` waits for the user to
// finish in the browser.
const loginTimeout = 5 * time.Minute

func mcpLoginCmds(s stdio) []*cobra.Command {
	login := &cobra.Command{
		Use:   "login NAME",
		Short: "Authorize Zero with a remote MCP server (OAuth) and store the token",
		Long: `Runs the OAuth authorization code flow with a remote (streamable HTTP) server:
Zero registers itself with the server's authorization server, prints the
address to open (and opens it with $BROWSER, xdg-open or open), waits for the
redirect on a 127.0.0.1 port, and stores the token in the config dir's
mcp-auth folder (readable by you only). Later runs send it and refresh it
when it expires; they never open a browser themselves.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMCPServers,
		RunE:              ran(func(_ *cobra.Command, args []string) error { return mcpLogin(s, args[0]) }),
	}
	logout := &cobra.Command{
		Use:               "logout NAME",
		Short:             "Forget the OAuth token stored for a remote MCP server",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeMCPServers,
		RunE:              ran(func(_ *cobra.Command, args []string) error { return mcpLogout(s, args[0]) }),
	}
	return []*cobra.Command{login, logout}
}

func mcpLogin(s stdio, name string) error {
	_, l, err := mcpLoad()
	if err != nil {
		return err
	}
	srv, ok := winner(l, name)
	if !ok {
		return usagef("no MCP server %q (zero mcp list shows them)", name)
	}
	switch srv.Transport {
	case mcpconfig.HTTP:
	case mcpconfig.SSE:
		return usagef("%s uses the legacy SSE transport, which Zero cannot authorize with OAuth; if the server also speaks streamable HTTP, set its transport to http", name)
	default:
		return usagef("%s is a local (stdio) server: it takes its credentials from its env, not from a login", name)
	}
	ctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, loginTimeout)
	defer cancel()
	store := run.MCPAuthStore()
	err = mcpauth.Login(ctx, store, name, srv.URL, mcpauth.LoginOptions{
		Out: s.out, Open: mcpauth.Browser(os.Getenv), Version: Version,
	})
	if err != nil {
		return fmt.Errorf("login to %s: %w", name, err)
	}
	fmt.Fprintf(s.out, "Logged in to %s; the token is in %s\n", name, store.Path(name))
	return nil
}

func mcpLogout(s stdio, name string) error {
	store := run.MCPAuthStore()
	ok, err := store.Remove(name)
	if err != nil {
		return err
	}
	if !ok {
		fmt.Fprintf(s.out, "no token stored for %s\n", name)
		return nil
	}
	fmt.Fprintf(s.out, "Logged out of %s (removed %s)\n", name, store.Path(name))
	return nil
}

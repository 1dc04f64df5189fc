package run

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/mcp"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
)

// MCP answers the app's /mcp commands: "" or "status" (each server's
// state, tools, origin and log), "tools" (every MCP tool, with its
// server's description), "reconnect NAME" (restart a server, e.g. after
// it crashed) and "remove NAME" (take it out of Zero's own mcp.json and
// stop it; the session's tool list stays as it was, so its calls now
// fail, and a later session does not start it).
func (rt *Runtime) MCP(ctx context.Context, arg string) (string, error) {
	verb, name, _ := strings.Cut(strings.TrimSpace(arg), " ")
	name = strings.TrimSpace(name)
	if rt.mcp == nil && verb != "remove" {
		return "no MCP servers configured (zero mcp add NAME -- COMMAND, or zero mcp import --from claude)", nil
	}
	switch verb {
	case "", "status":
		return rt.mcpStatus(), nil
	case "tools":
		return rt.mcpTools(), nil
	case "prompts":
		return rt.mcpPrompts(ctx), nil
	case "reconnect":
		if name == "" {
			return "", fmt.Errorf("/mcp reconnect NAME (/mcp lists the servers)")
		}
		if err := rt.mcp.mgr.Reconnect(ctx, name); err != nil {
			return "", err
		}
		return "reconnected " + name + "\n" + rt.mcpStatus(), nil
	case "remove":
		if name == "" {
			return "", fmt.Errorf("/mcp remove NAME (/mcp lists the servers)")
		}
		if err := mcpconfig.NewUserFile(config.Dir()).Remove(name); err != nil {
			return "", err
		}
		return "removed " + name + " from " + mcpconfig.NewUserFile(config.Dir()).Path + "; later sessions will not start it", nil
	}
	return "", fmt.Errorf("unknown /mcp command %q: /mcp [status|tools|prompts|reconnect NAME|remove NAME]", verb)
}

func (rt *Runtime) mcpStatus() string {
	var b strings.Builder
	for _, st := range rt.mcp.mgr.Status() {
		line := fmt.Sprintf("%-16s %-10s", st.Name, st.State)
		switch st.State {
		case mcp.StateConnected:
			line += fmt.Sprintf(" %d tools", st.Tools)
		case mcp.StateFailed:
			if st.Err != nil {
				line += " " + st.Err.Error()
			}
		}
		if st.Origin != "" {
			line += "  (" + st.Origin + ")"
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		if st.LogPath != "" {
			fmt.Fprintf(&b, "  log: %s\n", st.LogPath)
		}
	}
	for _, sk := range rt.mcp.loaded.Skipped {
		fmt.Fprintf(&b, "%-16s skipped    %s  (%s)\n", sk.Name, sk.Reason, sk.Origin)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (rt *Runtime) mcpTools() string {
	ts := rt.mcp.mgr.Tools()
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name() < ts[j].Name() })
	if len(ts) == 0 {
		return "no MCP tools (/mcp shows the servers' state)"
	}
	var b strings.Builder
	for _, t := range ts {
		desc, _, _ := strings.Cut(t.Description(), "\n")
		fmt.Fprintf(&b, "%s  %s  %s\n", t.Name(), t.SideEffect(), desc)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (rt *Runtime) mcpPrompts(ctx context.Context) string {
	ps := rt.mcp.mgr.Prompts(ctx)
	if len(ps) == 0 {
		return "no MCP prompts"
	}
	var b strings.Builder
	for _, p := range ps {
		args := ""
		for _, a := range p.Arguments {
			args += " <" + a + ">"
		}
		fmt.Fprintf(&b, "/%s%s  %s\n", toolName(p.Server, p.Name), args, p.Description)
	}
	return strings.TrimRight(b.String(), "\n")
}

package acp

import (
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
)

// mcpServers are the MCP servers an editor passes with session/new, load
// or resume (https://agentclientprotocol.com/protocol/session-setup#mcp-servers)
// as the run layer's: stdio, streamable HTTP and SSE, started with the
// config's in the background. ACP-transport servers are refused.
func mcpServers(in []acpsdk.McpServer) ([]mcpconfig.Server, error) {
	var out []mcpconfig.Server
	for i, m := range in {
		s := mcpconfig.Server{Enabled: true, Origin: "editor"}
		switch {
		case m.Stdio != nil:
			s.Name, s.Transport, s.Command, s.Args = m.Stdio.Name, mcpconfig.Stdio, m.Stdio.Command, m.Stdio.Args
			if len(m.Stdio.Env) > 0 {
				s.Env = map[string]string{}
				for _, e := range m.Stdio.Env {
					s.Env[e.Name] = e.Value
				}
			}
		case m.Http != nil:
			s.Name, s.Transport, s.URL, s.Headers = m.Http.Name, mcpconfig.HTTP, m.Http.Url, headers(m.Http.Headers)
		case m.Sse != nil:
			s.Name, s.Transport, s.URL, s.Headers = m.Sse.Name, mcpconfig.SSE, m.Sse.Url, headers(m.Sse.Headers)
		default:
			return nil, fmt.Errorf("MCP server %d: only stdio, http and sse servers are supported", i+1)
		}
		if s.Name == "" {
			return nil, fmt.Errorf("MCP server %d has no name", i+1)
		}
		out = append(out, s)
	}
	return out, nil
}

func headers(hs []acpsdk.HttpHeader) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, h := range hs {
		out[h.Name] = h.Value
	}
	return out
}

package mcp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is the connected session of the server named name.
func (m *Manager) session(name string) (*mcp.ClientSession, error) {
	s := m.find(name)
	if s == nil {
		return nil, fmt.Errorf("no MCP server %q is configured", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateConnected || s.session == nil {
		return nil, fmt.Errorf("MCP server %q is %s", name, s.state)
	}
	return s.session, nil
}

// ReadResource reads uri from the server named name (resources/read) and
// returns its text contents, each under its URI; binary contents are
// described, not included.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources
func (m *Manager) ReadResource(ctx context.Context, name, uri string) (string, error) {
	sess, err := m.session(name)
	if err != nil {
		return "", err
	}
	res, err := sess.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("MCP server %q: reading %s: %w", name, uri, err)
	}
	var b strings.Builder
	for _, c := range res.Contents {
		switch {
		case c.Text != "":
			fmt.Fprintf(&b, "%s\n", c.Text)
		case len(c.Blob) > 0:
			fmt.Fprintf(&b, "[binary resource %s: %s, %d bytes]\n", c.URI, c.MIMEType, len(c.Blob))
		}
	}
	return capOutput(strings.TrimRight(b.String(), "\n"), m.maxOutput), nil
}

// PromptInfo is one prompt a server offers, for slash commands.
type PromptInfo struct {
	Server, Name, Description string
	// Arguments are the prompt's argument names, required ones first.
	Arguments []string
}

// Prompts lists the prompts of every connected server (prompts/list),
// sorted by server then name; a server that offers none, or fails to
// list them, adds nothing.
func (m *Manager) Prompts(ctx context.Context) []PromptInfo {
	var out []PromptInfo
	for _, s := range m.list() {
		sess, err := m.session(s.cfg.Name)
		if err != nil || sess.InitializeResult() == nil || sess.InitializeResult().Capabilities == nil || sess.InitializeResult().Capabilities.Prompts == nil {
			continue
		}
		res, err := sess.ListPrompts(ctx, nil)
		if err != nil {
			continue
		}
		for _, p := range res.Prompts {
			info := PromptInfo{Server: s.cfg.Name, Name: p.Name, Description: p.Description}
			for _, a := range p.Arguments {
				if a.Required {
					info.Arguments = append(info.Arguments, a.Name)
				}
			}
			for _, a := range p.Arguments {
				if !a.Required {
					info.Arguments = append(info.Arguments, a.Name)
				}
			}
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Server != out[j].Server {
			return out[i].Server < out[j].Server
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// GetPrompt renders a server's prompt (prompts/get) with args and returns
// its messages' text, one after another, as the text of a user prompt.
func (m *Manager) GetPrompt(ctx context.Context, name, prompt string, args map[string]string) (string, error) {
	sess, err := m.session(name)
	if err != nil {
		return "", err
	}
	res, err := sess.GetPrompt(ctx, &mcp.GetPromptParams{Name: prompt, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %q: prompt %s: %w", name, prompt, err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if t := resultText(&mcp.CallToolResult{Content: []mcp.Content{msg.Content}}); t != "" {
			parts = append(parts, t)
		}
	}
	return capOutput(strings.Join(parts, "\n\n"), m.maxOutput), nil
}

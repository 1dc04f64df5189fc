package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// resourceMention is "@server:uri" in a prompt (Claude Code's syntax for
// an MCP resource): a server name, a colon, a URI without spaces.
var resourceMention = lazyregexp.New(`(?:^|\s)@([A-Za-z0-9_.-]+):(\S+)`)

// ExpandPrompt is the prompt as the model will get it (PrepareMCP first):
// `zero exec` calls it to refuse an unknown MCP prompt, skill or command
// before the run. A skill or command is expanded later, by Prompt, where
// its !`cmd` lines can ask the turn's asker.
func (s *Session) ExpandPrompt(ctx context.Context, prompt string) (string, error) {
	if err := s.checkCommand(prompt); err != nil {
		return "", err
	}
	_ = s.PrepareMCP(ctx)
	return s.expandMentions(ctx, prompt, s.stderrWarn, nil)
}

// expandMCP turns a prompt that names MCP parts into what the model gets:
// "/mcp__server__prompt args" is the server's prompt rendered with args
// (positional, in the prompt's argument order; the last takes the rest),
// and each "@server:uri" of a connected server has that resource's text
// attached after the prompt. A prompt that names neither is unchanged; a
// resource that cannot be read is left as written, with a warning.
func (s *Session) expandMCP(ctx context.Context, prompt string, warn func(string)) (string, error) {
	m := s.rt.mcp
	if m == nil {
		return prompt, nil
	}
	if strings.HasPrefix(prompt, "/mcp__") {
		rendered, err := s.mcpPrompt(ctx, strings.TrimPrefix(prompt, "/"))
		if err != nil {
			return "", err
		}
		prompt = rendered
	}
	if strings.Contains(prompt, resourcesHeader) {
		return prompt, nil // expanded already (ExpandPrompt, then Prompt)
	}
	var attached []string
	for _, sm := range resourceMention.FindAllStringSubmatch(prompt, -1) {
		server, uri := sm[1], sm[2]
		if !m.configured(server) {
			continue // an address, a handle: not ours
		}
		text, err := m.mgr.ReadResource(ctx, server, uri)
		if err != nil {
			warn(fmt.Sprintf("@%s:%s not attached: %v", server, uri, err))
			continue
		}
		attached = append(attached, fmt.Sprintf("<resource server=%q uri=%q>\n%s\n</resource>", server, uri, text))
	}
	if len(attached) == 0 {
		return prompt, nil
	}
	return prompt + resourcesHeader + strings.Join(attached, "\n"), nil
}

// resourcesHeader opens the attached resources.
const resourcesHeader = "\n\nMCP resources the prompt names:\n"

// mcpPrompt renders "mcp__server__prompt args".
func (s *Session) mcpPrompt(ctx context.Context, line string) (string, error) {
	name, rest, _ := strings.Cut(line, " ")
	for _, p := range s.rt.mcp.mgr.Prompts(ctx) {
		if toolName(p.Server, p.Name) != name {
			continue
		}
		args := map[string]string{}
		words := strings.Fields(rest)
		for i, a := range p.Arguments {
			switch {
			case i >= len(words):
			case i == len(p.Arguments)-1:
				args[a] = strings.Join(words[i:], " ")
			default:
				args[a] = words[i]
			}
		}
		return s.rt.mcp.mgr.GetPrompt(ctx, p.Server, p.Name, args)
	}
	return "", fmt.Errorf("no MCP prompt /%s (the connected servers' prompts: /mcp prompts)", name)
}

// toolName is the slash name of a server's prompt, spelled like its tools'.
func toolName(server, prompt string) string { return "mcp__" + server + "__" + prompt }

// configured reports whether name is one of the configured servers.
func (m *mcpServers) configured(name string) bool {
	for _, s := range m.loaded.Servers {
		if s.Name == name {
			return true
		}
	}
	return false
}

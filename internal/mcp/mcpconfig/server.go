// Package mcpconfig reads the MCP server configurations users already
// have (Zero's own file, the project's .mcp.json, Claude Code, Claude
// Desktop, Codex, Gemini CLI, VS Code) into one list with each server's
// origin, and edits Zero's own file. It owns file shapes and precedence
// only: it never starts a server (internal/mcp does).
//
// Precedence, highest first (Load; the same name lower down is listed
// as shadowed): Claude Code's local scope (~/.claude.json
// projects[WORKSPACE].mcpServers), the project's .mcp.json, Zero's
// CONFIGDIR/mcp.json, Claude Code's user scope (~/.claude.json
// mcpServers), Claude Desktop's claude_desktop_config.json, Codex's
// ~/.codex/config.toml, the project's .gemini/settings.json, Gemini
// CLI's ~/.gemini/settings.json, the project's .vscode/mcp.json. The
// three project files load only in a trusted folder. Zero writes only
// its own file; an entry there without command or url overrides the
// settings (enabled, tools, timeouts) of that name from any source.
//
// Shapes: https://docs.claude.com/en/docs/claude-code/mcp,
// https://github.com/openai/codex/blob/main/docs/config.md#mcp_servers,
// https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md,
// https://code.visualstudio.com/docs/copilot/reference/mcp-configuration;
// testdata/SOURCES.md says where each fixture comes from.
package mcpconfig

import "time"

// Transport is how Zero talks to a server.
type Transport string

// Transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http" // streamable HTTP
	SSE   Transport = "sse"  // the legacy HTTP+SSE transport
)

// Server is one configured MCP server, with ${VAR} and ${VAR:-default}
// already expanded.
type Server struct {
	Name      string
	Transport Transport
	// Stdio.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// HTTP and SSE.
	URL     string
	Headers map[string]string
	// BearerTokenEnv names an environment variable holding a bearer token
	// sent as Authorization (Codex's bearer_token_env_var).
	BearerTokenEnv string

	// Enabled is false for a server the user turned off (listed, not
	// started).
	Enabled bool
	// Required makes `zero exec` fail when the server does not start.
	Required bool
	// EnabledTools, when not empty, is the only tools offered;
	// DisabledTools are never offered. Names are the server's own.
	EnabledTools, DisabledTools []string
	// AlwaysLoad offers the server's tools directly even when the MCP
	// tools are many (no search indirection). AlwaysLoadTools does so for
	// some tools only.
	AlwaysLoad      bool
	AlwaysLoadTools []string
	// StartupTimeout bounds connecting and listing tools; ToolTimeout one
	// call. Zero means the default (30 s start-up, 10 min per call).
	StartupTimeout, ToolTimeout time.Duration

	// Origin says where the entry came from, for `zero mcp list`, e.g.
	// "project .mcp.json", "zero user", "claude user", "codex".
	Origin string
	// OriginPath is the file it was read from.
	OriginPath string
	// OverridePath, when set, is the entry of Zero's file ("file:line")
	// whose settings (enabled, tools, timeouts) were applied on top of
	// the entry from OriginPath, as `zero mcp disable` writes for another
	// tool's server.
	OverridePath string
}
